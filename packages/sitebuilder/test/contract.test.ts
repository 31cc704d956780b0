/**
 * The simulator checked against Webflow's published OpenAPI document (../shared/specs): every
 * record it returns validates against the spec's 200 response schema of its endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { Ajv2020 } from "ajv/dist/2020.js"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parse } from "yaml"
import * as Simulator from "../src/testing/simulator.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/webflow/webflow-data-api-v2-openapi.yml", import.meta.url))

/**
 * OpenAPI's `nullable` (this 3.1 document still uses it) as JSON Schema: "or null". An item's
 * `lastPublished` is null until it is first published, as the document's own webhook examples
 * show (`collection_item_deleted`), though its response schemas say string.
 * A form's `fields` (by field id) is capped at one by `maxProperties: 1`, though the document's
 * own example of `GET /forms/{form_id}` has two and every form with more than one field has more:
 * the cap is dropped there, the fields' own schema still checked. A webhook's `filter` is null
 * when it has none, as the document's own webhook examples show, though its schema says object.
 * A page's `parentId` and `collectionId` are null for a top-level static page, as the document's
 * own page examples show and its `collectionId` description says, though its schema says string.
 */
const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value !== "object" || value === null) return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) {
    if (key === "nullable") continue
    const isSchema = typeof item === "object" && item !== null && !Array.isArray(item)
    const description = isSchema ? String((item as { description?: unknown }).description ?? "") : ""
    const pageNull = (key === "parentId" && description === "Identifier of the parent folder") ||
      (key === "collectionId" && description.includes("value will be null if the Page is not part of a Collection"))
    const orNull = isSchema && (key === "lastPublished" || pageNull || (key === "filter" && (item as { type?: unknown }).type === "object"))
    const formFields = isSchema && key === "fields" && (item as Record<string, unknown>)["maxProperties"] === 1
    const { maxProperties: _cap, ...uncapped } = formFields ? item as Record<string, unknown> : {}
    out[key] = normalize(orNull ? { ...item, nullable: true } : formFields ? uncapped : item)
  }
  if (record["nullable"] === true) return { anyOf: [out, { type: "null" }] }
  return out
}

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
})
afterAll(() => sim.close())

/**
 * The document, read and compiled once for the whole file (each answer's schema compiled the
 * first time it is asked for): parsing and compiling it again for every test was most of its time.
 */
let compiled: { readonly spec: any; readonly ajv: Ajv2020; readonly schemaOf: (path: string, method: string, status?: string) => ReturnType<Ajv2020["compile"]> } | undefined
const document = () => {
  if (compiled !== undefined) return compiled
  const spec = normalize(parse(readFileSync(specPath, "utf8"))) as any
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: "webflow", components: spec.components }, "webflow")
  const validators = new Map<string, ReturnType<Ajv2020["compile"]>>()
  const schemaOf = (path: string, method: string, status = "200") => {
    const key = `${method} ${path} ${status}`
    const known = validators.get(key)
    if (known !== undefined) return known
    const schema = JSON.parse(
      JSON.stringify(spec.paths[path][method].responses[status].content["application/json"].schema).replaceAll(
        "\"#/components/",
        "\"webflow#/components/"
      )
    )
    const validate = ajv.compile(schema)
    validators.set(key, validate)
    return validate
  }
  return (compiled = { spec, ajv, schemaOf })
}

/** The document's schemas compiled, and a caller of the simulator that checks the status. */
const setup = () => {
  const { ajv, schemaOf, spec } = document()
  const token = sim.issueToken()
  const call = async (method: string, path: string, body?: object, status = 200) => {
    const response = await fetch(`${sim.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    expect(response.status).toBe(status)
    return response.json()
  }
  const check = (path: string, method: string, value: unknown, status = "200") => {
    const validate = schemaOf(path, method, status)
    validate(value)
    expect(validate.errors ?? []).toEqual([])
  }
  return { spec, ajv, call, check }
}

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(Contract.documentsPresent(specPath))("the simulator against webflow-data-api-v2-openapi.yml", () => {
  it("sites, orders, a fulfilled order, collections (with their fields), items, created and updated items validate against the spec", async () => {
    const { call, check } = setup()
    const { sites } = await call("GET", "/sites")
    check("/sites", "get", { sites })
    const site = sites.find((s: { displayName: string }) => s.displayName === "Acme Store")
    const orders = await call("GET", `/sites/${site.id}/orders`)
    check("/sites/{site_id}/orders", "get", orders)
    const fulfilled = await call("POST", `/sites/${site.id}/orders/${orders.orders[0].orderId}/fulfill`, { sendOrderFulfilledEmail: false })
    check("/sites/{site_id}/orders/{order_id}/fulfill", "post", fulfilled)
    const collections = await call("GET", `/sites/${site.id}/collections`)
    check("/sites/{site_id}/collections", "get", collections)
    const items = await call("GET", `/collections/${collections.collections[0].id}/items`)
    check("/collections/{collection_id}/items", "get", items)
    check("/collections/{collection_id}/items/live", "get", await call("GET", `/collections/${collections.collections[0].id}/items/live?offset=100&limit=100`))
    check("/collections/{collection_id}/items/{item_id}", "get", await call("GET", `/collections/${collections.collections[0].id}/items/${items.items[0].id}`))
    const products = Simulator.seed.collections.products
    const details = await call("GET", `/collections/${products}`)
    expect(details.fields.map((f: { type: string }) => f.type)).toEqual([
      "PlainText", "PlainText", "Number", "Number", "Switch", "RichText", "Option", "DateTime", "Reference", "MultiReference",
      "Email", "Phone", "Link", "Color", "Image", "File"
    ])
    check("/collections/{collection_id}", "get", details)
    const live = await call("POST", `/collections/${products}/items/live`, { isDraft: false, fieldData: { name: "Towel", slug: "towel", price: 4.2 } }, 202)
    check("/collections/{collection_id}/items/live", "post", live, "202")
    const updated = await call("PATCH", `/collections/${products}/items/${live.id}`, { fieldData: { featured: true } })
    check("/collections/{collection_id}/items/{item_id}", "patch", updated)
    check("/collections/{collection_id}/items/{item_id}/live", "patch", await call("PATCH", `/collections/${products}/items/${live.id}/live`, { fieldData: { price: 5 } }))
    // assets
    const assets = await call("GET", `/sites/${site.id}/assets`)
    expect(assets.assets.length).toBeGreaterThan(0)
    check("/sites/{site_id}/assets", "get", assets)
    check("/assets/{asset_id}", "get", await call("GET", `/assets/${Simulator.seed.assets.logo}`))
    check("/sites/{site_id}/assets", "post", await call("POST", `/sites/${site.id}/assets`, { fileName: "a.png", fileHash: "3c7d87c9575702bc3b1e991f4d3c638e" }))
    // items
    check("/collections/{collection_id}/items/{item_id}/live", "get", await call("GET", `/collections/${products}/items/${live.id}/live`))
    const published = await call("POST", `/collections/${products}/items/publish`, { itemIds: [live.id, "0123456789abcdef01234567"] }, 202)
    expect(published.errors).toHaveLength(1)
    check("/collections/{collection_id}/items/publish", "post", published, "202")
  })

  // Many items a request. The document's schemas of these answers are a single item's (or, for
  // `PATCH …/items`, require a single item's fields beside `items`), while its examples answer
  // `{items: [...]}`: the simulator answers as the examples, and each of its items is checked
  // against the document's Collection Item (the answer of `POST …/items`).
  it("many items created (staged and live) and updated (staged and live): each item of the answer validates as a Collection Item; a refusal as Webflow's 400", async () => {
    const { call, check } = setup()
    const products = Simulator.seed.collections.products
    const eachItem = (answer: { items: ReadonlyArray<unknown> }, count: number) => {
      expect(answer.items).toHaveLength(count)
      for (const item of answer.items) check("/collections/{collection_id}/items", "post", item, "202")
    }
    const staged = await call("POST", `/collections/${products}/items/bulk`, { isDraft: true, fieldData: [{ name: "Bulk 1", slug: "bulk-1" }, { name: "Bulk 2", slug: "bulk-2" }] }, 202)
    eachItem(staged, 2)
    eachItem(await call("POST", `/collections/${products}/items`, { items: [{ fieldData: { name: "Many 1", slug: "many-1" } }] }, 202), 1)
    eachItem(await call("POST", `/collections/${products}/items/live`, { items: [{ fieldData: { name: "Live 1", slug: "live-1" } }] }, 202), 1)
    eachItem(await call("PATCH", `/collections/${products}/items`, { items: [{ id: staged.items[0].id, fieldData: { price: 3 } }] }), 1)
    eachItem(await call("PATCH", `/collections/${products}/items/live`, { items: [{ id: Simulator.seed.productItem(3), fieldData: { price: 3 } }] }), 1)
    const refused = await call("PATCH", `/collections/${products}/items`, { items: [{ id: staged.items[1].id, fieldData: { price: "free" } }] }, 400)
    // The document's error schema does not compile (its `details` items are not a schema): its example's shape instead.
    expect(refused).toEqual({
      code: "validation_error",
      message: "Validation Error",
      externalReference: null,
      details: [{ param: "items[0].fieldData.price", description: "Expected a number" }]
    })
  })

  // forms
  it("forms and form submissions (a visitor's too) validate against the spec", async () => {
    const { call, check } = setup()
    const { seed } = Simulator
    const forms = await call("GET", `/sites/${seed.sites.store}/forms`)
    expect(forms.forms).toHaveLength(2)
    check("/sites/{site_id}/forms", "get", forms)
    check("/forms/{form_id}", "get", await call("GET", `/forms/${seed.forms.contact}`))
    sim.submitForm(seed.forms.contact, { Name: "Zaphod", Email: "zaphod@example.com", Phone: 15550000000 })
    const submissions = await call("GET", `/forms/${seed.forms.contact}/submissions`)
    expect(submissions.formSubmissions).toHaveLength(4)
    check("/forms/{form_id}/submissions", "get", submissions)
    check("/form_submissions/{form_submission_id}", "get", await call("GET", `/form_submissions/${submissions.formSubmissions[3].id}`))
  })

  // sites, collections and pages
  it("a site, its custom domains, a publish (202), pages, a page and its update validate against the spec", async () => {
    const { call, check } = setup()
    const { seed } = Simulator
    check("/sites/{site_id}", "get", await call("GET", `/sites/${seed.sites.store}`))
    const domains = await call("GET", `/sites/${seed.sites.store}/custom_domains`)
    expect(domains.customDomains).toHaveLength(2)
    check("/sites/{site_id}/custom_domains", "get", domains)
    const published = await call("POST", `/sites/${seed.sites.portfolio}/publish`, { publishToWebflowSubdomain: true }, 202)
    check("/sites/{site_id}/publish", "post", published, "202")
    const pages = await call("GET", `/sites/${seed.sites.store}/pages`)
    expect(pages.pages).toHaveLength(3)
    check("/sites/{site_id}/pages", "get", pages)
    check("/pages/{page_id}", "get", await call("GET", `/pages/${seed.pages.home}`))
    check("/pages/{page_id}", "put", await call("PUT", `/pages/${seed.pages.about}`, { seo: { title: "About Acme" }, openGraph: { titleCopied: false, title: "Meet Acme" } }))
    // The events the Designer's changes and a publish emit are checked with the others below.
    sim.deletePage(sim.createPage(seed.sites.portfolio, { title: "Contract page" }).id)
  })

  it("orders, products and inventory (read, updated, unfulfilled, refunded, created) validate against the spec", async () => {
    const { call, check } = setup()
    const { seed } = Simulator
    const site = seed.sites.store
    const order = seed.orders.fulfilled
    check("/sites/{site_id}/orders/{order_id}", "get", await call("GET", `/sites/${site}/orders/${order}`))
    check("/sites/{site_id}/orders/{order_id}", "patch", await call("PATCH", `/sites/${site}/orders/${order}`, { comment: "Gift", shippingProvider: "UPS", shippingTracking: "1Z", shippingTrackingURL: "https://ups.example.com/1Z" }))
    check("/sites/{site_id}/orders/{order_id}/unfulfill", "post", await call("POST", `/sites/${site}/orders/${order}/unfulfill`))
    check("/sites/{site_id}/orders/{order_id}/refund", "post", await call("POST", `/sites/${site}/orders/${seed.orders.pending}/refund`, { reason: "duplicate" }))
    check("/sites/{site_id}/products", "get", await call("GET", `/sites/${site}/products`))
    check("/sites/{site_id}/products/{product_id}", "get", await call("GET", `/sites/${site}/products/${seed.products.tshirt}`))
    const created = await call("POST", `/sites/${site}/products`, {
      publishStatus: "staging",
      product: { fieldData: { name: "Spec Cap", slug: "spec-cap", shippable: true } },
      sku: { fieldData: { name: "Spec Cap", slug: "spec-cap", price: { value: 1500, unit: "USD" }, sku: "CAP-1" } }
    })
    check("/sites/{site_id}/products", "post", created)
    check("/sites/{site_id}/products/{product_id}", "patch", await call("PATCH", `/sites/${site}/products/${created.product.id}`, { product: { fieldData: { name: "Spec Hat" } } }))
    const inventory = `/collections/${seed.skuCollection}/items/${seed.skus.mug}/inventory`
    check("/collections/{sku_collection_id}/items/{sku_id}/inventory", "get", await call("GET", inventory))
    check("/collections/{sku_collection_id}/items/{sku_id}/inventory", "patch", await call("PATCH", inventory, { inventoryType: "finite", quantity: 7 }))
  })

  it("redirects, registered scripts (201), site and page custom code, blocks, a site's submissions and SKUs (created, updated) validate against the spec", async () => {
    const { call, check } = setup()
    const { seed } = Simulator
    const site = seed.sites.store
    // redirects
    check("/sites/{site_id}/redirects", "get", await call("GET", `/sites/${site}/redirects`))
    const redirect = await call("POST", `/sites/${site}/redirects`, { fromUrl: "/spec-old", toUrl: "/spec-new" })
    check("/sites/{site_id}/redirects", "post", redirect)
    check("/sites/{site_id}/redirects/{redirect_id}", "patch", await call("PATCH", `/sites/${site}/redirects/${redirect.id}`, { toUrl: "https://spec.example.com/" }))
    check("/sites/{site_id}/redirects/{redirect_id}", "delete", await call("DELETE", `/sites/${site}/redirects/${redirect.id}`))
    // custom code
    const inline = await call("POST", `/sites/${site}/registered_scripts/inline`, { displayName: "Spec Inline", version: "0.0.1", sourceCode: "alert(1)" }, 201)
    check("/sites/{site_id}/registered_scripts/inline", "post", inline, "201")
    check("/sites/{site_id}/registered_scripts/hosted", "post", await call("POST", `/sites/${site}/registered_scripts/hosted`, {
      displayName: "Spec Hosted", version: "1.0.0", hostedLocation: "https://cdn.example.com/spec.js", integrityHash: "sha384-J+YlJ8v0gpaRoKH7SbFbEmxOZlAxLiwNjfSsBhDooGa5roXlPPpXbEevck4J7YZ+"
    }, 201), "201")
    check("/sites/{site_id}/registered_scripts", "get", await call("GET", `/sites/${site}/registered_scripts`))
    check("/sites/{site_id}/custom_code", "get", await call("GET", `/sites/${site}/custom_code`))
    const scripts = [{ id: inline.id, version: "0.0.1", location: "footer", attributes: { defer: "true" } }]
    check("/sites/{site_id}/custom_code", "put", await call("PUT", `/sites/${site}/custom_code`, { scripts }))
    check("/pages/{page_id}/custom_code", "put", await call("PUT", `/pages/${seed.pages.about}/custom_code`, { scripts }))
    check("/pages/{page_id}/custom_code", "get", await call("GET", `/pages/${seed.pages.about}/custom_code`))
    check("/sites/{site_id}/custom_code/blocks", "get", await call("GET", `/sites/${site}/custom_code/blocks`))
    // a site's submissions, one's hidden field set
    check("/sites/{site_id}/form_submissions", "get", await call("GET", `/sites/${site}/form_submissions?limit=5`))
    check("/form_submissions/{form_submission_id}", "patch", await call("PATCH", `/form_submissions/${seed.newsletterSubmission(9)}`, { formSubmissionData: { Source: "spec" } }))
    // SKUs on their own
    const made = await call("POST", `/sites/${site}/products/${seed.products.mug}/skus`, { skus: [{ fieldData: { name: "Spec Mug XL", slug: "spec-mug-xl", price: { value: 1599, unit: "USD" } } }] })
    check("/sites/{site_id}/products/{product_id}/skus", "post", made)
    check("/sites/{site_id}/products/{product_id}/skus/{sku_id}", "patch", await call("PATCH", `/sites/${site}/products/${seed.products.mug}/skus/${made.skus[0].id}`, {
      sku: { fieldData: { name: "Spec Mug XXL", slug: "spec-mug-xxl", price: { value: 1699, unit: "USD" } } }
    }))
  })

  it("webhooks (listed, created 201, read) and every event the simulator emits validate against the document (`webhooks.<triggerType>`)", async () => {
    const { ajv, call, check, spec } = setup()
    const site = Simulator.seed.sites.store
    const made = await call("POST", `/sites/${site}/webhooks`, { triggerType: "form_submission", url: "https://hooks.example.com/f", filter: { name: "Contact" } }, 201)
    check("/sites/{site_id}/webhooks", "post", made, "201")
    check("/sites/{site_id}/webhooks", "post", await call("POST", `/sites/${site}/webhooks`, { triggerType: "site_publish", url: "https://hooks.example.com/p" }, 201), "201")
    check("/sites/{site_id}/webhooks", "get", await call("GET", `/sites/${site}/webhooks`))
    check("/webhooks/{webhook_id}", "get", await call("GET", `/webhooks/${made.id}`))
    // Changes that emit events: an item created and updated, an order fulfilled.
    const products = Simulator.seed.collections.products
    const item = await call("POST", `/collections/${products}/items`, { fieldData: { name: "Event tee", slug: "event-tee" } }, 202)
    await call("PATCH", `/collections/${products}/items/${item.id}`, { fieldData: { price: 3 } })
    await call("POST", `/sites/${site}/orders/${Simulator.seed.orders.unfulfilled}/fulfill`, {})
    // A shopper's order (new order, inventory taken), an inventory made infinite.
    sim.placeOrder(site, { customer: "Event Shopper", skuId: Simulator.seed.skus.tshirt, count: 2 })
    await call("PATCH", `/collections/${Simulator.seed.skuCollection}/items/${Simulator.seed.skus.poster}/inventory`, { inventoryType: "finite", quantity: 5 })
    await call("PATCH", `/collections/${Simulator.seed.skuCollection}/items/${Simulator.seed.skus.poster}/inventory`, { inventoryType: "infinite" })
    // An item published, a comment thread and its reply (in the Designer).
    await call("POST", `/collections/${products}/items/publish`, { itemIds: [item.id] }, 202)
    const thread = sim.comment(site, { pageId: Simulator.seed.pages.about, content: "Event comment" })
    sim.comment(site, { pageId: Simulator.seed.pages.about, threadId: thread.threadId, content: "Event reply" })
    expect([...new Set(sim.events.map((e) => e.triggerType))]).toEqual(expect.arrayContaining([
      "collection_item_created", "collection_item_changed", "ecomm_order_changed", "ecomm_new_order", "ecomm_inventory_changed",
      "collection_item_published", "comment_created"
    ]))
    for (const event of sim.events) {
      const schema = spec.webhooks[event.triggerType].post.requestBody.content["application/json"].schema
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll("\"#/components/", "\"webflow#/components/")))
      validate({ triggerType: event.triggerType, payload: event.payload })
      expect(validate.errors ?? [], event.triggerType).toEqual([])
    }
  })
})
