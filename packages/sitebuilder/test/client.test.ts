/** The typed clients, end to end against the simulator. */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "@effect/vitest"
import { ConnectorError } from "@x/core"
import * as Effect from "effect/Effect"
import { type Item, type Order, Sitebuilder } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())
const connection = () => ({ clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl })

describe("Sitebuilder.client (Promise)", () => {
  it("reads an item and fulfils an order, typed", async () => {
    const webflow = Sitebuilder.client(connection())
    const item = await webflow.getCollectionItem({
      collectionId: Simulator.seed.collections.products,
      itemId: Simulator.seed.productItem(1)
    })
    expectTypeOf(item).toEqualTypeOf<Item>()
    expect(item.id).toBe(Simulator.seed.productItem(1))
    const order = await webflow.fulfillOrder({ siteId: Simulator.seed.sites.store, orderId: Simulator.seed.orders.unfulfilled })
    expectTypeOf(order).toEqualTypeOf<Order>()
    expect(order).toMatchObject({ orderId: Simulator.seed.orders.unfulfilled, status: "fulfilled" })
    await webflow.close()
  })

  it("rejects bad input with InvalidInput before any request, and an unknown item with NotFound", async () => {
    const webflow = Sitebuilder.client(connection())
    const before = sim.stats.requests
    // @ts-expect-error sendOrderFulfilledEmail is a boolean
    const failure = await webflow.fulfillOrder({ siteId: Simulator.seed.sites.store, orderId: "a1b-2c3", sendOrderFulfilledEmail: "yes" })
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectorError.InvalidInput)
    expect(sim.stats.requests).toBe(before)
    await expect(webflow.getCollectionItem({ collectionId: Simulator.seed.collections.products, itemId: "0123456789abcdef01234567" }))
      .rejects.toBeInstanceOf(ConnectorError.NotFound)
    await webflow.close()
  })
})

describe("Sitebuilder.effect (Effect)", () => {
  it.effect("fails with typed errors in the error channel", () =>
    Effect.gen(function*() {
      const webflow = yield* Sitebuilder.effect({ ...connection(), accessToken: "not-a-token" })
      const error = yield* Effect.flip(webflow.getCollectionItem({
        collectionId: Simulator.seed.collections.products,
        itemId: Simulator.seed.productItem(1)
      }))
      expect(error._tag).toBe("AuthenticationFailed")
    }).pipe(Effect.scoped))
})
