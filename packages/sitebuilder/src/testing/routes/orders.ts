/**
 * E-commerce orders: a site's list (by status), one order, its notes and shipping, fulfilment,
 * unfulfilment and refund, each change emitted as `ecomm_order_changed`; and `placeOrder`, a
 * shopper's checkout (what only the live site's shoppers do): an unfulfilled order, the count
 * taken from a finite inventory, emitted as `ecomm_new_order` (and `ecomm_inventory_changed`).
 * On a site without e-commerce: 409 `ecommerce_not_enabled`.
 */
import { randomBytes } from "node:crypto"
import { ApiError, invalid, notFound, paged, type Route } from "../http.js"
import type { Order, OrderLine, Store } from "../store.js"

const money = (cents: number) => ({ unit: "USD", value: String(cents), string: `$ ${(cents / 100).toFixed(2)} USD` })
const address = (type: "shipping" | "billing", name: string) => ({
  type, addressee: name, line1: "1 Main Street", line2: "", city: "Springfield", state: "IL", country: "US", postalCode: "62701"
})
/** What a seeded order without lines bought: one T-shirt, for its total. */
const seededLine = (o: Order): OrderLine => ({
  productId: "5eed000000000000000ec001", productName: "T-Shirt", productSlug: "t-shirt",
  skuId: "5eed000000000000000ec101", skuName: "T-Shirt", skuSlug: "t-shirt", skuCode: "TS-1", price: o.total, count: 1
})

/** An order as Webflow answers it (and its order webhooks carry it). */
export const orderJson = (o: Order) => {
  const lines = o.lines ?? [seededLine(o)]
  return {
    orderId: o.orderId,
    status: o.status,
    comment: o.comment ?? "",
    orderComment: "",
    acceptedOn: o.acceptedOn,
    fulfilledOn: o.fulfilledOn,
    refundedOn: o.refundedOn ?? (o.status === "refunded" ? o.acceptedOn : null),
    disputedOn: o.status === "disputed" ? o.acceptedOn : null,
    disputeUpdatedOn: null,
    disputeLastStatus: o.status === "disputed" ? "needs_response" : null,
    customerPaid: money(o.total),
    netAmount: money(Math.round(o.total * 0.95)),
    applicationFee: money(Math.round(o.total * 0.02)),
    allAddresses: [address("shipping", o.customer), address("billing", o.customer)],
    shippingAddress: address("shipping", o.customer),
    billingAddress: address("billing", o.customer),
    shippingProvider: o.shippingProvider ?? null,
    shippingTracking: o.shippingTracking ?? null,
    shippingTrackingURL: o.shippingTrackingURL ?? null,
    customerInfo: { fullName: o.customer, email: o.email ?? `${o.customer.split(" ")[0]!.toLowerCase()}@example.com` },
    purchasedItems: lines.map((line) => ({
      count: line.count, rowTotal: money(line.price * line.count), productId: line.productId, productName: line.productName, productSlug: line.productSlug,
      variantId: line.skuId, variantName: line.skuName, variantSlug: line.skuSlug, variantSKU: line.skuCode,
      variantImage: {
        url: `https://uploads.example.com/${line.skuSlug}.png`,
        file: { size: 2048, originalFileName: `${line.skuSlug}.png`, createdOn: "2026-10-01T00:00:00.000Z", contentType: "image/png", width: 512, height: 512, variants: [] }
      },
      variantPrice: money(line.price), weight: 0, width: 0, height: 0, length: 0
    })),
    purchasedItemsCount: lines.reduce((n, line) => n + line.count, 0),
    stripeDetails: {
      subscriptionId: null, paymentMethod: "pm_simulated", paymentIntentId: "pi_simulated", customerId: "cus_simulated", chargeId: "ch_simulated", disputeId: null,
      refundId: o.status === "refunded" ? "re_simulated" : null, refundReason: o.refundReason ?? null
    },
    stripeCard: { last4: "4242", brand: "Visa", ownerName: o.customer, expires: { year: 2030, month: 12 } },
    paypalDetails: {},
    customData: [],
    metadata: { isBuyNow: false },
    isCustomerDeleted: false,
    isShippingRequired: true,
    hasDownloads: false,
    paymentProcessor: "stripe",
    totals: { subtotal: money(o.total), extras: [], total: money(o.total) },
    downloadFiles: []
  }
}

/** What a shopper buys: a SKU of the site's store, how many, and who they are. */
export interface Checkout {
  readonly customer: string
  readonly email?: string
  readonly skuId: string
  readonly count?: number
}

/**
 * A shopper places an order: unfulfilled, the count taken from the SKU's finite inventory (a 409
 * `insufficient_inventory` when fewer are left), `ecomm_new_order` then `ecomm_inventory_changed`.
 */
export const placeOrder = (store: Store) => (siteId: string, checkout: Checkout) => {
  const site = store.shop(siteId)
  const skuCollection = store.skuCollections.get(site.id)!
  const sku = store.skuOf(skuCollection, checkout.skuId)
  const product = store.products.get(sku.productId)!
  const count = checkout.count ?? 1
  if (!Number.isInteger(count) || count < 1) throw invalid([{ param: "count", description: "must be a positive integer" }])
  const inventory = store.inventories.get(sku.id)
  if (inventory?.inventoryType === "finite" && inventory.quantity < count) {
    throw new ApiError(409, "insufficient_inventory", `Only ${inventory.quantity} left of ${String(sku.fieldData["name"])}`)
  }
  const price = Number((sku.fieldData["price"] as { value?: unknown } | undefined)?.value ?? 0)
  const order: Order = {
    siteId: site.id,
    orderId: `${randomBytes(2).toString("hex").slice(0, 3)}-${randomBytes(2).toString("hex").slice(0, 3)}`,
    status: "unfulfilled",
    acceptedOn: new Date().toISOString(),
    fulfilledOn: null,
    customer: checkout.customer,
    ...(checkout.email === undefined ? {} : { email: checkout.email }),
    total: price * count,
    lines: [{
      productId: product.id, productName: String(product.fieldData["name"]), productSlug: String(product.fieldData["slug"]),
      skuId: sku.id, skuName: String(sku.fieldData["name"]), skuSlug: String(sku.fieldData["slug"]), skuCode: String(sku.fieldData["sku"] ?? ""),
      price, count
    }]
  }
  store.orders.set(`${site.id}/${order.orderId}`, order)
  store.emit(site.id, "ecomm_new_order", orderJson(order))
  if (inventory?.inventoryType === "finite") {
    inventory.quantity -= count
    store.emit(site.id, "ecomm_inventory_changed", store.inventoryJson(sku.id))
  }
  return orderJson(order)
}

const optionalText = (body: Readonly<Record<string, unknown>>, param: string) => {
  const value = body[param]
  if (value !== undefined && value !== null && typeof value !== "string") throw invalid([{ param, description: "must be a string" }])
  return value as string | null | undefined
}

export const routes = (store: Store): ReadonlyArray<Route> => {
  const order = (siteId: string, orderId: string) => {
    const found = store.orders.get(`${siteId}/${orderId}`)
    if (found === undefined) throw notFound("order_not_found", "Order")
    return found
  }
  /** The order of the path, on an e-commerce site. */
  const target = (path: Readonly<Record<string, string>>) => order(store.shop(path["site_id"]!).id, path["order_id"]!)
  const changed = (o: Order) => {
    store.emit(o.siteId, "ecomm_order_changed", orderJson(o))
    return orderJson(o)
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/orders",
      scope: "ecommerce:read",
      handle: ({ path, query }) => {
        const site = store.shop(path["site_id"]!)
        const status = query.get("status")
        const statuses = ["pending", "refunded", "dispute-lost", "fulfilled", "disputed", "unfulfilled"]
        if (status !== null && !statuses.includes(status)) throw invalid([{ param: "status", description: `must be one of ${statuses.join(", ")}` }])
        return paged("orders", [...store.orders.values()].filter((o) => o.siteId === site.id && (status === null || o.status === status)), query, orderJson)
      }
    },
    { method: "GET", path: "/sites/:site_id/orders/:order_id", scope: "ecommerce:read", handle: ({ path }) => orderJson(target(path)) },
    {
      method: "PATCH",
      path: "/sites/:site_id/orders/:order_id",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const found = target(path)
        const comment = optionalText(body, "comment")
        const update = {
          shippingProvider: optionalText(body, "shippingProvider"),
          shippingTracking: optionalText(body, "shippingTracking"),
          shippingTrackingURL: optionalText(body, "shippingTrackingURL")
        }
        if (typeof update.shippingTrackingURL === "string" && !URL.canParse(update.shippingTrackingURL)) {
          throw invalid([{ param: "shippingTrackingURL", description: "must be a URL" }])
        }
        if (comment !== undefined) found.comment = comment ?? ""
        for (const [key, value] of Object.entries(update)) if (value !== undefined) found[key as keyof typeof update] = value
        return changed(found)
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/orders/:order_id/fulfill",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const found = target(path)
        if (body["sendOrderFulfilledEmail"] !== undefined && typeof body["sendOrderFulfilledEmail"] !== "boolean") {
          throw invalid([{ param: "sendOrderFulfilledEmail", description: "must be a boolean" }])
        }
        if (found.status === "fulfilled") return orderJson(found)
        found.status = "fulfilled"
        found.fulfilledOn = new Date().toISOString()
        return changed(found)
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/orders/:order_id/unfulfill",
      scope: "ecommerce:write",
      handle: ({ path }) => {
        const found = target(path)
        if (found.status === "unfulfilled") return orderJson(found)
        if (found.status !== "fulfilled") throw new ApiError(409, "conflict", `An order that is ${found.status} cannot be unfulfilled`)
        found.status = "unfulfilled"
        found.fulfilledOn = null
        return changed(found)
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/orders/:order_id/refund",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const found = target(path)
        const reason = body["reason"]
        if (reason !== undefined && !["duplicate", "fraudulent", "requested"].includes(reason as string)) {
          throw invalid([{ param: "reason", description: "must be one of duplicate, fraudulent, requested" }])
        }
        if (found.status === "refunded" || found.status === "dispute-lost") throw new ApiError(409, "conflict", `The order is already ${found.status}`)
        found.status = "refunded"
        found.refundedOn = new Date().toISOString()
        found.refundReason = (reason as string | undefined) ?? "requested"
        return changed(found)
      }
    }
  ]
}
