/**
 * The webhook triggers kept alive, on the wire (nock): `check` reads `GET /v2/webhooks/{id}` (a
 * 404 is gone; another error is an error), and the triggers that declare their history catch up
 * what Webflow lists since a time (every page, oldest first, the ids their deliveries have);
 * the others say they cannot.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Trigger } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import nock from "nock"
import { createHmac } from "node:crypto"
import { sitebuilder } from "../src/index.js"
import { ACCESS_TOKEN, API, COLLECTION, connection, executor, SITE, webflowItem, webflowOrder, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })
const trigger = (name: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `sitebuilder/v1/${name}`, parameters })
const WEBHOOK = "582266e0cd48de0f0e3c6d8b"
const FORM = "6321ca84df3949bfc6752327"
const hookUrl = "https://hooks.example.com/webflow/hook"
const since = new Date("2026-11-10T00:00:00.000Z")

/** A delivery as Webflow sends it, signed now (a live clock): what `handle` makes of it gives the event id a catch-up must repeat. */
const delivered = (name: string, triggerType: string, payload: unknown) => {
  const raw = JSON.stringify({ triggerType, payload })
  const timestamp = String(Date.now())
  const signature = createHmac("sha256", connection.clientSecret).update(`${timestamp}:${raw}`).digest("hex")
  return Effect.map(
    withFetch(executor.handleDelivery(trigger(name, { siteId: SITE }), { webhookId: WEBHOOK }, {
      method: "POST",
      url: hookUrl,
      headers: { "content-type": "application/json", "x-webflow-timestamp": timestamp, "x-webflow-signature": signature },
      body: new TextEncoder().encode(raw)
    })),
    (answer) => answer.events.map((event) => event.id)
  )
}
const catchUp = (name: string, params: Record<string, unknown> = {}) =>
  Effect.map(withFetch(executor.catchUp(trigger(name, { siteId: SITE, ...params }), since)), Option.getOrThrow)

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("sitebuilder triggers kept alive: the wire", () => {
  it.effect("check: GET /v2/webhooks/{id}: found is active, a 404 gone, another error an error; every trigger checks", () =>
    Effect.gen(function*() {
      const notFound = { code: "resource_not_found", message: "Requested resource not found: Webhook not found", externalReference: null, details: [] }
      const scope = webflow()
        .get(`/v2/webhooks/${WEBHOOK}`).reply(200, { id: WEBHOOK, triggerType: "form_submission", siteId: SITE, url: hookUrl, filter: null })
        .get(`/v2/webhooks/${WEBHOOK}`).reply(404, notFound)
        .get(`/v2/webhooks/${WEBHOOK}`).reply(403, { code: "missing_scopes", message: "OAuthForbidden: You are missing the following scopes - sites:read", externalReference: null, details: [] })
      const check = () => withFetch(executor.checkTrigger(trigger("formSubmitted", { siteId: SITE }), { webhookId: WEBHOOK }))
      expect(yield* check()).toEqual(Option.some("active"))
      expect(yield* check()).toEqual(Option.some("gone"))
      expect(yield* Effect.flip(check())).toMatchObject({ _tag: "PermissionDenied" })
      expect(scope.isDone()).toBe(true)
      for (const t of Object.values(sitebuilder.triggers)) {
        expect(t.kind === "DYNAMIC_WEBHOOK" && t.check !== undefined, t.name).toBe(true)
      }
    }))

  it("the triggers that catch up: form submissions, new orders, items created and changed, pages created", () => {
    expect(Object.values(sitebuilder.triggers).filter(Trigger.catchesUp).map((t) => t.name).sort()).toEqual([
      "collectionItemChanged", "collectionItemCreated", "formSubmitted", "newOrder", "pageCreated"
    ])
  })

  it.effect("one that cannot catch up answers None and sends nothing", () =>
    Effect.gen(function*() {
      expect(yield* withFetch(executor.catchUp(trigger("sitePublished", { siteId: SITE }), since))).toEqual(Option.none())
    }))

  it.live("formSubmitted: each form of the name, its submissions every page; those since, oldest first, with their deliveries' ids", () =>
    Effect.gen(function*() {
      const submission = (n: number, dateSubmitted: string) => ({
        id: `6321ca84df3949bfc675${String(n).padStart(4, "0")}`, formId: FORM, displayName: "Contact Us", siteId: SITE,
        formResponse: { email: `visitor${n}@example.com` }, dateSubmitted
      })
      // 101 submissions: the first page's 100 are old but two, the second page's one is new.
      const old = Array.from({ length: 98 }, (_, i) => submission(i, "2026-11-01T00:00:00.000Z"))
      const firstPage = [...old.slice(0, 40), submission(200, "2026-11-12T00:00:00.000Z"), ...old.slice(40), submission(201, "2026-11-10T00:00:00.000Z")]
      const scope = webflow()
        .get(`/v2/sites/${SITE}/forms`).query({ offset: 0, limit: 100 })
        .reply(200, {
          forms: [{ id: FORM, displayName: "Contact Us", siteId: SITE, formElementId: "4e038d2c" }, { id: "6321ca84df3949bfc6750000", displayName: "Newsletter", siteId: SITE }],
          pagination: { limit: 100, offset: 0, total: 2 }
        })
        .get(`/v2/forms/${FORM}/submissions`).query({ offset: 0, limit: 100 })
        .reply(200, { formSubmissions: firstPage, pagination: { limit: 100, offset: 0, total: 101 } })
        .get(`/v2/forms/${FORM}/submissions`).query({ offset: 100, limit: 100 })
        .reply(200, { formSubmissions: [submission(202, "2026-11-11T00:00:00.000Z")], pagination: { limit: 100, offset: 100, total: 101 } })
      const events = yield* catchUp("formSubmitted", { formName: "Contact Us" })
      expect(scope.isDone()).toBe(true)
      expect(events.map((e) => e.id)).toEqual(["6321ca84df3949bfc6750201", "6321ca84df3949bfc6750202", "6321ca84df3949bfc6750200"])
      expect(events[0]!.output).toMatchObject({ name: "Contact Us", formId: FORM, submittedAt: "2026-11-10T00:00:00.000Z", data: { email: "visitor201@example.com" } })
      // The delivery of the same submission is the same event.
      expect(yield* delivered("formSubmitted", "form_submission", events[0]!.output)).toEqual([events[0]!.id])
    }))

  it.live("newOrder: the site's orders every page; those accepted since, oldest first, each its order id as a delivery's", () =>
    Effect.gen(function*() {
      const order = (orderId: string, acceptedOn: string) => ({ ...webflowOrder, orderId, status: "unfulfilled", acceptedOn, fulfilledOn: null })
      const scope = webflow()
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 0, limit: 100 })
        .reply(200, {
          orders: [order("aaa-003", "2026-11-12T00:00:00.000Z"), ...Array.from({ length: 98 }, (_, i) => order(`old-${i}`, "2026-11-01T00:00:00.000Z")), order("aaa-001", "2026-11-10T00:00:00.000Z")],
          pagination: { limit: 100, offset: 0, total: 101 }
        })
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 100, limit: 100 })
        .reply(200, { orders: [order("aaa-002", "2026-11-11T00:00:00.000Z")], pagination: { limit: 100, offset: 100, total: 101 } })
      const events = yield* catchUp("newOrder")
      expect(scope.isDone()).toBe(true)
      expect(events.map((e) => e.id)).toEqual(["aaa-001", "aaa-002", "aaa-003"])
      expect(yield* delivered("newOrder", "ecomm_new_order", order("aaa-002", "2026-11-11T00:00:00.000Z"))).toEqual(["aaa-002"])
    }))

  it.live("collection items: created since by createdOn, changed since by lastUpdated (never-updated ones are no change); a delivery's ids", () =>
    Effect.gen(function*() {
      const item = (n: number, createdOn: string, lastUpdated: string) => ({ ...webflowItem, id: `580e64008c9a982ac9b8b${String(n).padStart(3, "0")}`, createdOn, lastUpdated })
      const items = [
        item(1, "2026-11-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"), // untouched since before
        item(2, "2026-11-01T00:00:00.000Z", "2026-11-12T00:00:00.000Z"), // changed since
        item(3, "2026-11-11T00:00:00.000Z", "2026-11-11T00:00:00.000Z") // created since
      ]
      const list = () =>
        webflow().get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100 })
          .reply(200, { items, pagination: { limit: 100, offset: 0, total: 3 } })
      list()
      const created = yield* catchUp("collectionItemCreated", { collectionId: COLLECTION })
      expect(created.map((e) => e.id)).toEqual(["580e64008c9a982ac9b8b003@2026-11-11T00:00:00.000Z"])
      list()
      const changed = yield* catchUp("collectionItemChanged", { collectionId: COLLECTION })
      expect(changed.map((e) => e.id)).toEqual(["580e64008c9a982ac9b8b002@2026-11-12T00:00:00.000Z"])
      expect(changed[0]!.output).toMatchObject({ siteId: SITE, collectionId: COLLECTION })
      expect(yield* delivered("collectionItemChanged", "collection_item_changed", changed[0]!.output)).toEqual([changed[0]!.id])
    }))

  it.live("pageCreated: the site's pages created since, oldest first, each its page id as a delivery's", () =>
    Effect.gen(function*() {
      const page = (n: number, createdOn: string) => ({ id: `66a3cfb276641574f5d58${String(n).padStart(3, "0")}`, siteId: SITE, title: `Page ${n}`, slug: `page-${n}`, publishedPath: `/page-${n}`, createdOn, lastUpdated: "2026-11-20T00:00:00.000Z" })
      const scope = webflow()
        .get(`/v2/sites/${SITE}/pages`).query({ offset: 0, limit: 100 })
        .reply(200, { pages: [page(2, "2026-11-12T00:00:00.000Z"), page(1, "2026-11-01T00:00:00.000Z"), page(3, "2026-11-11T00:00:00.000Z")], pagination: { limit: 100, offset: 0, total: 3 } })
      const events = yield* catchUp("pageCreated")
      expect(scope.isDone()).toBe(true)
      expect(events.map((e) => e.id)).toEqual(["66a3cfb276641574f5d58003", "66a3cfb276641574f5d58002"])
      expect(events[0]!.output).toEqual({ siteId: SITE, pageId: "66a3cfb276641574f5d58003", pageTitle: "Page 3", publishedPath: "/page-3", createdOn: "2026-11-11T00:00:00.000Z" })
      expect(yield* delivered("pageCreated", "page_created", events[0]!.output)).toEqual([events[0]!.id])
    }))
})
