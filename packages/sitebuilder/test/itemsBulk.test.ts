/**
 * Many CMS items in one request, on the wire (nock): each action's request pinned (method,
 * path, body), Webflow's answers decoded into per-item results, a refusal naming items answered
 * by one more request without them, a refusal of the whole request a typed error, and
 * unpublishing one item on its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, COLLECTION, ITEM, run, webflowError, webflowItem } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })

const ITEM2 = "580e64008c9a982ac9b8b755"
const ITEM3 = "580e64008c9a982ac9b8b756"
/** A written item as Webflow answers it in `{items}`. */
const written = (id: string, fieldData: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ ...webflowItem, id, cmsLocaleId: "653ad57de882f528b32e810e", lastPublished: null, fieldData, ...extra })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("bulk items: the wire", () => {
  it.effect("createCollectionItems staged: POST /v2/collections/{id}/items/bulk {isArchived, isDraft, fieldData: [...]}; 202 {items} in order", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/collections/${COLLECTION}/items/bulk`, {
          isArchived: false,
          isDraft: true,
          fieldData: [{ name: "A", slug: "a", price: 1 }, { name: "B", slug: "b" }]
        })
        .matchHeader("content-type", "application/json")
        .reply(202, { items: [written(ITEM, { name: "A", slug: "a", price: 1 }, { isDraft: true }), written(ITEM2, { name: "B", slug: "b" }, { isDraft: true })] })
      const out = yield* run("createCollectionItems", { collectionId: COLLECTION, items: [{ name: "A", slug: "a", price: 1 }, { name: "B", slug: "b" }], isDraft: true })
      // The output is the item as Webflow gives it, its cmsLocaleId included.
      const a = written(ITEM, { name: "A", slug: "a", price: 1 }, { isDraft: true })
      const b = written(ITEM2, { name: "B", slug: "b" }, { isDraft: true })
      expect(out).toEqual({ succeeded: 2, failed: 0, results: [{ index: 0, id: ITEM, ok: true, output: a }, { index: 1, id: ITEM2, ok: true, output: b }] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createCollectionItems live: POST /v2/collections/{id}/items/live {items: [{isArchived, isDraft: false, fieldData}]}", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .post(`/v2/collections/${COLLECTION}/items/live`, { items: [{ isArchived: false, isDraft: false, fieldData: { name: "A", slug: "a" } }] })
        .reply(202, { items: [written(ITEM, { name: "A", slug: "a" }, { lastPublished: "2026-11-01T12:00:00.000Z" })] })
      const out = (yield* run("createCollectionItems", { collectionId: COLLECTION, items: [{ name: "A", slug: "a" }], live: true })) as any
      expect(out).toMatchObject({ succeeded: 1, failed: 0, results: [{ index: 0, id: ITEM, ok: true, output: { lastPublished: "2026-11-01T12:00:00.000Z" } }] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a 400 naming items: those reported with Webflow's reasons, the rest sent again without them", () =>
    Effect.gen(function*() {
      const items = [{ name: "A", slug: "a" }, { name: "B", slug: "taken" }, { name: "C", slug: "c" }]
      const scope = webflow()
        .post(`/v2/collections/${COLLECTION}/items/bulk`, { isArchived: false, isDraft: false, fieldData: items })
        .reply(400, webflowError("validation_error", "Validation Error", [
          { param: "fieldData[1].slug", description: "Unique value is already in database: 'taken'" },
          { param: "fieldData[1].price", description: "Expected a number" }
        ]))
        .post(`/v2/collections/${COLLECTION}/items/bulk`, { isArchived: false, isDraft: false, fieldData: [items[0], items[2]] })
        .reply(202, { items: [written(ITEM, items[0]!), written(ITEM3, items[2]!)] })
      const out = (yield* run("createCollectionItems", { collectionId: COLLECTION, items })) as any
      expect(out).toMatchObject({
        succeeded: 2,
        failed: 1,
        results: [
          { index: 0, id: ITEM, ok: true },
          { index: 1, ok: false, error: { _tag: "InvalidInput", message: "slug: Unique value is already in database: 'taken'; price: Expected a number" } },
          { index: 2, id: ITEM3, ok: true }
        ]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a refusal naming no item (an unknown collection) fails the step, typed; nothing sent again", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .patch(`/v2/collections/${COLLECTION}/items`, { items: [{ id: ITEM, fieldData: { name: "A" } }] })
        .reply(404, webflowError("resource_not_found", "Requested resource not found: Collection not found"))
      const error = yield* Effect.flip(run("updateCollectionItems", { collectionId: COLLECTION, items: [{ id: ITEM, fieldData: { name: "A" } }] }))
      expect(error).toMatchObject({ _tag: "NotFound", status: 404 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateCollectionItems: PATCH /v2/collections/{id}/items (or …/items/live) {items: [{id, isArchived?, isDraft?, fieldData?}]}; 200 {items}", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .patch(`/v2/collections/${COLLECTION}/items`, { items: [{ id: ITEM, fieldData: { price: 2 } }, { id: ITEM2, isArchived: true, isDraft: false }] })
        .reply(200, { items: [written(ITEM, { name: "A", slug: "a", price: 2 }), written(ITEM2, { name: "B", slug: "b" }, { isArchived: true })] })
        .patch(`/v2/collections/${COLLECTION}/items/live`, { items: [{ id: ITEM, fieldData: { name: null } }] })
        .reply(200, { items: [written(ITEM, { name: "A", slug: "a" })] })
      const staged = yield* run("updateCollectionItems", {
        collectionId: COLLECTION,
        items: [{ id: ITEM, fieldData: { price: 2 } }, { id: ITEM2, isArchived: true, isDraft: false }]
      })
      expect(staged).toMatchObject({ succeeded: 2, results: [{ index: 0, id: ITEM, output: { fieldData: { price: 2 } } }, { index: 1, id: ITEM2, output: { isArchived: true } }] })
      expect(yield* run("updateCollectionItems", { collectionId: COLLECTION, live: true, items: [{ id: ITEM, fieldData: { name: null } }] })).toMatchObject({ succeeded: 1 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("deleteCollectionItems: DELETE /v2/collections/{id}/items (or …/items/live: unpublished) {items: [{id}]}; 204", () =>
    Effect.gen(function*() {
      const scope = webflow()
        .delete(`/v2/collections/${COLLECTION}/items`, { items: [{ id: ITEM }, { id: ITEM2 }] }).reply(204)
        .delete(`/v2/collections/${COLLECTION}/items/live`, { items: [{ id: ITEM3 }] }).reply(204)
      expect(yield* run("deleteCollectionItems", { collectionId: COLLECTION, itemIds: [ITEM, ITEM2] })).toEqual({
        succeeded: 2,
        failed: 0,
        results: [{ index: 0, id: ITEM, ok: true, output: { id: ITEM } }, { index: 1, id: ITEM2, ok: true, output: { id: ITEM2 } }]
      })
      expect(yield* run("deleteCollectionItems", { collectionId: COLLECTION, itemIds: [ITEM3], live: true })).toMatchObject({ succeeded: 1 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("unpublishCollectionItem: DELETE /v2/collections/{id}/items/{itemId}/live (204) → {id, unpublished: true}", () =>
    Effect.gen(function*() {
      const scope = webflow().delete(`/v2/collections/${COLLECTION}/items/${ITEM}/live`).reply(204)
      expect(yield* run("unpublishCollectionItem", { collectionId: COLLECTION, itemId: ITEM })).toEqual({ id: ITEM, unpublished: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("more than Webflow's 100 items a request is refused before sending", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 101 }, (_, i) => `580e64008c9a982ac9b8${String(i).padStart(4, "0")}`)
      const error = yield* Effect.flip(run("deleteCollectionItems", { collectionId: COLLECTION, itemIds: ids }))
      expect(error._tag === "InvalidInput" && error.issues).toEqual([{ path: "itemIds", message: "must have at most 100 items" }])
    }))
})
