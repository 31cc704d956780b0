/**
 * The triggers of items published and of comments, end to end against the simulator: enabled
 * through the executor (the site's webhook registered, or reused), the change made (a publish
 * through the executor, a comment as the Designer makes one), the simulator's deliveries signed
 * as Webflow signs them received on 127.0.0.1 and handed to `executor.handleDelivery`, the
 * trigger's events out with their ids; its sample; disabled, the webhook is gone. A simulator and
 * a token of their own: the connection's limiter paces each token at Webflow's 60 a minute.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { webhookTriggers } from "./webhookTriggers.js"

const { seed } = Simulator
const { exercise, simulation } = webhookTriggers()
const { run } = simulation

describe("collectionItemPublished and commentCreated against the simulator", () => {
  it.live("collectionItemPublished: publishing two items is two signed deliveries, the collection's one event each; an item published again is a new event; the sample has them", () =>
    Effect.gen(function*() {
      const [first, second] = [seed.productItem(25), seed.productItem(50)]
      const { deliveries, events, sample } = yield* exercise(
        "collectionItemPublished",
        { siteId: seed.sites.store, collectionId: seed.collections.products },
        Effect.gen(function*() {
          yield* run("publishCollectionItems", { collectionId: seed.collections.products, itemIds: [first, second] })
          yield* run("publishCollectionItems", { collectionId: seed.collections.blogPosts, itemIds: [seed.blogPost(1)] })
          yield* run("updateCollectionItem", { collectionId: seed.collections.products, itemId: first, fieldData: { price: 1 } })
          yield* run("publishCollectionItems", { collectionId: seed.collections.products, itemIds: [first] })
        })
      )
      // Every collection_item_published of the site is delivered; the blog post's is not the trigger's.
      expect(deliveries.map((d) => [d.triggerType, d.status])).toEqual(Array.from({ length: 4 }, () => ["collection_item_published", 200]))
      expect(events.map((e) => e.output.id)).toEqual([first, second, first])
      expect(new Set(events.map((e) => e.id)).size).toBe(3)
      const republished = simulation.sim.items.get(first)!
      expect(events[2]).toEqual({
        id: `${first}@${republished.lastUpdated}@${republished.lastPublished}`,
        output: expect.objectContaining({ siteId: seed.sites.store, collectionId: seed.collections.products, isDraft: false, fieldData: expect.objectContaining({ price: 1 }) })
      })
      // The sample reads the collection's items, the last published first: the same event.
      expect(sample[0]).toMatchObject({ id: events[2]!.id, output: { id: first } })
    }))

  it.live("commentCreated: a thread and a reply on the page are two events; another page's comment none; threadsOnly leaves the reply out", () =>
    Effect.gen(function*() {
      let thread = ""
      const { deliveries, events } = yield* exercise(
        "commentCreated",
        { siteId: seed.sites.store, pageId: seed.pages.about },
        Effect.sync(() => {
          thread = simulation.sim.comment(seed.sites.store, { pageId: seed.pages.about, content: "Is this the right photo?" }).threadId
          simulation.sim.comment(seed.sites.store, { pageId: seed.pages.contact, content: "Elsewhere" })
          simulation.sim.comment(seed.sites.store, {
            pageId: seed.pages.about,
            threadId: thread,
            content: "Yes [[5eed000000000000000c0002]]",
            author: { userId: "5eed000000000000000c0003", email: "arthur@example.com", name: "Arthur Dent" },
            mentionedUsers: [{ userId: "5eed000000000000000c0002", email: "trillian@example.com", name: "Trillian" }]
          })
        })
      )
      expect(deliveries.map((d) => [d.triggerType, d.status])).toEqual(Array.from({ length: 3 }, () => ["comment_created", 200]))
      expect(events.map((e) => [e.output.type, e.output.threadId, e.output.content])).toEqual([
        ["new_comment", thread, "Is this the right photo?"],
        ["reply", thread, "Yes [[5eed000000000000000c0002]]"]
      ])
      expect(events[0]!.id).toBe(thread)
      expect(events[1]).toEqual({
        id: events[1]!.output.commentId,
        output: expect.objectContaining({
          siteId: seed.sites.store,
          pageId: seed.pages.about,
          isResolved: false,
          author: { userId: "5eed000000000000000c0003", email: "arthur@example.com", name: "Arthur Dent" },
          mentionedUsers: [{ userId: "5eed000000000000000c0002", email: "trillian@example.com", name: "Trillian" }]
        })
      })
      const threadsOnly = yield* exercise(
        "commentCreated",
        { siteId: seed.sites.store, threadsOnly: true },
        Effect.sync(() => {
          simulation.sim.comment(seed.sites.store, { pageId: seed.pages.about, threadId: thread, content: "A reply" })
          simulation.sim.comment(seed.sites.store, { pageId: seed.pages.home, content: "A new thread" })
        })
      )
      expect(threadsOnly.events.map((e) => e.output.content)).toEqual(["A new thread"])
    }))
})
