/**
 * The webhook triggers on the wire (nock): enable (the site's webhook with the same URL, type
 * and filter reused, else one created with `{triggerType, url, filter?}`), disable (a webhook
 * already gone is fine), the samples' requests, and each trigger's `handle` on the document's
 * example payload: signed as Webflow signs it one event with its id; forged, altered, stale or
 * unsigned a 401 and no event; the trigger's filter applied.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { createHmac } from "node:crypto"
import { sitebuilder } from "../src/index.js"
import { ACCESS_TOKEN, API, COLLECTION, connection, executor, SITE, webflowItem, webflowOrder, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })
const trigger = (name: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `sitebuilder/v1/${name}`, parameters })
const hookUrl = "https://hooks.example.com/webflow/hook"
const WEBHOOK = "582266e0cd48de0f0e3c6d8b"
const state = { webhookId: WEBHOOK }
const webflowWebhook = (triggerType: string, filter: { name: string } | null = null, id = WEBHOOK) => ({
  id, triggerType, siteId: SITE, workspaceId: "4f4e46fd476ea8c507000001", createdOn: "2026-11-01T12:00:00.000Z", lastTriggered: null, filter, url: hookUrl
})

/** A delivery as Webflow sends it: the JSON body, its timestamp (ms) and the signature over both. */
const delivery = (triggerType: string, payload: unknown, options: { secret?: string; at?: number; body?: (raw: string) => string; unsigned?: boolean } = {}) => {
  const raw = JSON.stringify({ triggerType, payload })
  const timestamp = String(options.at ?? Date.now())
  const signature = createHmac("sha256", options.secret ?? connection.clientSecret).update(`${timestamp}:${raw}`).digest("hex")
  return {
    method: "POST",
    url: hookUrl,
    headers: options.unsigned === true ? {} : { "content-type": "application/json", "x-webflow-timestamp": timestamp, "x-webflow-signature": signature },
    body: new TextEncoder().encode(options.body?.(raw) ?? raw)
  }
}
const handle = (name: string, params: Record<string, unknown>, request: ReturnType<typeof delivery>) =>
  withFetch(executor.handleDelivery(trigger(name, params), state, request))

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

// The document's example payloads (`webhooks.<triggerType>`), the order's abridged.
const EX_SITE = "65427cf400e02b306eaa049c"
const exampleItem = {
  id: "580e64008c9a982ac9b8b754", workspaceId: "625860a7a6c16d624927122f", siteId: EX_SITE, collectionId: "664243617fcc8b464b23c4ee",
  cmsLocaleId: "681442a144bb80bd00480fda", lastPublished: null, lastUpdated: "2023-03-17T18:47:35.560Z", createdOn: "2023-03-17T18:47:35.560Z",
  isArchived: false, isDraft: false, fieldData: { name: "Pan-Galactic Gargle Blaster", slug: "pan-galactic-gargle-blaster" }
}
const exampleOrder = {
  orderId: "fc7-128", status: "unfulfilled", comment: "Customer requested gift wrapping", orderComment: "Please gift wrap",
  acceptedOn: "2024-03-29T21:29:21.555Z", fulfilledOn: null, refundedOn: null, disputedOn: null, disputeUpdatedOn: null, disputeLastStatus: null,
  customerPaid: { unit: "USD", value: 11873, string: "$ 118.73 USD" }, netAmount: { unit: "USD", value: 11262, string: "$ 112.62 USD" },
  shippingProvider: null, shippingTracking: null, shippingTrackingURL: null,
  customerInfo: { fullName: "Arthur Dent", email: "arthur.dent@example.com" },
  purchasedItems: [{ count: 1, productName: "Towel", variantSKU: "towel-blue" }], purchasedItemsCount: 1, isCustomerDeleted: false
}
const examplePage = { siteId: EX_SITE, pageId: "66a3cfb276641574f5d58311", pageTitle: "Heart of Gold Specs", publishedPath: "/blog/earth" }

/** Each trigger: its webhook's type, the document's example payload, the event id it makes and the output. */
const cases: ReadonlyArray<{ name: string; triggerType: string; payload: Record<string, unknown>; id: string; output?: object }> = [
  {
    name: "formSubmitted",
    triggerType: "form_submission",
    payload: {
      name: "Contact Us", siteId: EX_SITE,
      data: { "First Name": "Zaphod", "Last Name": "Beeblebrox", email: "zaphod@heartofgold.ai", "Phone Number": 15550000000 },
      schema: [{ fieldName: "First Name", fieldType: "FormTextInput", fieldElementId: "285042f7-d554-dc7f-102c-aa10d6a2d2c4" }],
      submittedAt: "2022-09-14T12:35:16.117Z", id: "6321ca84df3949bfc6752327", formId: "65429eadebe8a9f3a30f62d0",
      formElementId: "4e038d2c-6a1e-4953-7be9-a59a2b453177"
    },
    id: "6321ca84df3949bfc6752327"
  },
  {
    name: "sitePublished",
    triggerType: "site_publish",
    // The example's field names (`site`, `publishTime`), not its schema's (`siteId`, `publishedOn`).
    payload: { site: "62749158efef318abc8d5a0f", publishTime: "2024-07-26T16:43:20.440Z", domains: ["heartofgold.webflow.io"], publishedBy: { displayName: "Zaphod BeebleBrox" } },
    id: "62749158efef318abc8d5a0f@2024-07-26T16:43:20.440Z",
    output: { siteId: "62749158efef318abc8d5a0f", publishedOn: "2024-07-26T16:43:20.440Z", domains: ["heartofgold.webflow.io"], publishedBy: { displayName: "Zaphod BeebleBrox" } }
  },
  { name: "newOrder", triggerType: "ecomm_new_order", payload: exampleOrder, id: "fc7-128" },
  { name: "orderChanged", triggerType: "ecomm_order_changed", payload: { ...exampleOrder, status: "refunded", refundedOn: "2024-04-08T18:25:04.238Z" }, id: "fc7-128:refunded:" },
  {
    name: "inventoryChanged",
    triggerType: "ecomm_inventory_changed",
    payload: { id: "5bfedb42bab0ad90fa7dad39", quantity: 100, inventoryType: "finite" },
    id: "5bfedb42bab0ad90fa7dad39:finite:100"
  },
  { name: "collectionItemCreated", triggerType: "collection_item_created", payload: exampleItem, id: "580e64008c9a982ac9b8b754@2023-03-17T18:47:35.560Z" },
  { name: "collectionItemChanged", triggerType: "collection_item_changed", payload: exampleItem, id: "580e64008c9a982ac9b8b754@2023-03-17T18:47:35.560Z" },
  {
    name: "collectionItemDeleted",
    triggerType: "collection_item_deleted",
    payload: { ...exampleItem, id: "66424365e972c886137a1cf1", lastUpdated: "2025-05-28T04:44:33.216Z", fieldData: { name: "Earth", slug: "earth", galaxy: "Milky Way" } },
    id: "66424365e972c886137a1cf1"
  },
  {
    name: "collectionItemUnpublished",
    triggerType: "collection_item_unpublished",
    payload: { ...exampleItem, id: "66424365e972c886137a1cf1", lastUpdated: "2025-05-28T04:44:33.216Z", fieldData: { _locale: "681442a144bb80bd00480fda", _noSearch: false, name: "Anna Gunn", slug: "anna-gunn" } },
    id: "66424365e972c886137a1cf1@2025-05-28T04:44:33.216Z"
  },
  { name: "pageCreated", triggerType: "page_created", payload: { ...examplePage, createdOn: "2024-07-26T16:32:50.903Z" }, id: "66a3cfb276641574f5d58311" },
  {
    name: "pageMetadataUpdated",
    triggerType: "page_metadata_updated",
    payload: { ...examplePage, lastUpdated: "2024-07-26T16:32:50.903Z" },
    id: "66a3cfb276641574f5d58311@2024-07-26T16:32:50.903Z"
  },
  { name: "pageDeleted", triggerType: "page_deleted", payload: { ...examplePage, deletedOn: "2024-07-26T16:32:50.903Z" }, id: "66a3cfb276641574f5d58311" },
  {
    name: "collectionItemPublished",
    triggerType: "collection_item_published",
    // The document's example: never published before (`lastPublished` null), as its schema allows.
    payload: { ...exampleItem, id: "66424365e972c886137a1cf1", lastPublished: null, lastUpdated: "2025-05-28T04:44:33.216Z", fieldData: { _locale: "681442a144bb80bd00480fda", _noSearch: false, name: "Anna Gunn", slug: "anna-gunn" } },
    id: "66424365e972c886137a1cf1@2025-05-28T04:44:33.216Z@"
  },
  {
    name: "commentCreated",
    triggerType: "comment_created",
    // The document's example (it leaves out `itemId`, which its schema requires; absent, not null).
    payload: {
      threadId: "679d2ddb5196117ad04d1ffa", commentId: "679d2ddb5196117ad04d1ff8", type: "new_comment", siteId: "679826b3b20b045e176bc4b5",
      pageId: "679826b3b20b045e176bc4bc", localeId: "67993753d910db250db64b3e", breakpoint: "main",
      url: "https://webflow.com/design/site-slug-4ec832?workflow=comment&commentId=679d2ddb5196117ad04d1ffa&pageId=679826b3b20b045e176bc4bc",
      content: "This comment mentions another user [[6287ec36a841b25637c663df]] ", isResolved: false,
      author: { userId: "6287ec36a841b25637c663df", email: "ford.prefect@heartofgold.spaceship", name: "Ford Prefect" },
      mentionedUsers: [{ userId: "6287ec36a841b25637c663df", email: "arthur.dent@heartofgold.spaceship", name: "Arthur Dent" }],
      createdOn: "2025-01-31T20:08:59.759Z", lastUpdated: "2025-01-31T20:08:59.759Z"
    },
    id: "679d2ddb5196117ad04d1ff8"
  }
]

describe("sitebuilder triggers: the wire", () => {
  it("every trigger has a case here, is a dynamic webhook, and asks for sites:write and its data's read scope", () => {
    expect(new Set(cases.map((c) => c.name))).toEqual(new Set(Object.keys(sitebuilder.triggers)))
    for (const t of Object.values(sitebuilder.triggers)) {
      expect(t.kind).toBe("DYNAMIC_WEBHOOK")
      expect(t.scopes).toContain("sites:write")
    }
    expect(sitebuilder.triggers["formSubmitted"]!.scopes).toContain("forms:read")
    expect(sitebuilder.triggers["pageDeleted"]!.scopes).toContain("pages:read")
    expect(sitebuilder.triggers["commentCreated"]!.scopes).toEqual(["sites:write", "sites:read", "comments:read"])
    expect(sitebuilder.triggers["collectionItemPublished"]!.scopes).toContain("cms:read")
    expect(sitebuilder.connection.oauth2?.scopes).toEqual(expect.arrayContaining(["sites:write", "forms:read", "pages:read", "cms:read", "ecommerce:read"]))
  })

  it.effect("enable: GET /v2/sites/{siteId}/webhooks, then POST {triggerType, url} when none has the same URL and type; the state is its id", () =>
    Effect.gen(function*() {
      for (const c of cases) {
        const scope = webflow()
          .get(`/v2/sites/${SITE}/webhooks`)
          .reply(200, {
            webhooks: [
              // The same URL, another type.
              webflowWebhook(c.triggerType === "site_publish" ? "page_created" : "site_publish", null, "582266e0cd48de0f0e3c6d00"),
              { ...webflowWebhook(c.triggerType, null, "582266e0cd48de0f0e3c6d01"), url: "https://elsewhere.example.com/hook" }
            ]
          })
          .post(`/v2/sites/${SITE}/webhooks`, { triggerType: c.triggerType, url: hookUrl })
          .reply(201, webflowWebhook(c.triggerType))
        expect(yield* withFetch(executor.enableTrigger(trigger(c.name, { siteId: SITE }), hookUrl)), c.name).toEqual(state)
        expect(scope.isDone(), c.name).toBe(true)
      }
    }))

  it.effect("enable again: the site's webhook with this URL and type is reused, nothing is created", () =>
    Effect.gen(function*() {
      const scope = webflow().get(`/v2/sites/${SITE}/webhooks`).reply(200, { webhooks: [webflowWebhook("collection_item_created", null, "582266e0cd48de0f0e3c6d02")] })
      expect(yield* withFetch(executor.enableTrigger(trigger("collectionItemCreated", { siteId: SITE }), hookUrl))).toEqual({ webhookId: "582266e0cd48de0f0e3c6d02" })
      expect(scope.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("formSubmitted with a form name: the webhook's filter {name}; one of another form is not reused, one of this form is", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/sites/${SITE}/webhooks`).reply(200, { webhooks: [webflowWebhook("form_submission", { name: "Newsletter" }, "582266e0cd48de0f0e3c6d01")] })
        .post(`/v2/sites/${SITE}/webhooks`, { triggerType: "form_submission", url: hookUrl, filter: { name: "Contact Us" } })
        .reply(201, webflowWebhook("form_submission", { name: "Contact Us" }))
      const step = trigger("formSubmitted", { siteId: SITE, formName: "Contact Us" })
      expect(yield* withFetch(executor.enableTrigger(step, hookUrl))).toEqual(state)
      expect(scope.isDone()).toBe(true)
      webflow().get(`/v2/sites/${SITE}/webhooks`).reply(200, { webhooks: [webflowWebhook("form_submission", { name: "Contact Us" })] })
      expect(yield* withFetch(executor.enableTrigger(step, hookUrl))).toEqual(state)
    }))

  it.effect("disable: DELETE /v2/webhooks/{id}; a webhook already gone (404) is fine; another error is not", () =>
    Effect.gen(function*() {
      const step = trigger("collectionItemCreated", { siteId: SITE })
      const scope = webflow()
        .delete(`/v2/webhooks/${WEBHOOK}`).reply(204)
        .delete(`/v2/webhooks/${WEBHOOK}`).reply(404, { code: "resource_not_found", message: "Requested resource not found: Webhook not found", externalReference: null, details: [] })
        .delete(`/v2/webhooks/${WEBHOOK}`).reply(403, { code: "missing_scopes", message: "OAuthForbidden: You are missing the following scopes - sites:read", externalReference: null, details: [] })
      yield* withFetch(executor.disableTrigger(step, state))
      yield* withFetch(executor.disableTrigger(step, state))
      const error = yield* Effect.flip(withFetch(executor.disableTrigger(step, state)))
      expect(error).toMatchObject({ _tag: "PermissionDenied", missingScopes: ["sites:read"] })
      expect(scope.isDone()).toBe(true)
    }))

  for (const c of cases) {
    it.live(`${c.name}: a signed ${c.triggerType} delivery is one event, its id ${c.id}…; forged, altered, stale or unsigned: 401, none`, () =>
      Effect.gen(function*() {
        const params = { siteId: SITE }
        const good = yield* handle(c.name, params, delivery(c.triggerType, c.payload))
        expect(good.response.status).toBe(200)
        expect(good.events).toHaveLength(1)
        expect(good.events[0]!.id.startsWith(c.id), `${good.events[0]!.id}`).toBe(true)
        expect(good.events[0]!.output).toMatchObject(c.output ?? c.payload)
        // The same delivery again (Webflow's retry) is the same event.
        expect((yield* handle(c.name, params, delivery(c.triggerType, c.payload))).events[0]!.id).toBe(good.events[0]!.id)
        const rejected = [
          delivery(c.triggerType, c.payload, { secret: "not-the-client-secret" }),
          delivery(c.triggerType, c.payload, { body: (raw) => raw.replace(":", ": ") }),
          delivery(c.triggerType, c.payload, { at: Date.now() - 6 * 60_000 }),
          delivery(c.triggerType, c.payload, { unsigned: true })
        ]
        for (const request of rejected) {
          const answer = yield* handle(c.name, params, request)
          expect(answer.response.status).toBe(401)
          expect(answer.events).toEqual([])
        }
        // Another event type on this URL: answered 200 (no retry), no event.
        const other = c.triggerType === "page_deleted" ? "page_created" : "page_deleted"
        expect(yield* handle(c.name, params, delivery(other, examplePage))).toMatchObject({ response: { status: 200 }, events: [] })
        // Not Webflow's payload: 400, no event.
        expect((yield* handle(c.name, params, delivery(c.triggerType, { unexpected: true }))).response.status).toBe(400)
      }))
  }

  it.live("a changed order is a new event: the same order with another status, or new tracking, has another id", () =>
    Effect.gen(function*() {
      const idOf = (payload: object) =>
        Effect.map(handle("orderChanged", { siteId: SITE }, delivery("ecomm_order_changed", payload)), (r) => r.events[0]!.id)
      const first = yield* idOf(exampleOrder)
      const fulfilled = yield* idOf({ ...exampleOrder, status: "fulfilled", fulfilledOn: "2024-03-30T10:00:00.000Z" })
      const tracked = yield* idOf({ ...exampleOrder, status: "fulfilled", fulfilledOn: "2024-03-30T10:00:00.000Z", shippingTracking: "tr1" })
      expect(new Set([first, fulfilled, tracked]).size).toBe(3)
      expect(first).toMatch(/^fc7-128:unfulfilled:[0-9a-f]{16}$/)
    }))

  it.live("filters: a form of another name, an item of another collection is no event", () =>
    Effect.gen(function*() {
      const form = cases[0]!
      expect((yield* handle("formSubmitted", { siteId: SITE, formName: "Contact Us" }, delivery(form.triggerType, form.payload))).events).toHaveLength(1)
      expect(yield* handle("formSubmitted", { siteId: SITE, formName: "Newsletter" }, delivery(form.triggerType, form.payload)))
        .toMatchObject({ response: { status: 200 }, events: [] })
      for (const name of ["collectionItemCreated", "collectionItemChanged", "collectionItemDeleted", "collectionItemPublished", "collectionItemUnpublished"]) {
        const c = cases.find((x) => x.name === name)!
        const ours = yield* handle(name, { siteId: SITE, collectionId: "664243617FCC8B464B23C4EE" }, delivery(c.triggerType, c.payload))
        expect(ours.events, name).toHaveLength(1)
        const theirs = yield* handle(name, { siteId: SITE, collectionId: COLLECTION }, delivery(c.triggerType, c.payload))
        expect(theirs, name).toMatchObject({ response: { status: 200 }, events: [] })
      }
      // A comment on another page, or a reply when only new threads are wanted, is no event.
      const comment = cases.find((x) => x.name === "commentCreated")!
      const onPage = { siteId: SITE, pageId: "679826B3B20B045E176BC4BC" }
      expect((yield* handle("commentCreated", onPage, delivery(comment.triggerType, comment.payload))).events).toHaveLength(1)
      expect((yield* handle("commentCreated", { siteId: SITE, pageId: COLLECTION }, delivery(comment.triggerType, comment.payload))).events).toEqual([])
      const reply = { ...comment.payload, commentId: "679d2ddb5196117ad04d1ff9", type: "reply" }
      expect((yield* handle("commentCreated", { ...onPage, threadsOnly: true }, delivery(comment.triggerType, reply))).events).toEqual([])
      expect((yield* handle("commentCreated", onPage, delivery(comment.triggerType, reply))).events).toMatchObject([{ id: "679d2ddb5196117ad04d1ff9" }])
    }))

  it.effect("samples: the site's last publish; the latest orders; the latest items of a collection, or of every collection of the site", () =>
    Effect.gen(function*() {
      const sample = (name: string, params: Record<string, unknown>) => withFetch(executor.sample(trigger(name, { siteId: SITE, ...params })))
      webflow().get("/v2/sites").reply(200, {
        sites: [{ id: SITE, displayName: "Acme", shortName: "acme", lastPublished: "2026-11-20T10:00:00.000Z", customDomains: [{ id: "d1", url: "www.acme.test" }] }]
      })
      expect(yield* sample("sitePublished", {})).toEqual([{
        id: `${SITE}@2026-11-20T10:00:00.000Z`,
        output: { siteId: SITE, publishedOn: "2026-11-20T10:00:00.000Z", domains: ["acme.webflow.io", "www.acme.test"] }
      }])

      const orders = [
        { ...webflowOrder, orderId: "aaa-001", status: "unfulfilled", acceptedOn: "2026-11-01T10:00:00.000Z", fulfilledOn: null },
        { ...webflowOrder, orderId: "aaa-002", status: "fulfilled", acceptedOn: "2026-10-01T10:00:00.000Z", fulfilledOn: "2026-11-05T10:00:00.000Z" }
      ]
      const listOrders = () => webflow().get(`/v2/sites/${SITE}/orders`).query({ offset: 0, limit: 100 }).reply(200, { orders, pagination: { limit: 100, offset: 0, total: 2 } })
      listOrders()
      expect((yield* sample("newOrder", {})).map((e) => e.id)).toEqual(["aaa-001", "aaa-002"])
      listOrders()
      expect((yield* sample("orderChanged", {})).map((e) => e.id.split(":").slice(0, 2).join(":"))).toEqual(["aaa-002:fulfilled", "aaa-001:unfulfilled"])

      const OTHER = "580e63fc8c9a982ac9b8b746"
      const item = (id: string, createdOn: string, lastUpdated: string) => ({ ...webflowItem, id, createdOn, lastUpdated })
      const scope = webflow()
        .get(`/v2/sites/${SITE}/collections`).reply(200, { collections: [{ id: COLLECTION, displayName: "Products" }, { id: OTHER, displayName: "Posts" }] })
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 })
        .reply(200, { items: [item("580e64008c9a982ac9b8b001", "2026-11-01T00:00:00.000Z", "2026-11-09T00:00:00.000Z")], pagination: { limit: 100, offset: 0, total: 1 } })
        .get(`/v2/collections/${OTHER}/items`).query({ offset: 0, limit: 100 })
        .reply(200, { items: [item("580e64008c9a982ac9b8b002", "2026-11-02T00:00:00.000Z", "2026-11-02T00:00:00.000Z")], pagination: { limit: 100, offset: 0, total: 1 } })
      const created = yield* sample("collectionItemCreated", {})
      expect(created.map((e) => e.id)).toEqual(["580e64008c9a982ac9b8b002@2026-11-02T00:00:00.000Z", "580e64008c9a982ac9b8b001@2026-11-09T00:00:00.000Z"])
      expect(created[0]!.output).toMatchObject({ siteId: SITE, collectionId: OTHER, fieldData: webflowItem.fieldData })
      expect(scope.isDone()).toBe(true)
      webflow().get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 })
        .reply(200, { items: [item("580e64008c9a982ac9b8b001", "2026-11-01T00:00:00.000Z", "2026-11-09T00:00:00.000Z")], pagination: { limit: 100, offset: 0, total: 1 } })
      expect((yield* sample("collectionItemChanged", { collectionId: COLLECTION })).map((e) => e.output)).toEqual([
        expect.objectContaining({ id: "580e64008c9a982ac9b8b001", collectionId: COLLECTION })
      ])
    }))

  it.effect("no sample where nothing can be read here: inventory, deleted pages, deleted and unpublished items", () =>
    Effect.gen(function*() {
      const without = Object.values(sitebuilder.triggers).filter((t) => t.sample === undefined).map((t) => t.name)
      expect(without).toEqual([
        "collectionItemDeleted", "collectionItemUnpublished", "commentCreated", "inventoryChanged", "pageDeleted"
      ])
      const error = yield* Effect.flip(withFetch(executor.sample(trigger("pageDeleted", { siteId: SITE }))))
      expect(error).toMatchObject({ _tag: "InvalidInput" })
    }))
})
