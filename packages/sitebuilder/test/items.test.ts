/**
 * createCollectionItem and updateCollectionItem: the collection's fields loaded (pinned
 * `GET /collections/{id}`), `fieldData` decoded against them before the write is sent, the
 * wire requests of each mode, Webflow's 400 as a typed error; then end to end on the simulator.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Connections } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { Sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { ACCESS_TOKEN, API, COLLECTION, connectedTo, connection, executor, ITEM, step, webflowError, webflowItem } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const run = (action: string, parameters: Record<string, unknown>) => executor.run(step(action, parameters))
/** The test on one opened connection (what a runner has for a whole workflow). */
const once = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>) => Effect.provide(effect, connectedTo(connection))

const REF = "62b720ef280c7a7a3be8cab0"
const field = (slug: string, type: string, isRequired = false, validations: Record<string, unknown> | null = null) =>
  ({ id: `${slug.padEnd(24, "0").slice(0, 24)}`, isEditable: true, isRequired, type, slug, displayName: slug, helpText: null, validations })
/** `GET /collections/{id}` as Webflow answers it (one field of each type). */
const collection = {
  id: COLLECTION,
  displayName: "Guide Entries",
  singularName: "Guide Entry",
  slug: "guide-entry",
  fields: [
    field("name", "PlainText", true, { maxLength: 256 }),
    field("slug", "PlainText", true),
    field("price", "Number", false, { format: "decimal", allowNegative: false }),
    field("importance", "Number", false, { format: "integer", allowNegative: false, allowZero: false, minValue: 1, maxValue: 5 }),
    field("is-essential", "Switch"),
    field("body", "RichText"),
    field("first-mentioned", "DateTime"),
    field("item-type", "Option", false, { options: [{ name: "Gadget", id: "66f6e966c9e1dc700a857ca4" }] }),
    field("related-entry", "Reference", false, { collectionId: COLLECTION }),
    field("mentioned-in", "MultiReference", false, { collectionId: COLLECTION }),
    field("contributor-email", "Email"),
    field("emergency-contact", "Phone"),
    field("more-info", "Link"),
    field("towel-color", "Color"),
    field("illustration", "Image"),
    field("guide-file", "File"),
    { ...field("legacy", "ExtFileRef") }
  ]
}
const everyField = {
  name: "Towel",
  slug: "towel",
  price: 19.5,
  importance: 5,
  "is-essential": true,
  body: "<p>Don't panic.</p>",
  "first-mentioned": "1979-10-12T00:00:00.000Z",
  "item-type": "66f6e966c9e1dc700a857ca4",
  "related-entry": REF,
  "mentioned-in": [REF],
  "contributor-email": "ford@example.com",
  "emergency-contact": "+1 424-242-4242",
  "more-info": "https://hitchhikers.example.com/towel",
  "towel-color": "#db4b68",
  illustration: { url: "https://uploads.example.com/towel.png", alt: "A towel" },
  "guide-file": { url: "https://uploads.example.com/guide.pdf" }
}
const written = (fieldData: object, flags = { isDraft: false, isArchived: false }) => ({ ...webflowItem, ...flags, fieldData })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("createCollectionItem / updateCollectionItem: the wire", () => {
  it.effect("create: GET the collection's fields, then POST /items (staged) with the decoded fieldData; a numeric string becomes a number", () =>
    once(Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}`).reply(200, collection)
        .post(`/v2/collections/${COLLECTION}/items`, { isArchived: false, isDraft: true, fieldData: { ...everyField, price: 19.5 } })
        .matchHeader("content-type", "application/json")
        .reply(202, written(everyField, { isDraft: true, isArchived: false }))
      const output = yield* run("createCollectionItem", { collectionId: COLLECTION, isDraft: true, fieldData: { ...everyField, price: "19.5" } })
      expect(output).toEqual({
        id: ITEM,
        cmsLocaleId: webflowItem.cmsLocaleId,
        isDraft: true,
        isArchived: false,
        fieldData: everyField,
        lastPublished: webflowItem.lastPublished,
        lastUpdated: webflowItem.lastUpdated,
        createdOn: webflowItem.createdOn
      })
      expect(scope.isDone()).toBe(true)
    })))

  it.effect("create live: POST /items/live; the fields are loaded once for a batch of steps on the connection", () =>
    once(Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}`).once().reply(200, collection)
        .post(`/v2/collections/${COLLECTION}/items/live`, { isArchived: false, isDraft: false, fieldData: { name: "A", slug: "a" } })
        .reply(202, written({ name: "A", slug: "a" }))
        .post(`/v2/collections/${COLLECTION}/items/live`, { isArchived: false, isDraft: false, fieldData: { name: "B", slug: "b" } })
        .reply(202, written({ name: "B", slug: "b" }))
      yield* run("createCollectionItem", { collectionId: COLLECTION, live: true, fieldData: { name: "A", slug: "a" } })
      yield* run("createCollectionItem", { collectionId: COLLECTION, live: true, fieldData: { name: "B", slug: "b" } })
      expect(scope.isDone()).toBe(true)
    })))

  it.effect("a \"__proto__\" key in fieldData's JSON is refused as an unknown field; nothing but the GET is sent", () =>
    once(Effect.gen(function*() {
      const scope = webflow().get(`/v2/collections/${COLLECTION}`).reply(200, collection)
      const parameters = JSON.parse(`{"collectionId": "${COLLECTION}", "fieldData": {"name": "A", "slug": "a", "__proto__": {"price": 1}}}`) as Record<string, unknown>
      const error = yield* Effect.flip(run("createCollectionItem", parameters))
      expect(error._tag === "InvalidInput" && error.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
        expect.stringMatching(/^fieldData\.__proto__: is not a field of fieldData \(its fields: name, slug, /)
      ])
      expect(scope.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    })))

  it.effect("invalid fieldData: one InvalidInput naming every field, and nothing but the GET is sent", () =>
    once(Effect.gen(function*() {
      // No interceptor for the POST: had it been sent, it would fail as a network error, not InvalidInput.
      const scope = webflow().get(`/v2/collections/${COLLECTION}`).reply(200, collection)
      const error = yield* Effect.flip(run("createCollectionItem", {
        collectionId: COLLECTION,
        fieldData: { slug: "Not A Slug", price: "cheap", importance: 0, "item-type": "other", "related-entry": "42", "towel-color": "red", nope: 1, legacy: {} }
      }))
      expect(error._tag).toBe("InvalidInput")
      expect(error._tag === "InvalidInput" && error.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
        expect.stringMatching(/^fieldData\.nope: is not a field of fieldData \(its fields: name, slug, price, .*guide-file\)$/),
        expect.stringMatching(/^fieldData\.legacy: is not a field of fieldData/),
        "fieldData.name: is required",
        "fieldData.slug: must be lowercase letters, numbers and hyphens",
        "fieldData.price: must be a number",
        "fieldData.importance: must be at least 1",
        "fieldData.item-type: must be one of \"66f6e966c9e1dc700a857ca4\"",
        "fieldData.related-entry: must be a Webflow item id (24 hexadecimal digits)",
        "fieldData.towel-color: must be a hex color such as #db4b68"
      ])
      expect(scope.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    })))

  it.effect("update: PATCH /items/{id} with only the fields given (none required), or …/live", () =>
    once(Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}`).reply(200, collection)
        .patch(`/v2/collections/${COLLECTION}/items/${ITEM}`, { isArchived: true, fieldData: { price: 5 } }).reply(200, written({ ...everyField, price: 5 }, { isDraft: false, isArchived: true }))
        .patch(`/v2/collections/${COLLECTION}/items/${ITEM}/live`, { fieldData: { "is-essential": false } }).reply(200, written(everyField))
        .patch(`/v2/collections/${COLLECTION}/items/${ITEM}`, { isDraft: true }).reply(200, written(everyField, { isDraft: true, isArchived: false }))
      const archived = yield* run("updateCollectionItem", { collectionId: COLLECTION, itemId: ITEM, isArchived: true, fieldData: { price: 5 } })
      expect(archived).toMatchObject({ isArchived: true, fieldData: { price: 5 } })
      yield* run("updateCollectionItem", { collectionId: COLLECTION, itemId: ITEM, live: true, fieldData: { "is-essential": "false" } })
      yield* run("updateCollectionItem", { collectionId: COLLECTION, itemId: ITEM, isDraft: true })
      expect(scope.isDone()).toBe(true)
    })))

  it.effect("Webflow's 400 validation_error is an InvalidInput whose issues are its details; a missing collection a NotFound", () =>
    once(Effect.gen(function*() {
      webflow()
        .get(`/v2/collections/${COLLECTION}`).reply(200, collection)
        .post(`/v2/collections/${COLLECTION}/items`).reply(400, webflowError("validation_error", "Validation Error", [
          { param: "fieldData.slug", description: "Unique value is already in database: 'towel'" }
        ]))
        .get(`/v2/collections/${REF}`).reply(404, webflowError("collection_not_found", "Requested resource not found: Collection not found"))
      const error = yield* Effect.flip(run("createCollectionItem", { collectionId: COLLECTION, fieldData: { name: "Towel", slug: "towel" } }))
      expect(error._tag).toBe("InvalidInput")
      expect(error._tag === "InvalidInput" && error.issues).toEqual([{ path: "fieldData.slug", message: "Unique value is already in database: 'towel'" }])
      expect(error.message).toContain("fieldData.slug: Unique value is already in database: 'towel'")
      const missing = yield* Effect.flip(run("createCollectionItem", { collectionId: REF, fieldData: { name: "Towel", slug: "towel" } }))
      expect(missing._tag).toBe("NotFound")
      expect(missing.message).toMatch(/^loading the fields of fieldData: .*Collection not found/)
    })))

  it.effect("executor.fields: the loaded fields described (title, kind, required, choices); update's are all optional", () =>
    once(Effect.gen(function*() {
      webflow().get(`/v2/collections/${COLLECTION}`).twice().reply(200, collection)
      const fields = yield* executor.fields("sitebuilder/v1/createCollectionItem", "fieldData", { collectionId: COLLECTION })
      expect(Object.keys(fields)).not.toContain("legacy")
      expect(fields["name"]).toEqual({ kind: "STRING", title: "name", required: true, maxLength: 256 })
      expect(fields["price"]).toEqual({ kind: "NUMBER", title: "price", required: false, minimum: 0 })
      expect(fields["importance"]).toEqual({ kind: "INTEGER", title: "importance", required: false, minimum: 1, maximum: 5 })
      expect(fields["item-type"]).toMatchObject({ kind: "STRING", choices: [{ label: "Gadget", value: "66f6e966c9e1dc700a857ca4" }] })
      expect(fields["mentioned-in"]).toMatchObject({ kind: "ARRAY", items: { kind: "STRING" } })
      expect(fields["illustration"]).toMatchObject({ kind: "OBJECT", properties: { url: { required: true }, alt: { required: false } } })
      const update = yield* executor.fields("sitebuilder/v1/updateCollectionItem", "fieldData", { collectionId: COLLECTION })
      expect(Object.values(update).every((f) => f.required === false)).toBe(true)
    })))
})

describe("createCollectionItem / updateCollectionItem against the simulator", () => {
  let sim: Simulator.Simulator
  beforeAll(async () => {
    nock.enableNetConnect("127.0.0.1")
    sim = await Simulator.start({ rateLimit: false })
  })
  afterAll(async () => {
    await sim.close()
    nock.disableNetConnect()
  })
  const products = Simulator.seed.collections.products
  const client = () => Sitebuilder.client({ clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl })
  const every = {
    name: "Towel", slug: "towel", price: 19.99, stock: 42, featured: true, description: "<p>Useful.</p>",
    category: Simulator.seed.categories.gadgets, released: "1979-10-12T00:00:00.000Z", related: Simulator.seed.productItem(1),
    posts: [Simulator.seed.blogPost(1), Simulator.seed.blogPost(2)], "contact-email": "ford@example.com", "support-phone": "+1 424-242-4242",
    website: "https://example.com/towel", color: "#db4b68", image: { url: "https://uploads.example.com/towel.png", alt: "A towel" },
    manual: { url: "https://uploads.example.com/manual.pdf" }
  }

  it("creates a staged item with a field of every type; it is in the staged list, not the live one, until published", async () => {
    const webflow = client()
    const created = await webflow.createCollectionItem({ collectionId: products, fieldData: every })
    expect(created).toMatchObject({ isDraft: false, isArchived: false, fieldData: every })
    expect(sim.items.get(created.id)?.fieldData).toEqual(every)
    expect((await webflow.listCollectionItems({ collectionId: products, slug: "towel" })).items).toHaveLength(1)
    expect((await webflow.listCollectionItems({ collectionId: products, slug: "towel", live: true })).items).toHaveLength(0)
    // Updating the live item of one never published is a conflict.
    await expect(webflow.updateCollectionItem({ collectionId: products, itemId: created.id, live: true, fieldData: { price: 1 } }))
      .rejects.toMatchObject({ _tag: "Conflict" })
    const live = await webflow.createCollectionItem({ collectionId: products, live: true, fieldData: { name: "Hat", slug: "hat" } })
    expect((await webflow.listCollectionItems({ collectionId: products, slug: "hat", live: true })).items.map((i) => i.id)).toEqual([live.id])
    await webflow.close()
  })

  it("updates only the fields given (null clears one), staged or live", async () => {
    const webflow = client()
    const item = Simulator.seed.productItem(3)
    const updated = await webflow.updateCollectionItem({ collectionId: products, itemId: item, fieldData: { price: 12.5, featured: null } })
    expect(updated.fieldData).toEqual({ name: "Product 3", slug: "product-3", price: 12.5 })
    const live = await webflow.updateCollectionItem({ collectionId: products, itemId: item, live: true, fieldData: { name: "Renamed" } })
    expect(live.fieldData["name"]).toBe("Renamed")
    expect(sim.items.get(item)?.fieldData["name"]).toBe("Renamed")
    await webflow.close()
  })

  it("rejects bad fieldData before the write (only the GET of the collection reached Webflow)", async () => {
    const webflow = client()
    const before = sim.stats.requests
    const error = await webflow.createCollectionItem({ collectionId: products, fieldData: { name: "X", slug: "x", price: "cheap", colour: "red" } })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ _tag: "InvalidInput" })
    expect((error as { message: string }).message).toContain("fieldData.price: must be a number")
    expect((error as { message: string }).message).toContain("fieldData.colour: is not a field of fieldData")
    expect(sim.stats.requests - before).toBe(1)
    await webflow.close()
  })

  it("Webflow's own checks: a reference to no item and a taken slug are 400 validation_error details, as typed issues", async () => {
    const webflow = client()
    const error = await webflow.createCollectionItem({
      collectionId: products,
      fieldData: { name: "Dup", slug: "product-1", related: "0123456789abcdef01234567" }
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      _tag: "InvalidInput",
      status: 400,
      issues: [
        { path: "fieldData.related", message: "Expected the id of an item of the referenced collection" },
        { path: "fieldData.slug", message: "Unique value is already in database: 'product-1'" }
      ]
    })
    await webflow.close()
  })

  it("the simulator checks fieldData as Webflow does: unknown field, wrong type, missing required field", async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`${sim.baseUrl}/collections/${products}/items`, {
        method: "POST",
        headers: { authorization: `Bearer ${sim.issueToken()}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      return { status: response.status, body: await response.json() }
    }
    expect(await post({ fieldData: { slug: "s", price: "1", nope: true } })).toEqual({
      status: 400,
      body: {
        code: "validation_error",
        message: "Validation Error",
        externalReference: null,
        details: [
          { param: "fieldData.nope", description: "Field not described in schema" },
          { param: "fieldData.name", description: "Field is required" },
          { param: "fieldData.price", description: "Expected a number" }
        ]
      }
    })
    const readOnly = await fetch(`${sim.baseUrl}/collections/${products}/items`, {
      method: "POST",
      headers: { authorization: `Bearer ${sim.issueToken(["cms:read"])}`, "content-type": "application/json" },
      body: JSON.stringify({ fieldData: { name: "n", slug: "n" } })
    })
    expect(readOnly.status).toBe(403)
  })
})

describe("getCollectionItem live / findCollectionItem / deleteCollectionItem / publishCollectionItems: the wire", () => {
  const OTHER = "580e64008c9a982ac9b8b755"
  const listed = (from: number, count: number, total: number) => ({
    items: Array.from({ length: count }, (_, i) => ({
      ...webflowItem,
      id: `${ITEM.slice(0, 20)}${String(from + i).padStart(4, "0")}`,
      fieldData: { name: `Item ${from + i}`, slug: `item-${from + i}`, author: `Author ${(from + i) % 7}`, tags: [`tag-${from + i}`] }
    })),
    pagination: { limit: 100, offset: from, total }
  })

  it.effect("getCollectionItem live: GET /items/{id}/live; unpublished is Webflow's 404, a NotFound", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}/items/${ITEM}/live`).reply(200, webflowItem)
        .get(`/v2/collections/${COLLECTION}/items/${OTHER}/live`).reply(404, webflowError("item_not_found", "Requested resource not found: Live Item not found"))
      const live = yield* once(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM, live: true }))
      expect(live).toMatchObject({ id: ITEM, fieldData: webflowItem.fieldData, lastPublished: webflowItem.lastPublished })
      const missing = yield* Effect.flip(once(run("getCollectionItem", { collectionId: COLLECTION, itemId: OTHER, live: true })))
      expect(missing).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Live Item not found") })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("findCollectionItem by name or slug: Webflow's own filter, one request for one item (live: …/items/live)", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 1, name: "Item 7" }).reply(200, { ...listed(7, 1, 1), pagination: { limit: 1, offset: 0, total: 1 } })
        .get(`/v2/collections/${COLLECTION}/items/live`).query({ offset: 0, limit: 1, slug: "nope" }).reply(200, { items: [], pagination: { limit: 1, offset: 0, total: 0 } })
      const found = yield* once(run("findCollectionItem", { collectionId: COLLECTION, field: "name", value: "Item 7" }))
      expect(found).toMatchObject({ found: true, item: { id: `${ITEM.slice(0, 20)}0007`, fieldData: { name: "Item 7" } } })
      expect(yield* once(run("findCollectionItem", { collectionId: COLLECTION, field: "slug", value: "nope", live: true }))).toEqual({ found: false, item: null })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("findCollectionItem by any other field: page after page, stopping at the page of the first match, or at the cap", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, listed(0, 100, 250))
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 100 }).reply(200, listed(100, 100, 250))
      // tag-150 is on the second page: no third request (nock would fail on one).
      const found = yield* once(run("findCollectionItem", { collectionId: COLLECTION, field: "tags", value: "tag-150" }))
      expect(found).toMatchObject({ found: true, item: { fieldData: { name: "Item 150" } } })
      expect(scope.isDone()).toBe(true)
      const capped = webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, listed(0, 100, 250))
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 20 }).reply(200, listed(100, 20, 250))
      expect(yield* once(run("findCollectionItem", { collectionId: COLLECTION, field: "author", value: "Nobody", limit: 120 }))).toEqual({ found: false, item: null })
      expect(capped.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("deleteCollectionItem: DELETE /items/{id} (204), or …/live to unpublish", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .delete(`/v2/collections/${COLLECTION}/items/${ITEM}`).reply(204)
        .delete(`/v2/collections/${COLLECTION}/items/${OTHER}/live`).reply(204)
      expect(yield* once(run("deleteCollectionItem", { collectionId: COLLECTION, itemId: ITEM }))).toEqual({ id: ITEM, deleted: true, live: false })
      expect(yield* once(run("deleteCollectionItem", { collectionId: COLLECTION, itemId: OTHER, live: true }))).toEqual({ id: OTHER, deleted: true, live: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("publishCollectionItems: POST /items/publish {itemIds}; 202 {publishedItemIds, errors}; bad ids refused before any request", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/collections/${COLLECTION}/items/publish`, { itemIds: [ITEM, OTHER] })
        .matchHeader("content-type", "application/json")
        .reply(202, { publishedItemIds: [ITEM], errors: [`Staging item ID ${OTHER} not found.`] })
      expect(yield* once(run("publishCollectionItems", { collectionId: COLLECTION, itemIds: [ITEM, OTHER] }))).toEqual({
        publishedItemIds: [ITEM],
        errors: [`Staging item ID ${OTHER} not found.`]
      })
      expect(scope.isDone()).toBe(true)
      const bad = yield* Effect.flip(once(run("publishCollectionItems", { collectionId: COLLECTION, itemIds: ["42"] })))
      expect(bad._tag).toBe("InvalidInput")
      expect(bad.message).toContain("must be a Webflow id")
      const none = yield* Effect.flip(once(run("publishCollectionItems", { collectionId: COLLECTION, itemIds: [] })))
      expect(none.message).toContain("must have at least 1 items")
    }))
})
