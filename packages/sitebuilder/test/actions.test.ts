import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { sitebuilder } from "../src/index.js"
import {
  ACCESS_TOKEN, API, COLLECTION, executor, ITEM, ORDER, run, SITE, webflowError, webflowItem, webflowOrder, withFetch
} from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })
const options = (action: string, property: string, params: Record<string, unknown>) =>
  withFetch(executor.options(`sitebuilder/v1/${action}`, property, params))

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("sitebuilder actions: the wire", () => {
  it.effect("fulfillOrder: POST /v2/sites/{siteId}/orders/{orderId}/fulfill with the JSON body; the order", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`, { sendOrderFulfilledEmail: false })
        .matchHeader("content-type", "application/json")
        .reply(200, webflowOrder)
      expect(yield* run("fulfillOrder", { siteId: SITE, orderId: ORDER })).toEqual({
        orderId: ORDER, status: "fulfilled", comment: "", orderComment: "", acceptedOn: "2026-11-01T12:00:00.000Z", fulfilledOn: "2026-11-21T10:00:00.000Z",
        refundedOn: null, customerPaid: { unit: "USD", value: "1999", string: "$ 19.99 USD" }, customerInfo: { fullName: "Ada Lovelace", email: "ada@example.com" },
        purchasedItemsCount: 1
      })
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`, { sendOrderFulfilledEmail: true }).reply(200, webflowOrder)
      yield* run("fulfillOrder", { siteId: SITE, orderId: ORDER, sendOrderFulfilledEmail: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getCollectionItem: GET /v2/collections/{collectionId}/items/{itemId} (siteId not sent); every field kept", () =>
    Effect.gen(function*() {
      const scope = webflow().get(`/v2/collections/${COLLECTION}/items/${ITEM}`).reply(200, webflowItem)
      // Every field, its locale included, in Webflow's order.
      const item = yield* run("getCollectionItem", { siteId: SITE, collectionId: COLLECTION, itemId: ITEM })
      expect(item).toEqual(webflowItem)
      expect(Object.keys(item as object)).toEqual(Object.keys(webflowItem))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("options: sites, orders and items paged with offset/limit 100 to the end, collections", () =>
    Effect.gen(function*() {
      const orders = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({ ...webflowOrder, orderId: `o-${from + i}` }))
      const items = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({ ...webflowItem, id: `${ITEM.slice(0, 20)}${String(from + i).padStart(4, "0")}`, fieldData: { name: `Item ${from + i}`, slug: `item-${from + i}` } }))
      const scope = webflow()
        .get("/v2/sites").reply(200, { sites: [{ id: SITE, displayName: "Acme Store", shortName: "acme" }] })
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 0, limit: 100 }).reply(200, { orders: orders(0, 100), pagination: { limit: 100, offset: 0, total: 150 } })
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 100, limit: 100 }).reply(200, { orders: orders(100, 50), pagination: { limit: 100, offset: 100, total: 150 } })
        .get(`/v2/sites/${SITE}/collections`).reply(200, { collections: [{ id: COLLECTION, displayName: "Products", singularName: "Product", slug: "products" }] })
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, { items: items(0, 100), pagination: { limit: 100, offset: 0, total: 200 } })
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 100 }).reply(200, { items: items(100, 100), pagination: { limit: 100, offset: 100, total: 200 } })
      expect(yield* options("fulfillOrder", "siteId", {})).toEqual([{ label: "Acme Store", value: SITE }])
      const orderChoices = yield* options("fulfillOrder", "orderId", { siteId: SITE })
      expect(orderChoices).toHaveLength(150)
      expect(orderChoices[149]).toEqual({ label: "o-149", value: "o-149" })
      expect(yield* options("getCollectionItem", "collectionId", { siteId: SITE })).toEqual([{ label: "Products", value: COLLECTION }])
      const itemChoices = yield* options("getCollectionItem", "itemId", { collectionId: COLLECTION })
      expect(itemChoices).toHaveLength(200)
      expect(itemChoices[0]).toEqual({ label: "Item 0", value: `${ITEM.slice(0, 20)}0000` })
      expect(yield* options("getCollectionItem", "itemId", {})).toEqual([])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("sitebuilder listCollectionItems: paged", () => {
  const item = (i: number) => ({ ...webflowItem, id: `${ITEM.slice(0, 20)}${String(i).padStart(4, "0")}`, fieldData: { name: `Item ${i}`, slug: `item-${i}` } })
  const page = (from: number, count: number, total: number, limit = 100) =>
    ({ items: Array.from({ length: count }, (_, i) => item(from + i)), pagination: { limit, offset: from, total } })

  it.effect("staged: GET /items?offset&limit=100 page after page to the total; the default cap is 100 items", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, page(0, 100, 250))
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 100 }).reply(200, page(100, 100, 250))
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 200, limit: 100 }).reply(200, page(200, 50, 250))
      const all = (yield* run("listCollectionItems", { collectionId: COLLECTION, limit: 1000 })) as { items: Array<{ id: string; fieldData: unknown }> }
      expect(all.items).toHaveLength(250)
      expect(all.items[249]).toEqual(item(249))
      expect(scope.isDone()).toBe(true)
      // The default limit, 100: one page, and no request past it.
      const one = webflow().get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, page(0, 100, 250))
      expect(((yield* run("listCollectionItems", { collectionId: COLLECTION })) as { items: Array<unknown> }).items).toHaveLength(100)
      expect(one.isDone()).toBe(true)
    }))

  it.effect("live, filtered and sorted: GET /items/live with name, sortBy, sortOrder; a cap of 120 asks the second page for 20", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}/items/live`).query({ offset: 0, limit: 100, sortBy: "name", sortOrder: "desc" }).reply(200, page(0, 100, 130))
        .get(`/v2/collections/${COLLECTION}/items/live`).query({ offset: 100, limit: 20, sortBy: "name", sortOrder: "desc" }).reply(200, page(100, 20, 130, 20))
        .get(`/v2/collections/${COLLECTION}/items/live`).query({ offset: 0, limit: 5, name: "Item 7", slug: "item-7" }).reply(200, page(7, 1, 1, 5))
      const capped = (yield* run("listCollectionItems", { collectionId: COLLECTION, live: true, limit: 120, sortBy: "name", sortOrder: "desc" })) as { items: Array<unknown> }
      expect(capped.items).toHaveLength(120)
      const named = (yield* run("listCollectionItems", { collectionId: COLLECTION, live: true, limit: 5, name: "Item 7", slug: "item-7" })) as { items: Array<{ id: string }> }
      expect(named.items.map((i) => i.id)).toEqual([item(7).id])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a failed page fails the step with the typed error; bad limits and sort keys are refused before any request", () =>
    Effect.gen(function*() {
      webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, page(0, 100, 300))
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 100 }).reply(404, webflowError("collection_not_found", "Collection not found"))
      const error = yield* Effect.flip(run("listCollectionItems", { collectionId: COLLECTION, limit: 300 }))
      expect(error).toMatchObject({ _tag: "NotFound", status: 404, message: "Collection not found" })
      const bad = yield* Effect.flip(run("listCollectionItems", { collectionId: COLLECTION, limit: 0, sortBy: "price" }))
      expect(bad._tag === "InvalidInput" && bad.issues.map((i) => i.path)).toEqual(["limit", "sortBy"])
    }))
})

describe("sitebuilder options: uncooperative pages", () => {
  it.effect("no pagination block, an item without a name, a provider that caps pages at 50", () =>
    Effect.gen(function*() {
      const item = (i: number, name?: string) => ({ ...webflowItem, id: `${ITEM.slice(0, 20)}${String(i).padStart(4, "0")}`, fieldData: name === undefined ? { slug: `item-${i}` } : { name, slug: `item-${i}` } })
      webflow().get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, { items: [item(0, "Zero"), item(1)] })
      expect(yield* options("getCollectionItem", "itemId", { collectionId: COLLECTION })).toEqual([
        { label: "Zero", value: `${ITEM.slice(0, 20)}0000` },
        { label: "item-1", value: `${ITEM.slice(0, 20)}0001` }
      ])
      const capped = webflow()
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 }).reply(200, { items: Array.from({ length: 50 }, (_, i) => item(i, `I${i}`)), pagination: { limit: 50, offset: 0, total: 120 } })
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 50, limit: 100 }).reply(200, { items: Array.from({ length: 50 }, (_, i) => item(50 + i, `I${50 + i}`)), pagination: { limit: 50, offset: 50, total: 120 } })
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 100, limit: 100 }).reply(200, { items: Array.from({ length: 20 }, (_, i) => item(100 + i, `I${100 + i}`)), pagination: { limit: 50, offset: 100, total: 120 } })
      expect(yield* options("getCollectionItem", "itemId", { collectionId: COLLECTION })).toHaveLength(120)
      expect(capped.isDone()).toBe(true)
    }))
})

describe("sitebuilder actions: errors", () => {
  it.effect("bad input of every kind is rejected before any request, every field named", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const fulfil = yield* Effect.flip(run("fulfillOrder", { siteId: "not-a-site", sendOrderFulfilledEmail: "yes" }))
      expect(fulfil._tag === "InvalidInput" && fulfil.issues.map((i) => i.path).sort()).toEqual(
        ["orderId", "sendOrderFulfilledEmail", "siteId"]
      )
      const item = yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: 42, extra: true }))
      expect(item.message).toBe(
        "step \"getCollectionItem\" (sitebuilder/v1/getCollectionItem): extra: is not a known parameter; itemId: must be a string"
      )
      const noToken = yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM }, { clientId: "c", clientSecret: "s" }))
      expect(noToken).toMatchObject({ _tag: "AuthenticationFailed" })
      expect(noToken.message).toContain("connect it first")
      const ids = yield* Effect.flip(run("getCollectionItem", { collectionId: "products", itemId: "../../sites" }))
      expect(ids._tag === "InvalidInput" && ids.issues.map((i) => i.path)).toEqual(["collectionId", "itemId"])
      for (const orderId of ["", ".", "..", "a/b", " "]) {
        const bad = yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId }))
        expect(bad._tag === "InvalidInput" && bad.issues[0]!.path).toBe("orderId")
      }
      const values = yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM }, {
        clientId: "c",
        accessToken: "t",
        requestsPerMinute: 90,
        baseUrl: "ftp://example.com"
      }))
      expect(values._tag === "InvalidInput" && values.issues.map((i) => i.path).sort()).toEqual(["baseUrl", "clientSecret", "requestsPerMinute"])
      const options = yield* Effect.flip(withFetch(executor.options("sitebuilder/v1/fulfillOrder", "orderId", { siteId: "acme" })))
      expect(options.message).toBe("options of orderId: siteId: must be a Webflow id (24 hexadecimal digits)")
      expect(sent).toEqual([])
    }))

  it.effect("on a free plan, fulfilment says so plainly: 409 ecommerce_not_enabled, 402, or a 403 about the plan", () =>
    Effect.gen(function*() {
      for (const [status, body] of [
        [409, webflowError("ecommerce_not_enabled", "Ecommerce is not enabled for this site")],
        [402, webflowError("payment_required", "Upgrade your plan")],
        [403, webflowError("forbidden", "Upgrade to an Ecommerce plan to fulfill orders")]
      ] as const) {
        webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(status, body)
        const error = yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER }))
        expect(error._tag).toBe("PaymentRequired")
        expect(error.message).toBe(`fulfilling orders needs a paid Webflow e-commerce plan on this site (Webflow: ${body.message})`)
        expect(error.status).toBe(status)
      }
    }))

  it.effect("any other 403 is about access, and stays a PermissionDenied", () =>
    Effect.gen(function*() {
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(403, webflowError("forbidden", "You do not have access to this site"))
      expect(yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER }))).toMatchObject({
        _tag: "PermissionDenied",
        message: "You do not have access to this site"
      })
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(403, "<html>Forbidden by WAF</html>")
      expect((yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER })))._tag).toBe("PermissionDenied")
      // A missing scope that is not named still says what to do.
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(403, webflowError("missing_scopes", "OAuthForbidden"))
      const unnamed = yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER }))
      expect(unnamed).toMatchObject({ _tag: "PermissionDenied", missingScopes: [] })
      expect(unnamed.message).toBe("the connection lacks a scope this needs: connect again to grant it (OAuthForbidden)")
    }))

  it.effect("a 403 missing_scopes is a PermissionDenied naming the scope", () =>
    Effect.gen(function*() {
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(
        403,
        webflowError("missing_scopes", "OAuthForbidden: You are missing the following scopes - ecommerce:write")
      )
      const error = yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER }))
      expect(error).toMatchObject({ _tag: "PermissionDenied", missingScopes: ["ecommerce:write"] })
      expect(error.message).toContain("the connection lacks the scope ecommerce:write")
    }))

  it.effect("Webflow's JSON errors keep their message: 404 item_not_found, 400 validation_error, 401", () =>
    Effect.gen(function*() {
      webflow().get(`/v2/collections/${COLLECTION}/items/${ITEM}`).reply(404, webflowError("item_not_found", "Requested resource not found: Item not found"))
      expect(yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM }))).toMatchObject({
        _tag: "NotFound",
        message: "Requested resource not found: Item not found",
        request: { method: "GET", path: `/collections/${COLLECTION}/items/${ITEM}` }
      })
      webflow().get(`/v2/collections/${COLLECTION}/items/${ITEM}`).reply(401, webflowError("not_authorized", "Request not authorized"))
      expect(yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM }))).toMatchObject({
        _tag: "AuthenticationFailed",
        message: "Request not authorized"
      })
    }))

  it.live("a 429 is retried after its Retry-After (a POST too: Webflow did not process it)", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(429, webflowError("too_many_requests", "Too many requests"), { "retry-after": "1" })
        .post(`/v2/sites/${SITE}/orders/${ORDER}/fulfill`).reply(200, webflowOrder)
      const started = Date.now()
      expect(yield* run("fulfillOrder", { siteId: SITE, orderId: ORDER })).toEqual({
        orderId: ORDER, status: "fulfilled", comment: "", orderComment: "", acceptedOn: "2026-11-01T12:00:00.000Z", fulfilledOn: "2026-11-21T10:00:00.000Z",
        refundedOn: null, customerPaid: { unit: "USD", value: "1999", string: "$ 19.99 USD" }, customerInfo: { fullName: "Ada Lovelace", email: "ada@example.com" },
        purchasedItemsCount: 1
      })
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
      expect(scope.isDone()).toBe(true)
    }))
})

describe("sitebuilder definition", () => {
  it("describes itself: OAuth2 with the union of its actions' and triggers' scopes, the rate limit, options with dependsOn", () => {
    const d = Component.describe(sitebuilder)
    expect(d).toMatchObject({
      type: "sitebuilder/v1",
      category: "Developer Tools",
      customAction: true,
      connection: {
        kind: "OAUTH2",
        oauth2: {
          authorizeUrl: "https://webflow.com/oauth/authorize",
          tokenUrl: "https://api.webflow.com/oauth/access_token",
          scopes: expect.arrayContaining(["assets:read", "assets:write", "cms:read", "cms:write", "ecommerce:read", "ecommerce:write", "forms:read", "pages:read", "sites:read", "sites:write"])
        },
        defaultBaseUrl: "https://api.webflow.com/v2",
        rateLimits: [{ scope: "token", limit: 60, intervalMillis: 60_000 }],
        props: {
          clientId: { kind: "STRING", title: "Client Id", required: true },
          clientSecret: { kind: "STRING", title: "Client Secret", required: true, secret: true },
          requestsPerMinute: { kind: "INTEGER", defaultValue: 60, choices: [{ label: "60", value: 60 }, { label: "120", value: 120 }] }
        }
      }
    })
    // Exactly the union of what the actions and triggers declare, sorted.
    expect(d.connection.oauth2?.scopes).toEqual([...new Set([...d.actions, ...d.triggers].flatMap((a) => a.scopes ?? []))].sort())
    // Webflow switched User Accounts off on 2026-01-29: no user action, no users:* scope.
    expect(d.connection.oauth2?.scopes?.filter((scope) => scope.startsWith("users:"))).toEqual([])
    expect(d.actions.map((a) => a.name).filter((name) => /User/.test(name))).toEqual([])
    const fulfil = d.actions.find((a) => a.name === "fulfillOrder")!
    expect(fulfil.props["orderId"]).toMatchObject({ required: true, dynamicOptions: { dependsOn: ["siteId"] } })
    expect(fulfil.props["sendOrderFulfilledEmail"]).toMatchObject({ kind: "BOOLEAN", defaultValue: false })
    const get = d.actions.find((a) => a.name === "getCollectionItem")!
    expect(get.props["itemId"]).toMatchObject({ dynamicOptions: { dependsOn: ["collectionId"] } })
    expect(get.props["siteId"]).toMatchObject({ required: false })
    const create = d.actions.find((a) => a.name === "createCollectionItem")!
    expect(create.props["fieldData"]).toEqual({
      kind: "GROUP",
      title: "Fields",
      description: "The item's fields by slug: name, slug and every other required field of the collection.",
      required: true,
      dependsOn: ["collectionId"]
    })
    expect(d.actions.find((a) => a.name === "updateCollectionItem")!.props["fieldData"]).toMatchObject({ kind: "GROUP", required: false })
  })
})
