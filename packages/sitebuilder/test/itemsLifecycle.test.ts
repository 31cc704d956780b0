/**
 * The issue's "done when" for items, end to end through the typed client on the simulator:
 * 250 items listed in three requests, a cap of 120 stopping after two; and staged vs live
 * (create staged, publish, read live; update live; delete live unpublishes).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"

const { seed } = Simulator

let sim: Simulator.Simulator
let webflow: ReturnType<typeof Sitebuilder.client>
beforeAll(async () => {
  sim = await Simulator.start({ rateLimit: false })
  webflow = Sitebuilder.client({ clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl })
})
afterAll(async () => {
  await webflow.close()
  await sim.close()
})

/** What `f` answers, and how many requests reached the simulator meanwhile. */
const counted = async <A>(f: () => Promise<A>) => {
  const before = sim.stats.requests
  const result = await f()
  return { result, requests: sim.stats.requests - before }
}

describe("items: every page, and staged vs live", () => {
  const archive = seed.archive.collection

  it("listing 250 items returns 250 in three requests; a cap of 120 stops after two", async () => {
    const all = await counted(() => webflow.listCollectionItems({ collectionId: archive, limit: 1000 }))
    expect(all.result.items).toHaveLength(250)
    expect(all.requests).toBe(3)
    expect(new Set(all.result.items.map((i) => i.id)).size).toBe(250)
    expect(all.result.items[249]).toMatchObject({ id: seed.archive.item(250), fieldData: { name: "Archived Project 250" } })
    const capped = await counted(() => webflow.listCollectionItems({ collectionId: archive, limit: 120 }))
    expect(capped.result.items.map((i) => i.id)).toEqual(all.result.items.slice(0, 120).map((i) => i.id))
    expect(capped.requests).toBe(2)
    // Live leaves out the ten drafts (every 25th), still in three pages.
    const live = await counted(() => webflow.listCollectionItems({ collectionId: archive, live: true, limit: 1000 }))
    expect(live.result.items).toHaveLength(240)
    expect(live.requests).toBe(3)
  })

  it("create staged, publish, read live; update live changes the live item; delete live unpublishes", async () => {
    const collectionId = seed.archive.collection
    const staged = await webflow.createCollectionItem({ collectionId, fieldData: { name: "Lighthouse", slug: "lighthouse", price: 3 } })
    expect(staged).toMatchObject({ isDraft: false, lastPublished: null })
    await expect(webflow.getCollectionItem({ collectionId, itemId: staged.id, live: true })).rejects.toMatchObject({ _tag: "NotFound" })

    expect(await webflow.publishCollectionItems({ collectionId, itemIds: [staged.id] })).toEqual({ publishedItemIds: [staged.id], errors: [] })
    const live = await webflow.getCollectionItem({ collectionId, itemId: staged.id, live: true })
    expect(live.fieldData).toEqual({ name: "Lighthouse", slug: "lighthouse", price: 3 })
    expect(live.lastPublished).toEqual(expect.any(String))

    // A staged change leaves the live item as published; a live one changes it.
    await webflow.updateCollectionItem({ collectionId, itemId: staged.id, fieldData: { price: 4 } })
    expect((await webflow.getCollectionItem({ collectionId, itemId: staged.id, live: true })).fieldData["price"]).toBe(3)
    await webflow.updateCollectionItem({ collectionId, itemId: staged.id, live: true, fieldData: { name: "Lighthouse Keeper" } })
    expect((await webflow.getCollectionItem({ collectionId, itemId: staged.id, live: true })).fieldData).toMatchObject({ name: "Lighthouse Keeper", price: 4 })
    expect(await webflow.findCollectionItem({ collectionId, field: "name", value: "Lighthouse Keeper", live: true })).toMatchObject({ found: true, item: { id: staged.id } })

    expect(await webflow.deleteCollectionItem({ collectionId, itemId: staged.id, live: true })).toEqual({ id: staged.id, deleted: true, live: true })
    const liveSlugs = (await webflow.listCollectionItems({ collectionId, live: true, slug: "lighthouse" })).items
    const stagedSlugs = (await webflow.listCollectionItems({ collectionId, slug: "lighthouse" })).items
    expect(liveSlugs).toEqual([])
    expect(stagedSlugs.map((i) => [i.id, i.isDraft, i.fieldData["name"]])).toEqual([[staged.id, true, "Lighthouse Keeper"]])
    expect(sim.events.filter((e) => e.payload["id"] === staged.id).map((e) => e.triggerType)).toEqual([
      "collection_item_created", "collection_item_published", "collection_item_changed", "collection_item_changed", "collection_item_unpublished"
    ])
  })
})
