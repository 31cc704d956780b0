/**
 * The item actions end to end against the simulator, through the executor (as a runner runs a
 * step): read live, find, delete staged, unpublish, publish, and the webhook events each causes.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const products = seed.collections.products

const simulation = simulated()
const { run } = simulation

/** The events caused since `from`, as `triggerType id`. */
const eventsSince = (from: number) => simulation.sim.events.slice(from).map((e) => `${e.triggerType} ${String(e.payload["id"])}`)

describe("item actions against the simulator, through the executor", () => {
  it.live("getCollectionItem live: the published version; a draft never published is a NotFound", () =>
    Effect.gen(function*() {
      const live = yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(4), live: true })
      expect(live).toMatchObject({ id: seed.productItem(4), isDraft: false, fieldData: { name: "Product 4", slug: "product-4" } })
      const draft = yield* Effect.flip(run("getCollectionItem", { collectionId: products, itemId: seed.productItem(25), live: true }))
      expect(draft).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Live Item not found") })
      expect(yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(25) })).toMatchObject({ isDraft: true, lastPublished: null })
    }))

  it.live("findCollectionItem: by slug in one request; by a number field across pages; none found", () =>
    Effect.gen(function*() {
      let before = simulation.sim.stats.requests
      expect(yield* run("findCollectionItem", { collectionId: products, field: "slug", value: "product-77" }))
        .toMatchObject({ found: true, item: { id: seed.productItem(77), fieldData: { price: 7700 } } })
      expect(simulation.sim.stats.requests - before).toBe(1)
      before = simulation.sim.stats.requests
      expect(yield* run("findCollectionItem", { collectionId: products, field: "price", value: "12000" }))
        .toMatchObject({ found: true, item: { id: seed.productItem(120) } })
      expect(simulation.sim.stats.requests - before).toBe(2)
      expect(yield* run("findCollectionItem", { collectionId: products, field: "featured", value: "true", live: true }))
        .toMatchObject({ found: true, item: { id: seed.productItem(10) } })
      expect(yield* run("findCollectionItem", { collectionId: products, field: "name", value: "No Such Product" })).toEqual({ found: false, item: null })
    }))

  it.live("deleteCollectionItem: staged deletes the item (collection_item_deleted); live unpublishes it, the staged one stays a draft", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      expect(yield* run("deleteCollectionItem", { collectionId: products, itemId: seed.productItem(5) })).toEqual({ id: seed.productItem(5), deleted: true, live: false })
      expect(simulation.sim.items.has(seed.productItem(5))).toBe(false)
      expect(yield* Effect.flip(run("getCollectionItem", { collectionId: products, itemId: seed.productItem(5) }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* run("deleteCollectionItem", { collectionId: products, itemId: seed.productItem(6), live: true })).toEqual({ id: seed.productItem(6), deleted: true, live: true })
      expect(simulation.sim.items.get(seed.productItem(6))).toMatchObject({ live: undefined, isDraft: true, fieldData: { name: "Product 6" } })
      expect(eventsSince(from)).toEqual([`collection_item_deleted ${seed.productItem(5)}`, `collection_item_unpublished ${seed.productItem(6)}`])
      expect(simulation.sim.events[from]!.payload).toMatchObject({ siteId: seed.sites.store, collectionId: products, fieldData: { slug: "product-5" } })
      // Unpublishing what is not live is Webflow's 404.
      expect(yield* Effect.flip(run("deleteCollectionItem", { collectionId: products, itemId: seed.productItem(6), live: true }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("publishCollectionItems: staged to live for each id (collection_item_published); an unknown id is in errors", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      const unknown = "0123456789abcdef01234567"
      const published = yield* run("publishCollectionItems", { collectionId: products, itemIds: [seed.productItem(50), unknown] })
      expect(published).toEqual({ publishedItemIds: [seed.productItem(50)], errors: [`Staging item ID ${unknown} not found.`] })
      expect(yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(50), live: true })).toMatchObject({ isDraft: false, fieldData: { name: "Product 50" } })
      expect(eventsSince(from)).toEqual([`collection_item_published ${seed.productItem(50)}`])
    }))
})
