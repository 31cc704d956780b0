/**
 * The webhook triggers kept alive against the simulator: `check` finds the registered webhook
 * active and, once deleted at Webflow, gone (the simulator's `GET /webhooks/{id}` answers 404 as
 * Webflow does); `catchUp` lists what a change made since a time, with the ids its deliveries
 * gave, and nothing from before.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Simulator from "../src/testing/simulator.js"
import { executor } from "./support.js"
import { webhookTriggers } from "./webhookTriggers.js"

const { seed } = Simulator
const { exercise, simulation, trigger } = webhookTriggers()
const { provide, run } = simulation

/** What the trigger catches up since `since`, by id (the order of events of the same millisecond is Webflow's). */
const caughtUp = (name: string, parameters: Record<string, unknown>, since: Date) =>
  Effect.map(provide(executor.catchUp(trigger(name, parameters), since)), (listed) => Option.getOrThrow(listed).map((event) => event.id))

describe("sitebuilder triggers kept alive, against the simulator", () => {
  it.live("check: the enabled webhook is active; deleted at Webflow, GET /webhooks/{id} is Webflow's 404 and the check says gone", () =>
    Effect.gen(function*() {
      const t = trigger("newOrder", { siteId: seed.sites.store })
      const state = yield* provide(executor.enableTrigger(t, "http://127.0.0.1:9/hooks/orders"))
      expect(yield* provide(executor.checkTrigger(t, state))).toEqual(Option.some("active"))
      const webhookId = (state as { webhookId: string }).webhookId
      simulation.sim.webhooks.delete(webhookId)
      const answer = yield* Effect.promise(() =>
        fetch(`${simulation.sim.baseUrl}/webhooks/${webhookId}`, { headers: { authorization: `Bearer ${simulation.values["accessToken"]}` } })
      )
      expect(answer.status).toBe(404)
      expect(yield* Effect.promise(() => answer.json())).toMatchObject({ code: "resource_not_found" })
      expect(yield* provide(executor.checkTrigger(t, state))).toEqual(Option.some("gone"))
    }))

  it.live("formSubmitted: the named form's submissions since, with their deliveries' ids; another form's and older ones are not", () =>
    Effect.gen(function*() {
      const since = new Date()
      const params = { siteId: seed.sites.store, formName: "Contact Us" }
      const { events } = yield* exercise("formSubmitted", params, Effect.sync(() => {
        simulation.sim.submitForm(seed.forms.newsletter, { Email: "news@example.com" })
        simulation.sim.submitForm(seed.forms.contact, { Name: "One", Email: "one@example.com" })
        simulation.sim.submitForm(seed.forms.contact, { Name: "Two", Email: "two@example.com" })
      }))
      expect(events).toHaveLength(2)
      expect((yield* caughtUp("formSubmitted", params, since)).sort()).toEqual(events.map((e) => e.id).sort())
    }))

  it.live("newOrder and collection items: an order placed, an item created and another changed since, with their deliveries' ids", () =>
    Effect.gen(function*() {
      const since = new Date()
      const store = { siteId: seed.sites.store }
      const order = yield* exercise("newOrder", store, Effect.sync(() => simulation.sim.placeOrder(seed.sites.store, { customer: "Marie Curie", skuId: seed.skus.tshirt, count: 1 })))
      expect(yield* caughtUp("newOrder", store, since)).toEqual(order.events.map((e) => e.id))

      const products = { ...store, collectionId: seed.collections.products }
      const created = yield* exercise("collectionItemCreated", products, run("createCollectionItem", { ...products, fieldData: { name: "Caught tee", slug: "caught-tee" } }))
      expect(yield* caughtUp("collectionItemCreated", products, since)).toEqual(created.events.map((e) => e.id))
      const changed = yield* exercise("collectionItemChanged", products, run("updateCollectionItem", { ...products, itemId: seed.productItem(4), fieldData: { name: "Renamed 4" } }))
      // The item created above is no change (never updated since).
      expect(yield* caughtUp("collectionItemChanged", products, since)).toEqual(changed.events.map((e) => e.id))
    }))

  it.live("pageCreated: a page made in the Designer since, with its delivery's id; another site's is not", () =>
    Effect.gen(function*() {
      const since = new Date()
      const store = { siteId: seed.sites.store }
      const { events } = yield* exercise("pageCreated", store, Effect.sync(() => {
        simulation.sim.createPage(seed.sites.portfolio, { title: "Elsewhere" })
        simulation.sim.createPage(seed.sites.store, { title: "Caught page", slug: "caught-page" })
      }))
      expect(events).toHaveLength(1)
      expect(yield* caughtUp("pageCreated", store, since)).toEqual(events.map((e) => e.id))
    }))
})
