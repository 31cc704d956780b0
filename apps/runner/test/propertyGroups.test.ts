/**
 * Property groups through the built CLI: `describe` shows a group and says how to see its
 * fields, `options` loads them from the sandbox's simulator, and a workflow creates a CMS item
 * with typed fields (a bad field refused before the write, naming it).
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-groups-"))
const products = "5eed00000000000000000003"
const type = "sitebuilder/v1/createCollectionItem"

const workflowFile = (name: string, content: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(content, null, 2))
  return file
}

describe("x-runner and property groups", () => {
  it("describe shows the group (kind GROUP, dependsOn) and says how to see its fields", async () => {
    const { code, stderr, stdout } = await runner(["describe", type])
    expect(code).toBe(0)
    const action = JSON.parse(stdout)
    expect(action.name).toBe("createCollectionItem")
    expect(action.props.fieldData).toMatchObject({ kind: "GROUP", required: true, dependsOn: ["collectionId"] })
    expect(stderr).toContain(`${type}: fieldData holds fields loaded from collectionId; see them with: x-runner options ${type} fieldData --param collectionId=…`)
    const component = await runner(["describe", "sitebuilder/v1"])
    expect(component.stderr).toContain("sitebuilder/v1/updateCollectionItem: fieldData holds fields loaded from collectionId")
  })

  it("options loads a group's fields from the sandbox: title, kind, required, choices; without collectionId it says what it needs", async () => {
    const { code, stdout } = await runner(["options", type, "fieldData", "--param", `collectionId=${products}`, "--sandbox"])
    expect(code).toBe(0)
    const fields = JSON.parse(stdout)
    expect(Object.keys(fields)).toEqual([
      "name", "slug", "price", "stock", "featured", "description", "category", "released", "related", "posts",
      "contact-email", "support-phone", "website", "color", "image", "manual"
    ])
    expect(fields.name).toEqual({ kind: "STRING", title: "Name", required: true, maxLength: 256 })
    expect(fields.price).toEqual({ kind: "NUMBER", title: "Price", required: false, minimum: 0 })
    expect(fields.category).toMatchObject({
      kind: "STRING",
      choices: [{ label: "Apparel", value: "5eed00000000000000000401" }, { label: "Gadgets", value: "5eed00000000000000000402" }]
    })
    const missing = await runner(["options", type, "fieldData", "--sandbox"])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("fieldData: needs collectionId to load its fields")
  })

  it("run --sandbox: a workflow creates an item with typed fields and reads it back; a bad field fails its step before the write", async () => {
    const file = workflowFile("create-item.json", {
      label: "Create a product",
      inputs: { collectionId: products, price: "24.5" },
      tasks: [
        {
          label: "Create it",
          name: "created",
          type,
          parameters: {
            collectionId: "${inputs.collectionId}",
            fieldData: { name: "Towel", slug: "towel", price: "${inputs.price}", category: "5eed00000000000000000402", featured: true }
          }
        },
        {
          label: "Read it back",
          name: "read",
          type: "sitebuilder/v1/getCollectionItem",
          parameters: { collectionId: "${inputs.collectionId}", itemId: "${created.id}" }
        }
      ]
    })
    const ok = await runner(["run", file, "--sandbox", "--output", "json"])
    expect(ok.code).toBe(0)
    const result = JSON.parse(ok.stdout)
    expect(result.steps.map((s: { status: string }) => s.status)).toEqual(["succeeded", "succeeded"])
    const expected = { name: "Towel", slug: "towel", price: 24.5, category: "5eed00000000000000000402", featured: true }
    expect(result.steps[0].output).toMatchObject({ isDraft: false, fieldData: expected })
    expect(result.steps[1].output).toMatchObject({ id: result.steps[0].output.id, isDraft: false, fieldData: expected })
    expect(result.steps[1].output.fieldData).toEqual(expected)

    const bad = await runner(["run", file, "--sandbox", "--output", "json", "--input", "price=cheap"])
    expect(bad.code).toBe(1)
    const failed = JSON.parse(bad.stdout)
    expect(failed.steps[0]).toMatchObject({ status: "failed", error: { tag: "InvalidInput" } })
    expect(failed.steps[0].error.message).toContain("fieldData.price: must be a number")
    expect(failed.steps[1].status).toBe("skipped")
  })
})
