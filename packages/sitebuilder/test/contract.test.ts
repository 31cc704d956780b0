/**
 * The simulator checked against Webflow's published OpenAPI document (../shared/specs): every
 * record it returns validates against the spec's 200 response schema of its endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parse } from "yaml"
import * as Simulator from "../src/testing/simulator.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/webflow/webflow-data-api-v2-openapi.yml", import.meta.url))

/**
 * OpenAPI's `nullable` (this 3.1 document still uses it) as JSON Schema: "or null". An item's
 * `lastPublished` is null until it is first published, as the document's own webhook examples
 * show (`collection_item_deleted`), though its response schemas say string.
 */
const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value !== "object" || value === null) return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) {
    if (key === "nullable") continue
    const unpublished = key === "lastPublished" && typeof item === "object" && item !== null && !Array.isArray(item)
    out[key] = normalize(unpublished ? { ...item, nullable: true } : item)
  }
  if (record["nullable"] === true) return { anyOf: [out, { type: "null" }] }
  return out
}

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
})
afterAll(() => sim.close())

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(existsSync(specPath))("the simulator against webflow-data-api-v2-openapi.yml", () => {
  it("sites, orders, a fulfilled order, collections (with their fields), items, created and updated items validate against the spec", async () => {
    const spec = normalize(parse(readFileSync(specPath, "utf8"))) as any
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
    ajv.addSchema({ $id: "webflow", components: spec.components }, "webflow")
    const schemaOf = (path: string, method: string, status = "200") => {
      const schema = JSON.parse(
        JSON.stringify(spec.paths[path][method].responses[status].content["application/json"].schema).replaceAll(
          "\"#/components/",
          "\"webflow#/components/"
        )
      )
      return ajv.compile(schema)
    }
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
    // items
    check("/collections/{collection_id}/items/{item_id}/live", "get", await call("GET", `/collections/${products}/items/${live.id}/live`))
    const published = await call("POST", `/collections/${products}/items/publish`, { itemIds: [live.id, "0123456789abcdef01234567"] }, 202)
    expect(published.errors).toHaveLength(1)
    check("/collections/{collection_id}/items/publish", "post", published, "202")
  })
})
