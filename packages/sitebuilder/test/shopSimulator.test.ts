/**
 * Orders, products and inventory end to end: each action run through the executor against the
 * simulator (seeded orders, 105 products with their SKUs, inventories), their events, a
 * shopper's order (`placeOrder`), Webflow's refusals typed, and the dynamic options.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const site = seed.sites.store
const simulation = simulated()
const { counted, options, run } = simulation

const eventsOf = (type: string) => simulation.sim.events.filter((e) => e.triggerType === type).map((e) => e.payload as any)

describe("orders against the simulator", () => {
  it.live("listOrders: by status; getOrder: the customer, items, totals and shipping", () =>
    Effect.gen(function*() {
      const { orders } = yield* run("listOrders", { siteId: site, status: "unfulfilled" })
      expect(orders.map((o: any) => o.orderId)).toEqual([seed.orders.unfulfilled, seed.orders.unfulfilledToo])
      expect((yield* run("listOrders", { siteId: site, limit: 3 })).orders).toHaveLength(3)
      const order = yield* run("getOrder", { siteId: site, orderId: seed.orders.pending })
      expect(order).toMatchObject({
        orderId: seed.orders.pending, status: "pending", customerInfo: { fullName: "Barbara Liskov", email: "barbara@example.com" },
        customerPaid: { unit: "USD", value: "3999" }, totals: { total: { string: "$ 39.99 USD" } },
        purchasedItems: [{ count: 1, productName: "T-Shirt", variantSKU: "TS-1" }], shippingAddress: { city: "Springfield" }
      })
      // A site without e-commerce: Webflow's 409, typed as a paid plan needed.
      const free = yield* Effect.flip(run("listOrders", { siteId: seed.sites.portfolio }))
      expect(free._tag).toBe("PaymentRequired")
      expect(free.message).toMatch(/^listing orders needs a paid Webflow e-commerce plan/)
    }))

  it.live("updateOrder, unfulfillOrder, refundOrder: each change in the order and an ecomm_order_changed", () =>
    Effect.gen(function*() {
      const before = eventsOf("ecomm_order_changed").length
      const updated = yield* run("updateOrder", { siteId: site, orderId: seed.orders.fulfilled, shippingProvider: "UPS", shippingTracking: "1Z999", shippingTrackingURL: "https://ups.example.com/1Z999" })
      expect(updated).toMatchObject({ status: "fulfilled", shippingProvider: "UPS", shippingTracking: "1Z999", shippingTrackingURL: "https://ups.example.com/1Z999", comment: "" })
      const unfulfilled = yield* run("unfulfillOrder", { siteId: site, orderId: seed.orders.fulfilled })
      expect(unfulfilled).toMatchObject({ status: "unfulfilled", fulfilledOn: null, shippingProvider: "UPS" })
      const refunded = yield* run("refundOrder", { siteId: site, orderId: seed.orders.fulfilled, reason: "fraudulent" })
      expect(refunded.status).toBe("refunded")
      expect(refunded.refundedOn).toMatch(/^\d{4}-/)
      expect(eventsOf("ecomm_order_changed").slice(before).map((o) => [o.orderId, o.status])).toEqual([
        [seed.orders.fulfilled, "fulfilled"], [seed.orders.fulfilled, "unfulfilled"], [seed.orders.fulfilled, "refunded"]
      ])
      const again = yield* Effect.flip(run("refundOrder", { siteId: site, orderId: seed.orders.fulfilled }))
      expect(again._tag).toBe("Conflict")
      // Nothing to update, a refund reason outside Webflow's, a bad URL: refused before any request.
      for (const bad of [{}, { comment: "x", shippingTrackingURL: "not a url" }]) {
        const error = yield* Effect.flip(run("updateOrder", { siteId: site, orderId: seed.orders.fulfilled, ...bad }))
        expect(error._tag).toBe("InvalidInput")
      }
      expect((yield* Effect.flip(run("refundOrder", { siteId: site, orderId: seed.orders.pending, reason: "changed-mind" })))._tag).toBe("InvalidInput")
      expect((yield* Effect.flip(run("getOrder", { siteId: site, orderId: "fff-000" })))._tag).toBe("NotFound")
    }))

  it.live("placeOrder: an unfulfilled order of the SKU, the inventory taken; ecomm_new_order and ecomm_inventory_changed", () =>
    Effect.gen(function*() {
      const placed = simulation.sim.placeOrder(site, { customer: "Marie Curie", email: "marie@example.com", skuId: seed.skus.mug, count: 2 })
      expect(placed).toMatchObject({ status: "unfulfilled", customerInfo: { fullName: "Marie Curie", email: "marie@example.com" }, customerPaid: { value: "2598" }, purchasedItemsCount: 2 })
      expect(eventsOf("ecomm_new_order").at(-1)).toMatchObject({ orderId: placed.orderId, purchasedItems: [{ productName: "Mug", count: 2 }] })
      expect(eventsOf("ecomm_inventory_changed").at(-1)).toEqual({ id: seed.skus.mug, quantity: 1, inventoryType: "finite" })
      expect(yield* run("getOrder", { siteId: site, orderId: placed.orderId })).toMatchObject({ orderId: placed.orderId, status: "unfulfilled" })
      expect(() => simulation.sim.placeOrder(site, { customer: "Too Many", skuId: seed.skus.mug, count: 5 })).toThrow(/Only 1 left/)
    }))
})

describe("products and inventory against the simulator", () => {
  it.live("listProducts: 105 products with their SKUs in two requests; a limit of 50 stops after one", () =>
    Effect.gen(function*() {
      const all = yield* counted(run("listProducts", { siteId: site, limit: 500 }))
      expect(all.value.items.length).toBeGreaterThanOrEqual(105)
      expect(all.requests).toBe(2)
      expect(all.value.items[0]).toMatchObject({
        product: { id: seed.products.tshirt, fieldData: { name: "T-Shirt", slug: "t-shirt", shippable: true, "default-sku": seed.skus.tshirt } },
        skus: [{ id: seed.skus.tshirt, fieldData: { price: { value: 1999, unit: "USD" }, sku: "TS-1" } }]
      })
      const capped = yield* counted(run("listProducts", { siteId: site, limit: 50 }))
      expect([capped.value.items.length, capped.requests]).toEqual([50, 1])
    }))

  it.live("createProduct, getProduct, updateProduct: a product with its SKU, read back, renamed", () =>
    Effect.gen(function*() {
      const created = yield* run("createProduct", { siteId: site, name: "Canvas Bag", slug: "canvas-bag", description: "A bag.", price: 2450, sku: "BAG-1", publishStatus: "live" })
      expect(created.product.fieldData).toMatchObject({ name: "Canvas Bag", slug: "canvas-bag", shippable: true })
      expect(created.skus).toHaveLength(1)
      expect(created.skus[0].fieldData).toMatchObject({ name: "Canvas Bag", price: { value: 2450, unit: "USD" }, sku: "BAG-1" })
      expect(created.product.lastPublished).not.toBeNull()
      const read = yield* run("getProduct", { siteId: site, productId: created.product.id })
      expect(read).toEqual(created)
      const updated = yield* run("updateProduct", { siteId: site, productId: created.product.id, name: "Tote Bag", shippable: false })
      expect(updated).toMatchObject({ id: created.product.id, fieldData: { name: "Tote Bag", slug: "canvas-bag", description: "A bag.", shippable: false } })
      const duplicate = yield* Effect.flip(run("createProduct", { siteId: site, name: "Again", slug: "canvas-bag", price: 1 }))
      expect(duplicate._tag).toBe("InvalidInput")
      expect((yield* Effect.flip(run("updateProduct", { siteId: site, productId: created.product.id })))._tag).toBe("InvalidInput")
    }))

  it.live("getInventory, updateInventory: set, adjust by a delta, infinite; each change an ecomm_inventory_changed", () =>
    Effect.gen(function*() {
      const sku = { siteId: site, skuCollectionId: seed.skuCollection, skuId: seed.skus.tshirt }
      expect(yield* run("getInventory", sku)).toEqual({ id: seed.skus.tshirt, quantity: 25, inventoryType: "finite" })
      expect(yield* run("updateInventory", { ...sku, inventoryType: "finite", quantity: 40 })).toEqual({ id: seed.skus.tshirt, quantity: 40, inventoryType: "finite" })
      expect(yield* run("updateInventory", { ...sku, inventoryType: "finite", updateQuantity: -15 })).toMatchObject({ quantity: 25 })
      expect(yield* run("updateInventory", { ...sku, inventoryType: "infinite" })).toEqual({ id: seed.skus.tshirt, inventoryType: "infinite" })
      expect(eventsOf("ecomm_inventory_changed").filter((e) => e.id === seed.skus.tshirt).slice(-3)).toEqual([
        { id: seed.skus.tshirt, quantity: 40, inventoryType: "finite" },
        { id: seed.skus.tshirt, quantity: 25, inventoryType: "finite" },
        { id: seed.skus.tshirt, inventoryType: "infinite" }
      ])
      // Both a quantity and a delta, or a quantity for an infinite inventory: refused before any request.
      const before = simulation.sim.stats.requests
      const both = yield* Effect.flip(run("updateInventory", { ...sku, inventoryType: "finite", quantity: 1, updateQuantity: 1 }))
      expect(both._tag === "InvalidInput" && both.issues.map((i: any) => i.path)).toEqual(["updateQuantity"])
      expect((yield* Effect.flip(run("updateInventory", { ...sku, inventoryType: "infinite", quantity: 3 })))._tag).toBe("InvalidInput")
      expect(simulation.sim.stats.requests).toBe(before)
      // Below zero: Webflow's 400.
      const negative = yield* Effect.flip(run("updateInventory", { ...sku, skuId: seed.skus.mug, inventoryType: "finite", updateQuantity: -1000 }))
      expect(negative._tag).toBe("InvalidInput")
    }))

  it.live("options: the store's products, every SKU, the SKUs collection", () =>
    Effect.gen(function*() {
      const products = yield* options("getProduct", "productId", { siteId: site })
      expect(products.length).toBeGreaterThanOrEqual(105)
      expect(products[0]).toEqual({ label: "T-Shirt", value: seed.products.tshirt })
      const skus = yield* options("getInventory", "skuId", { siteId: site })
      expect(skus[1]).toEqual({ label: "Mug: Mug (MUG-1)", value: seed.skus.mug })
      expect(yield* options("getInventory", "skuCollectionId", { siteId: site })).toEqual([{ label: "SKUs", value: seed.skuCollection }])
    }))
})
