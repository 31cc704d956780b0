/**
 * Many CMS items a request, and unpublishing, through the runner: a workflow file run with
 * `x-runner run --sandbox` from the built bundle. The items Webflow refuses are named in each
 * step's output with Webflow's reason while the others are written, and the step succeeds;
 * a live update of items never published is refused item by item; a bulk of more than 100
 * items fails its check before anything is sent.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type RunDocument, runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-webflow-bulk-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The simulator's seeded records (`Simulator.seed`): the store site, its Products collection,
// whose every 25th item is a draft never published.
const store = "5eed00000000000000000001"
const products = "5eed00000000000000000003"
const product = (n: number) => `5eed${(0x100 + n).toString(16).padStart(20, "0")}`

const task = (name: string, type: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `sitebuilder/v1/${type}`, parameters })

const write = (name: string, workflow: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(workflow))
  return file
}

describe("x-runner run --sandbox: sitebuilder/v1's bulk item actions", () => {
  it("creates, updates, unpublishes and deletes many items a step, naming the items Webflow refuses; unpublishes one", async () => {
    const workflow = write("bulk.json", {
      label: "Bulk items",
      tasks: [
        // product-1 is a seeded item's slug: that item is refused, the other two created.
        task("created", "createCollectionItems", {
          siteId: store,
          collectionId: products,
          items: [{ name: "Bulk tee", slug: "bulk-tee", price: 10 }, { name: "Taken", slug: "product-1" }, { name: "Bulk cap", slug: "bulk-cap" }],
          live: true
        }),
        // product(25) was never published: a live update of it is refused, the others changed.
        task("changed", "updateCollectionItems", {
          siteId: store,
          collectionId: products,
          live: true,
          items: [{ id: "${created.results.0.id}", fieldData: { price: 11 } }, { id: product(25), fieldData: { price: 1 } }, { id: "${created.results.2.id}", fieldData: { name: "Bulk hat" } }]
        }),
        task("unpublishedMany", "deleteCollectionItems", { siteId: store, collectionId: products, itemIds: ["${created.results.0.id}", product(2)], live: true }),
        task("unpublishedOne", "unpublishCollectionItem", { siteId: store, collectionId: products, itemId: "${created.results.2.id}" }),
        task("stillStaged", "getCollectionItem", { siteId: store, collectionId: products, itemId: "${created.results.2.id}" }),
        task("deleted", "deleteCollectionItems", { siteId: store, collectionId: products, itemIds: ["${created.results.0.id}", "${created.results.2.id}"] })
      ]
    })
    const { code, stderr, stdout } = await runner(["run", workflow, "--sandbox", "--output", "json", "--without-rate-limits"])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    expect(document.status).toBe("succeeded")
    const output = (name: string) => document.steps.find((step) => step.name === name)!.output
    const created = output("created")
    expect(created).toMatchObject({
      succeeded: 2,
      failed: 1,
      results: [
        { index: 0, ok: true, output: { fieldData: { slug: "bulk-tee" }, isDraft: false } },
        { index: 1, ok: false, error: { _tag: "InvalidInput", message: "slug: Unique value is already in database: 'product-1'" } },
        { index: 2, ok: true, output: { fieldData: { slug: "bulk-cap" } } }
      ]
    })
    const [tee, , cap] = created.results.map((r: { id?: string }) => r.id)
    expect(output("changed")).toMatchObject({
      succeeded: 2,
      failed: 1,
      results: [
        { index: 0, id: tee, ok: true, output: { fieldData: { price: 11 } } },
        { index: 1, id: product(25), ok: false, error: { _tag: "Conflict", message: "id: Item not published" } },
        { index: 2, id: cap, ok: true, output: { fieldData: { name: "Bulk hat" } } }
      ]
    })
    expect(output("unpublishedMany")).toMatchObject({ succeeded: 2, failed: 0 })
    expect(output("unpublishedOne")).toEqual({ id: cap, unpublished: true })
    expect(output("stillStaged")).toMatchObject({ id: cap, isDraft: true, fieldData: { name: "Bulk hat" } })
    expect(output("deleted")).toEqual({
      succeeded: 2,
      failed: 0,
      results: [{ index: 0, id: tee, ok: true, output: { id: tee } }, { index: 1, id: cap, ok: true, output: { id: cap } }]
    })
  })

  it("more than Webflow's 100 items a request fails the workflow's check, before anything is sent", async () => {
    const workflow = write("too-many.json", {
      label: "Too many",
      tasks: [task("tooMany", "deleteCollectionItems", { siteId: store, collectionId: products, itemIds: Array.from({ length: 101 }, (_, n) => product(n + 1)) })]
    })
    const { code, stderr } = await runner(["run", workflow, "--sandbox"])
    expect(code).not.toBe(0)
    expect(stderr).toContain("itemIds")
    expect(stderr).toContain("at most 100")
  })
})
