import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, COLLECTION, ITEM, ORDER, run, SITE } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })

/** Answers every request with `reply`, counting them: a retry would show as a second one. */
const answering = (method: "GET" | "POST" | "PATCH", path: string, reply: () => [number, string | object]) => {
  let count = 0
  webflow().intercept(path, method).query(true).times(5).reply(() => {
    count++
    return reply()
  })
  return () => count
}

/** A collection whose fields are the two every collection has. */
const collection = {
  id: COLLECTION,
  displayName: "Posts",
  fields: [
    { id: "0123456789abcdef01234567", slug: "name", displayName: "Name", type: "PlainText", isRequired: true },
    { id: "0123456789abcdef01234568", slug: "slug", displayName: "Slug", type: "PlainText", isRequired: true }
  ]
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("sitebuilder: answers that leave out what the seed does not name", () => {
  it.effect("createCollectionItem answered with the id and fieldData alone succeeds: isDraft and isArchived default to false", () =>
    Effect.gen(function*() {
      answering("GET", `/v2/collections/${COLLECTION}`, () => [200, collection])
      const requests = answering("POST", `/v2/collections/${COLLECTION}/items`, () => [202, { id: ITEM, fieldData: { name: "Hello", slug: "hello" } }])
      const output = yield* run("createCollectionItem", { collectionId: COLLECTION, fieldData: { name: "Hello", slug: "hello" } })
      expect(output).toEqual({ id: ITEM, fieldData: { name: "Hello", slug: "hello" }, isDraft: false, isArchived: false })
      expect(requests()).toBe(1)
    }))

  it.effect("fulfillOrder answered with orderId and status alone succeeds; updateInventory (PATCH) answered with its id alone too", () =>
    Effect.gen(function*() {
      answering("POST", `/v2/sites/${SITE}/orders/${ORDER}/fulfill`, () => [200, { orderId: ORDER, status: "fulfilled" }])
      expect(yield* run("fulfillOrder", { siteId: SITE, orderId: ORDER })).toEqual({ orderId: ORDER, status: "fulfilled" })
      answering("PATCH", `/v2/collections/${COLLECTION}/items/${ITEM}/inventory`, () => [200, { id: ITEM }])
      expect(yield* run("updateInventory", { siteId: SITE, skuCollectionId: COLLECTION, skuId: ITEM, inventoryType: "infinite" })).toEqual({ id: ITEM })
    }))

  it.effect("fulfillOrder answered without the order's id fails with AcceptedUnreadable, carrying the answer, sent once", () =>
    Effect.gen(function*() {
      const requests = answering("POST", `/v2/sites/${SITE}/orders/${ORDER}/fulfill`, () => [200, { status: "fulfilled" }])
      const error = yield* Effect.flip(run("fulfillOrder", { siteId: SITE, orderId: ORDER }))
      expect(requests()).toBe(1)
      expect(error).toMatchObject({
        _tag: "AcceptedUnreadable",
        request: { method: "POST", path: `/sites/${SITE}/orders/${ORDER}/fulfill` },
        body: JSON.stringify({ status: "fulfilled" }),
        issues: [{ path: "orderId", message: "is missing" }]
      })
      expect(error.message).toContain("the provider accepted POST")
    }))

  it.effect("getCollectionItem answered without fieldData's slug is still an UnexpectedResponse: a read is safe to repeat", () =>
    Effect.gen(function*() {
      answering("GET", `/v2/collections/${COLLECTION}/items/${ITEM}`, () => [200, { id: ITEM, fieldData: { name: "Hello" } }])
      const error = yield* Effect.flip(run("getCollectionItem", { collectionId: COLLECTION, itemId: ITEM }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.message).toContain("fieldData.slug: is missing")
    }))
})
