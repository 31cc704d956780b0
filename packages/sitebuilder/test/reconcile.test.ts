/**
 * `createCollectionItem` is reconcilable: a create cut short is found again as the item of that
 * slug (or, without one, that name) in that collection created since the attempt began
 * (Webflow's `createdOn`, to the second). The wire (nock: the collection's fields, then one
 * filtered `GET /v2/collections/{id}/items`), and the simulator end to end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Executor } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import nock from "nock"
import * as Simulator from "../src/testing/simulator.js"
import { ACCESS_TOKEN, API, COLLECTION, connectedTo, executor, ITEM, simulated, step, webflowItem, withFetch } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}` } })
const prepared = (parameters: Record<string, unknown>) => Either.getOrThrow(executor.prepare(step("createCollectionItem", parameters)))
const field = (slug: string, type: string, isRequired = false) =>
  ({ id: slug.padEnd(24, "0").slice(0, 24), isEditable: true, isRequired, type, slug, displayName: slug, helpText: null, validations: null })
const collection = {
  id: COLLECTION,
  displayName: "Products",
  singularName: "Product",
  slug: "product",
  fields: [field("name", "PlainText", true), field("slug", "PlainText", true), field("price", "Number")]
}
const item = (id: string, name: string, slug: string, createdOn: string) => ({ ...webflowItem, id, createdOn, fieldData: { name, slug, price: 1 } })
const page = (items: ReadonlyArray<unknown>) => ({ items, pagination: { limit: 100, offset: 0, total: items.length } })

describe("createCollectionItem's reconciliation: the wire", () => {
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("by slug: Webflow's filter, one page; the item created at or after the attempt is the output", () =>
    Effect.gen(function*() {
      const made = item(ITEM, "Towel", "towel", "2026-11-24T10:00:00.900Z")
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}`).reply(200, collection)
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100, slug: "towel" }).reply(200, page([made]))
      const parameters = { collectionId: COLLECTION, fieldData: { name: "Towel", slug: "towel", price: 1 } }
      expect(Executor.reconcilable(prepared(parameters))).toBe(true)
      // The attempt began at 10:00:00.400: an item created in that second counts.
      const found = yield* withFetch(executor.reconcilePrepared(prepared(parameters), parameters, new Date("2026-11-24T10:00:00.400Z")))
      expect(Option.map(found, (output) => output as { id: string; isDraft: boolean })).toEqual(Option.some(expect.objectContaining({ id: ITEM, isDraft: false })))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("by name when no slug is given; one created before the attempt is not it (None: creating it again makes nothing twice)", () =>
    Effect.gen(function*() {
      // A collection whose slug Webflow makes itself (not required).
      const slugOptional = { ...collection, fields: [field("name", "PlainText", true), field("slug", "PlainText"), field("price", "Number")] }
      const scope = webflow()
        .get(`/v2/collections/${COLLECTION}`).reply(200, slugOptional)
        .get(`/v2/collections/${COLLECTION}/items`).query({ offset: 0, limit: 100, name: "Towel" })
        .reply(200, page([item(ITEM, "Towel", "towel-2", "2026-11-24T09:59:58.000Z")]))
      const parameters = { collectionId: COLLECTION, fieldData: { name: "Towel" } }
      expect(yield* withFetch(executor.reconcilePrepared(prepared(parameters), parameters, new Date("2026-11-24T10:00:00Z")))).toEqual(Option.none())
      expect(scope.isDone()).toBe(true)
    }))
})

describe("createCollectionItem's reconciliation against the simulator", () => {
  const simulation = simulated()
  const connected = <A, E>(effect: Effect.Effect<A, E, any>) =>
    effect.pipe(Effect.provide(connectedTo(simulation.values, UndiciHttpClient.layer))) as Effect.Effect<A, E>

  it.live("an item created after the attempt began is found; with a later attempt, none", () =>
    Effect.gen(function*() {
      const collectionId = Simulator.seed.collections.products
      const parameters = { collectionId, fieldData: { name: "Reconciled product", slug: "reconciled-product", price: 5 } }
      const began = new Date(Date.now() - 1000)
      const created = (yield* simulation.run("createCollectionItem", parameters)) as { id: string }
      const found = yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, began))
      expect(Option.map(found, (output) => (output as { id: string }).id)).toEqual(Option.some(created.id))
      expect(yield* connected(executor.reconcilePrepared(prepared(parameters), parameters, new Date(Date.now() + 5000)))).toEqual(Option.none())
    }))
})
