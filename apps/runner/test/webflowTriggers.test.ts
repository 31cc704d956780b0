/**
 * sitebuilder/v1's webhook triggers end to end through the runner, from the built bundle:
 * `run <run workflow> --sandbox --serve <trigger workflow>` for each case, the run workflow's
 * steps performing what fires the trigger (what must not fire it first), the Webflow
 * simulator's signed delivery verified by the served trigger, and its workflow run once on the
 * event. The trigger workflow's step reads what the event names (a read fires no trigger), and
 * the test checks it against what the run made.
 *
 * What only a visitor, a shopper or the Designer does is fired by the simulator's own methods,
 * against `x-runner serve` (the second table, `caused`). Every trigger of the component has a
 * case in one table or the other: a trigger added without one fails here.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sitebuilder } from "@x/sitebuilder"
import * as Simulator from "@x/sitebuilder/testing"
import { freePort, runServing, served, type Task } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-webflow-triggers-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The simulator's seeded records (`Simulator.seed`).
const store = "5eed00000000000000000001"
const products = "5eed00000000000000000003"
const blogPosts = "5eed00000000000000000004"
// sites, collections and pages
const portfolio = "5eed00000000000000000002"
const shopDomain = "5eed0000000000000000d001"
const aboutPage = "5eed000000000000000f6002"
const workPage = "5eed000000000000000f6011"
// orders, products and inventory
const skuCollection = "5eed000000000000000ec000"
const tshirtSku = "5eed000000000000000ec101"
const product = (n: number) => `5eed${(0x100 + n).toString(16).padStart(20, "0")}`


interface Case {
  readonly parameters: Record<string, unknown>
  /** The trigger workflow's one step: it reads what the event names. */
  readonly reads: Task
  /** The run's steps: what does not fire the trigger first, then what does. */
  readonly tasks: ReadonlyArray<Task>
  /** The event's id, from the run's outputs. */
  readonly event: (output: (name: string) => any) => RegExp
  /** What the trigger's step read, from the run's outputs. */
  readonly expected: (output: (name: string) => any) => object
}

const task = (name: string, type: string, parameters: Record<string, unknown>): Task => ({ label: name, name, type: `sitebuilder/v1/${type}`, parameters })
const readItem = task("read", "getCollectionItem", { siteId: "${trigger.siteId}", collectionId: "${trigger.collectionId}", itemId: "${trigger.id}" })
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const cases: Record<string, Case> = {
  collectionItemCreated: {
    parameters: { siteId: store, collectionId: products },
    reads: readItem,
    tasks: [
      task("rename", "updateCollectionItem", { siteId: store, collectionId: products, itemId: product(5), fieldData: { name: "Renamed 5" } }),
      task("elsewhere", "createCollectionItem", { siteId: store, collectionId: blogPosts, fieldData: { name: "Elsewhere", slug: "elsewhere" } }),
      task("created", "createCollectionItem", { siteId: store, collectionId: products, fieldData: { name: "Trigger tee", slug: "trigger-tee", price: 21 } })
    ],
    event: (output) => new RegExp(`^${escape(output("created").id)}@\\d{4}-`),
    expected: (output) => ({ id: output("created").id, fieldData: { name: "Trigger tee", slug: "trigger-tee", price: 21 } })
  },
  collectionItemChanged: {
    parameters: { siteId: store, collectionId: products },
    reads: readItem,
    tasks: [
      task("created", "createCollectionItem", { siteId: store, collectionId: products, fieldData: { name: "Plain tee", slug: "plain-tee" } }),
      task("elsewhere", "createCollectionItem", { siteId: store, collectionId: blogPosts, fieldData: { name: "Post", slug: "post" } }),
      task("changed", "updateCollectionItem", { siteId: store, collectionId: products, itemId: "${created.id}", fieldData: { price: 33 } })
    ],
    event: (output) => new RegExp(`^${escape(output("created").id)}@\\d{4}-`),
    expected: (output) => ({ id: output("created").id, fieldData: { name: "Plain tee", price: 33 } })
  },
  // items: deleted and unpublished (a staged read of what the event names: the unpublished item is still staged)
  collectionItemDeleted: {
    parameters: { siteId: store, collectionId: products },
    reads: task("read", "listCollectionItems", { siteId: store, collectionId: products, slug: "${trigger.fieldData.slug}" }),
    tasks: [
      task("created", "createCollectionItem", { siteId: store, collectionId: products, fieldData: { name: "Doomed tee", slug: "doomed-tee" } }),
      task("elsewhere", "createCollectionItem", { siteId: store, collectionId: blogPosts, fieldData: { name: "Gone post", slug: "gone-post" } }),
      task("otherDeleted", "deleteCollectionItem", { siteId: store, collectionId: blogPosts, itemId: "${elsewhere.id}" }),
      task("deleted", "deleteCollectionItem", { siteId: store, collectionId: products, itemId: "${created.id}" })
    ],
    // A deleted item is deleted once: its id is the event.
    event: (output) => new RegExp(`^${escape(output("created").id)}$`),
    // Gone from the collection: the slug the event carries finds nothing.
    expected: () => ({ items: [] })
  },
  collectionItemUnpublished: {
    parameters: { siteId: store, collectionId: products },
    reads: readItem,
    tasks: [
      task("created", "createCollectionItem", { siteId: store, collectionId: products, live: true, fieldData: { name: "Brief tee", slug: "brief-tee" } }),
      task("otherDeleted", "deleteCollectionItem", { siteId: store, collectionId: products, itemId: product(12) }),
      task("unpublished", "deleteCollectionItem", { siteId: store, collectionId: products, itemId: "${created.id}", live: true })
    ],
    event: (output) => new RegExp(`^${escape(output("created").id)}@\\d{4}-`),
    // Still there staged, as a draft.
    expected: (output) => ({ id: output("created").id, isDraft: true, fieldData: { name: "Brief tee", slug: "brief-tee" } })
  },
  collectionItemPublished: {
    parameters: { siteId: store, collectionId: products },
    reads: task("read", "getCollectionItem", { siteId: "${trigger.siteId}", collectionId: "${trigger.collectionId}", itemId: "${trigger.id}", live: true }),
    tasks: [
      task("created", "createCollectionItems", { siteId: store, collectionId: products, items: [{ name: "Fresh tee", slug: "fresh-tee", price: 12 }] }),
      task("elsewhere", "publishCollectionItems", { siteId: store, collectionId: blogPosts, itemIds: ["5eed00000000000000000201"] }),
      task("published", "publishCollectionItems", { siteId: store, collectionId: products, itemIds: ["${created.results.0.id}"] })
    ],
    // Each publish is its own event: the item's id with its lastUpdated and lastPublished.
    event: (output) => new RegExp(`^${escape(output("created").results[0].id)}@\\d{4}-[^@]+@\\d{4}-`),
    // Read live: the published version.
    expected: (output) => ({ id: output("created").results[0].id, isDraft: false, fieldData: { name: "Fresh tee", price: 12 } })
  },
  // sites, collections and pages
  sitePublished: {
    parameters: { siteId: store },
    reads: task("read", "getSite", { siteId: "${trigger.siteId}" }),
    tasks: [
      task("elsewhere", "publishSite", { siteId: portfolio, publishToWebflowSubdomain: true }),
      task("seo", "updatePageMetadata", { pageId: aboutPage, seoTitle: "Not a publish" }),
      task("published", "publishSite", { siteId: store, customDomains: [shopDomain], publishToWebflowSubdomain: true })
    ],
    event: (output) => new RegExp(`^${store}@${escape(output("published").customDomains[0].lastPublished)}$`),
    expected: (output) => ({ id: store, lastPublished: output("published").customDomains[0].lastPublished })
  },
  pageMetadataUpdated: {
    parameters: { siteId: store },
    reads: task("read", "getPageMetadata", { pageId: "${trigger.pageId}" }),
    tasks: [
      task("before", "getPageMetadata", { pageId: aboutPage }),
      task("elsewhere", "updatePageMetadata", { pageId: workPage, title: "Works" }),
      task("updated", "updatePageMetadata", { pageId: aboutPage, seoTitle: "About Acme", openGraphDescription: "Meet the makers." })
    ],
    event: (output) => new RegExp(`^${aboutPage}@${escape(output("updated").lastUpdated)}$`),
    expected: (output) => ({ id: aboutPage, lastUpdated: output("updated").lastUpdated, seo: { title: "About Acme" }, openGraph: { description: "Meet the makers.", descriptionCopied: false } })
  },
  // orders, products and inventory
  orderChanged: {
    parameters: { siteId: store },
    reads: task("read", "getOrder", { siteId: store, orderId: "${trigger.orderId}" }),
    tasks: [
      task("restocked", "updateInventory", { siteId: store, skuCollectionId: skuCollection, skuId: tshirtSku, inventoryType: "finite", updateQuantity: 1 }),
      task("tracked", "updateOrder", { siteId: store, orderId: "a7b-8c9", shippingProvider: "UPS", shippingTracking: "1Z999" })
    ],
    event: (output) => new RegExp(`^${escape(output("tracked").orderId)}:fulfilled:[0-9a-f]{16}$`),
    expected: () => ({ orderId: "a7b-8c9", status: "fulfilled", shippingProvider: "UPS", shippingTracking: "1Z999" })
  },
  inventoryChanged: {
    parameters: { siteId: store },
    reads: task("read", "getInventory", { siteId: store, skuCollectionId: skuCollection, skuId: "${trigger.id}" }),
    tasks: [
      task("tracked", "updateOrder", { siteId: store, orderId: "a7b-8c9", comment: "Gift wrap" }),
      task("counted", "updateInventory", { siteId: store, skuCollectionId: skuCollection, skuId: tshirtSku, inventoryType: "finite", quantity: 40 })
    ],
    event: () => new RegExp(`^${tshirtSku}:finite:40$`),
    expected: () => ({ id: tshirtSku, quantity: 40, inventoryType: "finite" })
  }
}

/**
 * Runs `exercise` on every case, at most `atOnce` at a time, and collects every failure (one case's
 * failure does not hide another's). Each case starts runner processes: all at once, they stall a
 * loaded 2-core machine; a few at a time keeps each case's waits short of their limits.
 */
const eachAtMost = async <C>(atOnce: number, table: Record<string, C>, exercise: (name: string, c: C) => Promise<void>) => {
  const pending = Object.entries(table)
  const failures: Array<unknown> = []
  const worker = async (): Promise<void> => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      await exercise(...next).catch((error) => failures.push(error))
    }
  }
  await Promise.all(Array.from({ length: atOnce }, worker))
  if (failures.length > 0) throw new Error(failures.map(String).join("\n\n"))
}

const write = (name: string, workflow: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(workflow))
  return file
}

const exercise = async (name: string, c: Case) => {
  const { output, trigger } = await runServing(dir, name, { type: `sitebuilder/v1/${name}`, parameters: c.parameters, reads: c.reads }, c.tasks)
  expect(trigger.event, name).toMatch(c.event(output))
  expect(trigger.steps[0]!.output, name).toMatchObject(c.expected(output))
}

describe("sitebuilder/v1's webhook triggers through the runner", () => {
  it("has a case for every trigger, in one table or the other", () => {
    expect([...Object.keys(cases), ...Object.keys(caused)].sort()).toEqual(Object.keys(sitebuilder.triggers).sort())
  })
})

describe("x-runner run --sandbox --serve: sitebuilder/v1's webhook triggers", () => {
  it("fires each on what the run does, once, verified and with the event's records, and runs its workflow", async () => {
    await eachAtMost(3, cases, exercise)
  }, 600_000)
})

/**
 * What only Webflow's visitors, shoppers or Designer do (a form submitted, an order placed, a
 * page created or deleted) is no action a run could take: these triggers are served by
 * `x-runner serve` against a simulator this test starts (the connection in the environment),
 * which the test makes do it. The trigger workflow's step writes what the event says into a
 * seeded item's name, which the test reads back from the simulator.
 */
interface Caused {
  readonly parameters: Record<string, unknown>
  /** The item's new name, from the event (`${trigger.…}` references). */
  readonly says: string
  /** What fires the trigger (and, first, what must not). */
  readonly cause: (sim: Simulator.Simulator) => unknown
  /** The name expected. */
  readonly expected: (sim: Simulator.Simulator) => string
}

const caused: Record<string, Caused> = {
  formSubmitted: {
    parameters: { siteId: store, formName: "Contact Us" },
    says: "${trigger.name}: ${trigger.data.Name} <${trigger.data.Email}>",
    cause: (sim) => {
      sim.submitForm(Simulator.seed.forms.newsletter, { Email: "not-this-one@example.com" })
      sim.submitForm(Simulator.seed.forms.contact, { Name: "Zaphod", Email: "zaphod@example.com", Message: "Hi" })
    },
    expected: () => "Contact Us: Zaphod <zaphod@example.com>"
  },
  // comments: made in the Designer, on a page
  commentCreated: {
    parameters: { siteId: store, pageId: aboutPage, threadsOnly: true },
    says: "${trigger.author.name} (${trigger.type}): ${trigger.content}",
    cause: (sim) => {
      sim.comment(store, { pageId: "5eed000000000000000f6000", content: "Another page" })
      const { threadId } = sim.comment(store, { pageId: aboutPage, content: "Is this the right photo?" })
      // A reply, when only new threads are wanted, is no event.
      sim.comment(store, { pageId: aboutPage, threadId, content: "Yes", author: { userId: "5eed000000000000000c0002", email: "arthur@example.com", name: "Arthur Dent" } })
    },
    expected: () => "Ford Prefect (new_comment): Is this the right photo?"
  },
  // sites, collections and pages
  pageCreated: {
    parameters: { siteId: store },
    says: "${trigger.pageTitle} at ${trigger.publishedPath}",
    cause: (sim) => {
      sim.createPage(portfolio, { title: "Elsewhere" })
      sim.createPage(store, { title: "Heart of Gold Specs", slug: "heart-of-gold" })
    },
    expected: () => "Heart of Gold Specs at /heart-of-gold"
  },
  pageDeleted: {
    parameters: { siteId: store },
    says: "${trigger.pageTitle} (${trigger.publishedPath}) deleted",
    cause: (sim) => {
      sim.deletePage(workPage)
      sim.deletePage(aboutPage)
    },
    expected: () => "About (/about) deleted"
  },
  // orders, products and inventory
  newOrder: {
    parameters: { siteId: store },
    says: "New order from ${trigger.customerInfo.fullName}: ${trigger.purchasedItemsCount} item(s), ${trigger.status}",
    cause: async (sim) => {
      // An order fulfilled (ecomm_order_changed) is no new order.
      const fulfilled = await fetch(`${sim.baseUrl}/sites/${store}/orders/a1b-2c3/fulfill`, {
        method: "POST", headers: { authorization: `Bearer ${sim.issueToken()}`, "content-type": "application/json" }, body: "{}"
      })
      expect(fulfilled.status).toBe(200)
      sim.placeOrder(store, { customer: "Marie Curie", skuId: tshirtSku, count: 2 })
    },
    expected: () => "New order from Marie Curie: 2 item(s), unfulfilled"
  }
}

const serveCaused = async (name: string, c: Caused) => {
  const sim = await Simulator.start({ rateLimit: false, deliveryRetryDelayMs: 100 })
  try {
    const port = await freePort()
    const target = product(7)
    const workflow = write(`${name}.served.json`, {
      label: `On ${name}`,
      triggers: [{ label: name, name, type: `sitebuilder/v1/${name}`, parameters: c.parameters }],
      tasks: [task("write", "updateCollectionItem", { siteId: store, collectionId: products, itemId: target, fieldData: { name: c.says } })]
    })
    const server = served(["serve", workflow, "--public-url", `http://127.0.0.1:${port}/hooks/${name}`, "--port", String(port), "--data-dir", join(dir, `${name}-data`)], {
      XRUNNER_SITEBUILDER_CLIENT_ID: sim.clientId,
      XRUNNER_SITEBUILDER_CLIENT_SECRET: sim.clientSecret,
      XRUNNER_SITEBUILDER_ACCESS_TOKEN: sim.issueToken(),
      XRUNNER_SITEBUILDER_BASE_URL: sim.baseUrl
    })
    await server.waitFor(`● serving sitebuilder/v1/${name}`)
    await c.cause(sim)
    await server.waitFor(/■ event \S+ succeeded/)
    await sim.idle()
    // Exactly one event: what must not fire the trigger fired nothing.
    expect(server.log().split("▶ event ").length - 1, `${name}: ${server.log()}`).toBe(1)
    expect(sim.items.get(target)!.fieldData["name"], name).toBe(c.expected(sim))
    server.child.kill("SIGTERM")
    await server.exited
    // Stopping disabled the trigger: its webhook is gone.
    expect([...sim.webhooks.values()], name).toEqual([])
  } finally {
    await sim.close()
  }
}

describe("x-runner serve against a simulator: the triggers fired by visitors, shoppers and the Designer", () => {
  it("fires each on what the simulator is made to do, once, verified, and runs its workflow", async () => {
    await eachAtMost(3, caused, serveCaused)
  }, 600_000)
})
