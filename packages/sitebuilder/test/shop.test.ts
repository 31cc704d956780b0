/**
 * Orders, products and inventory on the wire (nock): each action's request (method, path, query,
 * body) pinned, Webflow's answers (the document's examples) decoded, paging to the end or the
 * limit, bad input refused before any request, and the paid-plan refusal typed for each.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { ACCESS_TOKEN, API, ORDER, run, SITE, webflowError, webflowOrder } from "./support.js"

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })

const PRODUCT = "580e63fc8c9a982ac9b8b745"
const SKU = "5e8518516e147040726cc415"
const SKU_COLLECTION = "6377a7c4b7a79608c34a46f7"

/** An order as the document's example has it. */
const fullOrder = {
  ...webflowOrder,
  status: "unfulfilled",
  fulfilledOn: null,
  shippingProvider: "Shipping Company, Co.",
  shippingTracking: "tr00000000001",
  shippingTrackingURL: "https://www.shippingcompany.com/tracking/tr00000000001",
  shippingAddress: { type: "shipping", addressee: "Arthur Dent", line1: "20 W 34th St", line2: "Empire State Building", city: "New York", state: "New York", country: "US", postalCode: "10118" },
  purchasedItems: [{
    count: 1, rowTotal: { unit: "USD", value: "5500", string: "$55.00" }, productId: PRODUCT, productName: "Luxurious Fresh Ball", productSlug: "luxurious-fresh-ball",
    variantId: SKU, variantName: "Luxurious Fresh Ball: Large", variantSlug: "luxurious-fresh-ball-large", variantSKU: "LFB-L",
    variantPrice: { unit: "USD", value: "5500", string: "$55.00" }, weight: 1, width: 2, height: 3, length: 4
  }],
  totals: { subtotal: { unit: "USD", value: "5500", string: "$55.00" }, extras: [{ type: "tax", name: "State Taxes", description: "NY Taxes (4.00%)", price: { unit: "USD", value: "220", string: "$2.20" } }], total: { unit: "USD", value: "5720", string: "$57.20" } },
  stripeCard: { last4: "4242", brand: "Visa", ownerName: "Arthur Dent", expires: { year: 2023, month: 12 } }
}
const webflowProduct = {
  id: PRODUCT, cmsLocaleId: "653ad57de882f528b32e810e", lastPublished: "2023-03-17T18:47:35.560Z", lastUpdated: "2023-03-17T18:47:35.560Z",
  createdOn: "2023-03-17T18:47:35.560Z", isArchived: false, isDraft: false,
  fieldData: { name: "T-Shirt", slug: "t-shirt", description: "A plain cotton t-shirt.", shippable: true, "tax-category": "standard-taxable", "default-sku": SKU, "ec-product-type": "ff42fee0113744f693a764e3431a9cc2" }
}
const webflowSku = {
  id: SKU, cmsLocaleId: "653ad57de882f528b32e810e", lastPublished: "2023-03-17T18:47:35.560Z", lastUpdated: "2023-03-17T18:47:35.560Z", createdOn: "2023-03-17T18:47:35.560Z",
  fieldData: { "sku-values": {}, name: "Blue T-shirt", slug: "t-shirt-blue", price: { value: 2499, unit: "USD", currency: "USD" }, sku: "1234567890" }
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("orders on the wire", () => {
  it.effect("listOrders: GET /sites/{id}/orders?status, page after page up to the limit; the whole order decoded", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ ...fullOrder, orderId: `o-${from + i}` }))
      webflow()
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 0, limit: 100, status: "unfulfilled" }).reply(200, { orders: page(0, 100), pagination: { limit: 100, offset: 0, total: 130 } })
        .get(`/v2/sites/${SITE}/orders`).query({ offset: 100, limit: 20, status: "unfulfilled" }).reply(200, { orders: page(100, 20), pagination: { limit: 20, offset: 100, total: 130 } })
      const { orders } = yield* run("listOrders", { siteId: SITE, status: "unfulfilled", limit: 120 })
      expect(orders).toHaveLength(120)
      expect(orders[119]).toMatchObject({
        orderId: "o-119", status: "unfulfilled", customerInfo: { fullName: "Ada Lovelace" }, shippingAddress: { city: "New York" },
        purchasedItems: [{ count: 1, productName: "Luxurious Fresh Ball", variantSKU: "LFB-L", variantPrice: { value: "5500" } }],
        totals: { total: { string: "$57.20" }, extras: [{ type: "tax", name: "State Taxes" }] }, shippingTracking: "tr00000000001"
      })
      expect(nock.isDone()).toBe(true)
      const bad = yield* Effect.flip(run("listOrders", { siteId: SITE, status: "shipped" }))
      expect(bad._tag).toBe("InvalidInput")
    }))

  it.effect("getOrder, updateOrder, unfulfillOrder, refundOrder: their requests", () =>
    Effect.gen(function*() {
      const path = `/v2/sites/${SITE}/orders/${ORDER}`
      webflow().get(path).reply(200, fullOrder)
      expect((yield* run("getOrder", { siteId: SITE, orderId: ORDER })).purchasedItemsCount).toBe(1)
      webflow().patch(path, { shippingProvider: "UPS", shippingTracking: "1Z" }).reply(200, { ...fullOrder, shippingProvider: "UPS", shippingTracking: "1Z" })
      expect(yield* run("updateOrder", { siteId: SITE, orderId: ORDER, shippingProvider: "UPS", shippingTracking: "1Z" })).toMatchObject({ shippingProvider: "UPS", shippingTracking: "1Z" })
      webflow().post(`${path}/unfulfill`).reply(200, fullOrder)
      expect((yield* run("unfulfillOrder", { siteId: SITE, orderId: ORDER })).status).toBe("unfulfilled")
      webflow().post(`${path}/refund`, { reason: "duplicate" }).reply(200, { ...fullOrder, status: "refunded", refundedOn: "2024-04-01T10:00:00.000Z" })
      expect(yield* run("refundOrder", { siteId: SITE, orderId: ORDER, reason: "duplicate" })).toMatchObject({ status: "refunded", refundedOn: "2024-04-01T10:00:00.000Z" })
      webflow().post(`${path}/refund`, {}).reply(200, { ...fullOrder, status: "refunded" })
      yield* run("refundOrder", { siteId: SITE, orderId: ORDER })
      expect(nock.isDone()).toBe(true)
    }))

  it.effect("every e-commerce action: Webflow's 409 ecommerce_not_enabled is a PaymentRequired naming what needed the plan", () =>
    Effect.gen(function*() {
      const refusal = webflowError("ecommerce_not_enabled", "Ecommerce is not enabled for this site")
      webflow().post(`/v2/sites/${SITE}/orders/${ORDER}/unfulfill`).reply(409, refusal)
      const unfulfil = yield* Effect.flip(run("unfulfillOrder", { siteId: SITE, orderId: ORDER }))
      expect([unfulfil._tag, unfulfil.message]).toEqual(["PaymentRequired", "unfulfilling orders needs a paid Webflow e-commerce plan on this site (Webflow: Ecommerce is not enabled for this site)"])
      webflow().get(`/v2/sites/${SITE}/products`).query({ offset: 0, limit: 100 }).reply(409, refusal)
      expect((yield* Effect.flip(run("listProducts", { siteId: SITE })))._tag).toBe("PaymentRequired")
      webflow().get(`/v2/collections/${SKU_COLLECTION}/items/${SKU}/inventory`).reply(409, refusal)
      expect((yield* Effect.flip(run("getInventory", { siteId: SITE, skuCollectionId: SKU_COLLECTION, skuId: SKU })))._tag).toBe("PaymentRequired")
    }))
})

describe("products and inventory on the wire", () => {
  it.effect("listProducts: GET /sites/{id}/products, every page; getProduct", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ product: { ...webflowProduct, id: `${PRODUCT.slice(0, 20)}${String(from + i).padStart(4, "0")}` }, skus: [webflowSku] }))
      webflow()
        .get(`/v2/sites/${SITE}/products`).query({ offset: 0, limit: 100 }).reply(200, { items: page(0, 100), pagination: { limit: 100, offset: 0, total: 101 } })
        .get(`/v2/sites/${SITE}/products`).query({ offset: 100, limit: 100 }).reply(200, { items: page(100, 1), pagination: { limit: 100, offset: 100, total: 101 } })
      const { items } = yield* run("listProducts", { siteId: SITE, limit: 1000 })
      expect(items).toHaveLength(101)
      expect(items[0].skus[0].fieldData).toMatchObject({ name: "Blue T-shirt", price: { value: 2499, unit: "USD" }, sku: "1234567890" })
      webflow().get(`/v2/sites/${SITE}/products/${PRODUCT}`).reply(200, { product: webflowProduct, skus: [webflowSku] })
      expect((yield* run("getProduct", { siteId: SITE, productId: PRODUCT })).product.fieldData).toMatchObject({ name: "T-Shirt", "default-sku": SKU })
      expect(nock.isDone()).toBe(true)
    }))

  it.effect("createProduct: POST /sites/{id}/products {publishStatus, product: {fieldData}, sku: {fieldData}}; updateProduct: PATCH only what is given", () =>
    Effect.gen(function*() {
      webflow().post(`/v2/sites/${SITE}/products`, {
        publishStatus: "live",
        product: { fieldData: { name: "T-Shirt", slug: "t-shirt", description: "A plain cotton t-shirt.", shippable: true } },
        sku: { fieldData: { name: "T-Shirt", slug: "t-shirt", price: { value: 2499, unit: "USD" }, sku: "TS-1" } }
      }).reply(200, { product: webflowProduct, skus: [webflowSku] })
      const created = yield* run("createProduct", { siteId: SITE, name: "T-Shirt", slug: "t-shirt", description: "A plain cotton t-shirt.", price: 2499, sku: "TS-1", publishStatus: "live" })
      expect(created.product.id).toBe(PRODUCT)
      webflow().patch(`/v2/sites/${SITE}/products/${PRODUCT}`, { product: { fieldData: { name: "Tee", shippable: false } } }).reply(200, { ...webflowProduct, fieldData: { ...webflowProduct.fieldData, name: "Tee", shippable: false } })
      expect((yield* run("updateProduct", { siteId: SITE, productId: PRODUCT, name: "Tee", shippable: false })).fieldData).toMatchObject({ name: "Tee", shippable: false })
      expect(nock.isDone()).toBe(true)
      for (const bad of [{ name: "X", slug: "Not A Slug", price: 1 }, { name: "X", slug: "x", price: -1 }, { name: "X", slug: "x" }]) {
        expect((yield* Effect.flip(run("createProduct", { siteId: SITE, ...bad })))._tag).toBe("InvalidInput")
      }
    }))

  it.effect("getInventory, updateInventory: GET/PATCH /collections/{skuCollection}/items/{sku}/inventory; a quantity and a delta together refused", () =>
    Effect.gen(function*() {
      const path = `/v2/collections/${SKU_COLLECTION}/items/${SKU}/inventory`
      const sku = { siteId: SITE, skuCollectionId: SKU_COLLECTION, skuId: SKU }
      webflow().get(path).reply(200, { id: SKU, quantity: 100, inventoryType: "finite" })
      expect(yield* run("getInventory", sku)).toEqual({ id: SKU, quantity: 100, inventoryType: "finite" })
      webflow().patch(path, { inventoryType: "finite", updateQuantity: -3 }).reply(200, { id: SKU, quantity: 97, inventoryType: "finite" })
      expect((yield* run("updateInventory", { ...sku, inventoryType: "finite", updateQuantity: -3 })).quantity).toBe(97)
      webflow().patch(path, { inventoryType: "finite", quantity: 10 }).reply(200, { id: SKU, quantity: 10, inventoryType: "finite" })
      yield* run("updateInventory", { ...sku, inventoryType: "finite", quantity: 10 })
      webflow().patch(path, { inventoryType: "infinite" }).reply(200, { id: SKU, quantity: 0, inventoryType: "infinite" })
      expect((yield* run("updateInventory", { ...sku, inventoryType: "infinite" })).inventoryType).toBe("infinite")
      expect(nock.isDone()).toBe(true)
      const both = yield* Effect.flip(run("updateInventory", { ...sku, inventoryType: "finite", quantity: 1, updateQuantity: 2 }))
      expect(both._tag === "InvalidInput" && both.issues.map((i: any) => i.path)).toEqual(["updateQuantity"])
      expect((yield* Effect.flip(run("updateInventory", { ...sku, inventoryType: "lots" })))._tag).toBe("InvalidInput")
    }))
})
