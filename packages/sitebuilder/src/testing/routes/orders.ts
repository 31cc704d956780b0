/** E-commerce orders: a site's list (by status) and fulfilment, answered as full Order objects. */
import { invalid, notFound, paged, type Route } from "../http.js"
import { objectId, type Order, type Store } from "../store.js"

const money = (cents: number) => ({ unit: "USD", value: String(cents), string: `$ ${(cents / 100).toFixed(2)} USD` })
const address = (type: "shipping" | "billing", name: string) => ({
  type, addressee: name, line1: "1 Main Street", line2: "", city: "Springfield", state: "IL", country: "US", postalCode: "62701"
})

/** An order as Webflow answers it. */
export const orderJson = (o: Order) => ({
  orderId: o.orderId,
  status: o.status,
  comment: "",
  orderComment: "",
  acceptedOn: o.acceptedOn,
  fulfilledOn: o.fulfilledOn,
  refundedOn: o.status === "refunded" ? o.acceptedOn : null,
  disputedOn: o.status === "disputed" ? o.acceptedOn : null,
  disputeUpdatedOn: null,
  disputeLastStatus: o.status === "disputed" ? "needs_response" : null,
  customerPaid: money(o.total),
  netAmount: money(Math.round(o.total * 0.95)),
  applicationFee: money(Math.round(o.total * 0.02)),
  allAddresses: [address("shipping", o.customer), address("billing", o.customer)],
  shippingAddress: address("shipping", o.customer),
  billingAddress: address("billing", o.customer),
  shippingProvider: null,
  shippingTracking: null,
  shippingTrackingURL: null,
  customerInfo: { fullName: o.customer, email: `${o.customer.split(" ")[0]!.toLowerCase()}@example.com` },
  purchasedItems: [{
    count: 1, rowTotal: money(o.total), productId: objectId(), productName: "T-Shirt", productSlug: "t-shirt",
    variantId: objectId(), variantName: "T-Shirt: Large", variantSlug: "t-shirt-large", variantSKU: "TS-L",
    variantImage: {
      url: "https://uploads.example.com/t-shirt.png",
      file: { size: 2048, originalFileName: "t-shirt.png", createdOn: "2026-10-01T00:00:00.000Z", contentType: "image/png", width: 512, height: 512, variants: [] }
    },
    variantPrice: money(o.total), weight: 0, width: 0, height: 0, length: 0
  }],
  purchasedItemsCount: 1,
  stripeDetails: { subscriptionId: null, paymentMethod: "pm_simulated", paymentIntentId: "pi_simulated", customerId: "cus_simulated", chargeId: "ch_simulated", disputeId: null, refundId: null, refundReason: null },
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
})

export const routes = (store: Store): ReadonlyArray<Route> => {
  const shop = (siteId: string) => {
    const site = store.site(siteId)
    store.ecommerce(site)
    return site
  }
  const order = (siteId: string, orderId: string) => {
    const found = store.orders.get(`${siteId}/${orderId}`)
    if (found === undefined) throw notFound("order_not_found", "Order")
    return found
  }
  return [
    {
      method: "GET",
      path: "/sites/:site_id/orders",
      scope: "ecommerce:read",
      handle: ({ path, query }) => {
        const site = shop(path["site_id"]!)
        const status = query.get("status")
        return paged("orders", [...store.orders.values()].filter((o) => o.siteId === site.id && (status === null || o.status === status)), query, orderJson)
      }
    },
    {
      method: "POST",
      path: "/sites/:site_id/orders/:order_id/fulfill",
      scope: "ecommerce:write",
      handle: ({ body, path }) => {
        const site = shop(path["site_id"]!)
        const found = order(site.id, path["order_id"]!)
        if (body["sendOrderFulfilledEmail"] !== undefined && typeof body["sendOrderFulfilledEmail"] !== "boolean") {
          throw invalid([{ param: "sendOrderFulfilledEmail", description: "must be a boolean" }])
        }
        if (found.status !== "fulfilled") {
          found.status = "fulfilled"
          found.fulfilledOn = new Date().toISOString()
          store.emit(site.id, "ecomm_order_changed", orderJson(found))
        }
        return orderJson(found)
      }
    }
  ]
}
