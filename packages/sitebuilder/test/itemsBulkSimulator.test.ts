/**
 * Many CMS items in one request, end to end against the simulator through the executor:
 * created staged (`/items/bulk`) and live, updated staged and live, deleted and unpublished,
 * each item's result in input order; an item Webflow refuses is named with its reason and the
 * others are written by one more request; unpublishing one item on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const products = seed.collections.products

const simulation = simulated()
const { counted, run } = simulation

/** The events caused since `from`, as `triggerType id`. */
const eventsSince = (from: number) => simulation.sim.events.slice(from).map((e) => `${e.triggerType} ${String(e.payload["id"])}`)

describe("bulk item actions against the simulator", () => {
  it.live("createCollectionItems staged: one request for all, each item's id; a taken slug is named at its item, the others created by a second request", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      const { requests, value } = yield* counted(run("createCollectionItems", {
        collectionId: products,
        items: [
          { name: "Bulk A", slug: "bulk-a", price: 10 },
          { name: "Bulk B", slug: "bulk-b", price: 20, featured: true }
        ],
        isDraft: true
      }))
      expect(requests).toBe(1)
      expect(value).toMatchObject({
        succeeded: 2,
        failed: 0,
        results: [
          { index: 0, ok: true, output: { fieldData: { name: "Bulk A", slug: "bulk-a", price: 10 }, isDraft: true, lastPublished: null } },
          { index: 1, ok: true, output: { fieldData: { name: "Bulk B", featured: true }, isDraft: true } }
        ]
      })
      const ids = (value.results as ReadonlyArray<{ id: string; output: { id: string } }>).map((r) => r.id)
      expect(ids.map((id) => simulation.sim.items.get(id)?.fieldData["slug"])).toEqual(["bulk-a", "bulk-b"])
      expect(value.results[0].output.id).toBe(ids[0])
      expect(eventsSince(from)).toEqual(ids.map((id) => `collection_item_created ${id}`))

      const partial = yield* counted(run("createCollectionItems", {
        collectionId: products,
        items: [{ name: "Bulk C", slug: "bulk-c" }, { name: "Taken", slug: "product-1" }, { name: "Bulk D", slug: "bulk-d", price: -1 }, { name: "Bulk E", slug: "bulk-e" }]
      }))
      expect(partial.requests).toBe(2)
      expect(partial.value).toMatchObject({
        succeeded: 2,
        failed: 2,
        results: [
          { index: 0, ok: true, output: { fieldData: { slug: "bulk-c" } } },
          { index: 1, ok: false, error: { _tag: "InvalidInput", message: "slug: Unique value is already in database: 'product-1'" } },
          { index: 2, ok: false, error: { _tag: "InvalidInput", message: "price: Must not be negative" } },
          { index: 3, ok: true, output: { fieldData: { slug: "bulk-e" } } }
        ]
      })
      expect(partial.value.results[1].id).toBeUndefined()
      expect([...simulation.sim.items.values()].filter((i) => ["bulk-c", "bulk-d", "bulk-e"].includes(String(i.fieldData["slug"]))).map((i) => i.fieldData["slug"]))
        .toEqual(["bulk-c", "bulk-e"])
    }))

  it.live("createCollectionItems live: published at once (the live item reads back); every item refused is a report, nothing written", () =>
    Effect.gen(function*() {
      const report = yield* run("createCollectionItems", { collectionId: products, items: [{ name: "Live A", slug: "live-a" }, { name: "Live B", slug: "live-b" }], live: true })
      expect(report).toMatchObject({ succeeded: 2, failed: 0 })
      const live = yield* run("getCollectionItem", { collectionId: products, itemId: report.results[1].id, live: true })
      expect(live).toMatchObject({ isDraft: false, fieldData: { slug: "live-b" } })

      const before = simulation.sim.items.size
      const refused = yield* counted(run("createCollectionItems", { collectionId: products, items: [{ name: "Again", slug: "live-a" }] }))
      expect(refused).toMatchObject({ requests: 1, value: { succeeded: 0, failed: 1, results: [{ index: 0, ok: false }] } })
      expect(simulation.sim.items.size).toBe(before)
    }))

  it.live("updateCollectionItems: staged and live changes in one request; an unknown item and an unpublished one named, the others changed", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      const staged = yield* run("updateCollectionItems", {
        collectionId: products,
        items: [{ id: seed.productItem(11), fieldData: { price: 1.5 } }, { id: seed.productItem(12), isArchived: true }]
      })
      expect(staged).toMatchObject({
        succeeded: 2,
        results: [
          { index: 0, id: seed.productItem(11), ok: true, output: { fieldData: { price: 1.5 } } },
          { index: 1, id: seed.productItem(12), ok: true, output: { isArchived: true } }
        ]
      })
      expect(eventsSince(from)).toEqual([`collection_item_changed ${seed.productItem(11)}`, `collection_item_changed ${seed.productItem(12)}`])
      // The live item is unchanged by a staged update.
      expect(yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(11), live: true })).toMatchObject({ fieldData: { price: 1100 } })

      const unknown = "0123456789abcdef01234567"
      const live = yield* counted(run("updateCollectionItems", {
        collectionId: products,
        live: true,
        items: [{ id: seed.productItem(13), fieldData: { name: "Live 13" } }, { id: unknown, fieldData: { name: "Nobody" } }, { id: seed.productItem(50), fieldData: { name: "Draft 50" } }]
      }))
      expect(live.requests).toBe(2)
      expect(live.value).toMatchObject({
        succeeded: 1,
        failed: 2,
        results: [
          { index: 0, id: seed.productItem(13), ok: true, output: { fieldData: { name: "Live 13" } } },
          { index: 1, id: unknown, ok: false, error: { _tag: "NotFound", message: "id: Item not found" } },
          // One answer types the whole refusal (404 here); each item keeps its own reason.
          { index: 2, id: seed.productItem(50), ok: false, error: { _tag: "NotFound", message: "id: Item not published" } }
        ]
      })
      expect(yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(13), live: true })).toMatchObject({ fieldData: { name: "Live 13" } })
    }))

  it.live("updateCollectionItems live of items never published: a Conflict named at each, nothing else sent", () =>
    Effect.gen(function*() {
      const { requests, value } = yield* counted(run("updateCollectionItems", {
        collectionId: products,
        live: true,
        items: [{ id: seed.productItem(75), fieldData: { name: "Draft 75" } }]
      }))
      expect(requests).toBe(1)
      expect(value).toEqual({
        succeeded: 0,
        failed: 1,
        results: [{ index: 0, id: seed.productItem(75), ok: false, error: { _tag: "Conflict", message: "id: Item not published" } }]
      })
    }))

  it.live("deleteCollectionItems: live unpublishes (the staged items stay, drafts), staged deletes; an item not there is named", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      const unpublished = yield* run("deleteCollectionItems", { collectionId: products, itemIds: [seed.productItem(21), seed.productItem(22)], live: true })
      expect(unpublished).toEqual({
        succeeded: 2,
        failed: 0,
        results: [
          { index: 0, id: seed.productItem(21), ok: true, output: { id: seed.productItem(21) } },
          { index: 1, id: seed.productItem(22), ok: true, output: { id: seed.productItem(22) } }
        ]
      })
      expect(simulation.sim.items.get(seed.productItem(21))).toMatchObject({ isDraft: true, live: undefined })
      expect(eventsSince(from)).toEqual([`collection_item_unpublished ${seed.productItem(21)}`, `collection_item_unpublished ${seed.productItem(22)}`])

      const deleted = yield* counted(run("deleteCollectionItems", { collectionId: products, itemIds: [seed.productItem(23), seed.productItem(123), "0123456789abcdef01234568"] }))
      expect(deleted.requests).toBe(2)
      expect(deleted.value).toMatchObject({
        succeeded: 2,
        failed: 1,
        results: [{ index: 0, ok: true }, { index: 1, ok: true }, { index: 2, id: "0123456789abcdef01234568", ok: false, error: { _tag: "NotFound", message: "id: Item not found" } }]
      })
      expect(simulation.sim.items.has(seed.productItem(23))).toBe(false)
      expect(simulation.sim.items.has(seed.productItem(123))).toBe(false)
    }))

  it.live("unpublishCollectionItem: off the live site, the staged item kept as a draft; an item not live is a NotFound", () =>
    Effect.gen(function*() {
      const from = simulation.sim.events.length
      expect(yield* run("unpublishCollectionItem", { collectionId: products, itemId: seed.productItem(31) })).toEqual({ id: seed.productItem(31), unpublished: true })
      expect(eventsSince(from)).toEqual([`collection_item_unpublished ${seed.productItem(31)}`])
      expect(yield* run("getCollectionItem", { collectionId: products, itemId: seed.productItem(31) })).toMatchObject({ isDraft: true, fieldData: { slug: "product-31" } })
      expect(yield* Effect.flip(run("unpublishCollectionItem", { collectionId: products, itemId: seed.productItem(31) }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("bad input is refused before any request: more than 100 items, a repeated slug or id, an item without its slug", () =>
    Effect.gen(function*() {
      const tooMany = Array.from({ length: 101 }, (_, i) => ({ name: `Item ${i}`, slug: `item-${i}` }))
      const { requests, value } = yield* counted(Effect.all([
        Effect.flip(run("createCollectionItems", { collectionId: products, items: tooMany })),
        Effect.flip(run("createCollectionItems", { collectionId: products, items: [{ name: "A", slug: "same" }, { name: "B", slug: "same" }, { name: "C" }] })),
        Effect.flip(run("updateCollectionItems", { collectionId: products, items: [{ id: seed.productItem(1), isDraft: true }, { id: seed.productItem(1), isDraft: false }, { id: seed.productItem(2) }] })),
        Effect.flip(run("deleteCollectionItems", { collectionId: products, itemIds: [seed.productItem(1), seed.productItem(1)] }))
      ]))
      expect(requests).toBe(0)
      expect(value.map((e: any) => [e._tag, e.issues.map((i: { path: string }) => i.path)])).toEqual([
        ["InvalidInput", ["items"]],
        ["InvalidInput", ["items[2].slug", "items[1].slug"]],
        ["InvalidInput", ["items[1].id", "items[2]"]],
        ["InvalidInput", ["itemIds[1]"]]
      ])
    }))
})
