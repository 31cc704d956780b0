/**
 * E-commerce orders: a site's list (by status), one order, its notes and shipping, fulfilment,
 * its undoing, and refunds; and what every e-commerce call shares: Webflow's refusals for a site
 * without a paid e-commerce plan, typed as `PaymentRequired`.
 */
import { ConnectorError, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"

const { path } = ProviderRequest

const text = Schema.optional(Schema.NullOr(Schema.String))

/** An amount as Webflow gives it: the unit (currency), the value in its smallest unit, and as text ("$ 19.99 USD"); each absent when left out. */
export const Money = Schema.Struct({
  unit: Schema.optional(Schema.String),
  value: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  string: Schema.optional(Schema.String)
})

export const Address = Schema.Struct({
  type: text, addressee: text, line1: text, line2: text, city: text, state: text, country: text, postalCode: text
})

export const OrderStatus = Schema.Literal("pending", "unfulfilled", "fulfilled", "disputed", "dispute-lost", "refunded")
export const orderStatuses = OrderStatus.literals

/** A purchased item: the product, its variant (SKU), how many and for how much. */
export const PurchasedItem = Schema.Struct({
  count: Schema.optional(Schema.Number),
  rowTotal: Schema.optional(Money),
  productId: text,
  productName: text,
  productSlug: text,
  variantId: text,
  variantName: text,
  variantSlug: text,
  variantSKU: text,
  variantPrice: Schema.optional(Money)
})

/**
 * An order (the document's `Order`): the customer, what they bought, the totals, shipping, and
 * the dates of its steps. `orderId` and `status` are required (the seed's order); the rest is
 * absent when Webflow leaves it out.
 */
export const Order = Schema.Struct({
  orderId: Schema.String,
  status: OrderStatus,
  comment: text,
  orderComment: text,
  acceptedOn: text,
  fulfilledOn: text,
  refundedOn: text,
  disputedOn: text,
  customerInfo: Schema.optional(Schema.Struct({ fullName: text, email: text })),
  customerPaid: Schema.optional(Money),
  netAmount: Schema.optional(Money),
  totals: Schema.optional(Schema.Struct({
    subtotal: Schema.optional(Money),
    extras: Schema.optional(Schema.Array(Schema.Struct({ type: text, name: text, description: text, price: Schema.optional(Money) }))),
    total: Schema.optional(Money)
  })),
  purchasedItems: Schema.optional(Schema.Array(PurchasedItem)),
  purchasedItemsCount: Schema.optional(Schema.Number),
  shippingAddress: Schema.optional(Schema.NullOr(Address)),
  billingAddress: Schema.optional(Schema.NullOr(Address)),
  isShippingRequired: Schema.optional(Schema.Boolean),
  shippingProvider: text,
  shippingTracking: text,
  shippingTrackingURL: text
})
export type Order = typeof Order.Type

const codeOf = (error: ConnectorError.ConnectorError) => (error.body as { code?: unknown } | undefined)?.code

/**
 * E-commerce needs a paid plan; Webflow says so with a 409 `ecommerce_not_enabled`, a 402, or a
 * 403 that names the plan. Any other 403 is about access, and stays one.
 */
const onFreePlan = (error: ConnectorError.ConnectorError): boolean =>
  codeOf(error) === "ecommerce_not_enabled" ||
  error._tag === "PaymentRequired" ||
  (error._tag === "PermissionDenied" && error.missingScopes === undefined &&
    /\b(plan|upgrade|e-?commerce|billing|payment)\b/i.test(error.message))

/** Every e-commerce call: a site without a paid e-commerce plan is a `PaymentRequired` saying what needed it. */
export const paidPlan = (doing: string) => <A, R>(call: Effect.Effect<A, ConnectorError.ConnectorError, R>) =>
  Effect.mapError(call, (error) =>
    onFreePlan(error)
      ? new ConnectorError.PaymentRequired({
        ...error,
        message: `${doing} needs a paid Webflow e-commerce plan on this site (Webflow: ${error.message})`
      })
      : error)

/** The site's orders (of one status, if given), every page up to `maxItems` (a stream: pulled page by page). */
export const orders = (client: ProviderClient.ProviderClient, siteId: string, filter: { status?: string | undefined; maxItems?: number | undefined } = {}) =>
  paged(client, { path: path`/sites/${siteId}/orders`, key: "orders", query: { status: filter.status }, maxItems: filter.maxItems }, Order)

interface OrderRef { readonly siteId: string; readonly orderId: string }
const orderPath = (order: OrderRef, tail = "") => `${path`/sites/${order.siteId}/orders/${order.orderId}`}${tail}`

export const getOrder = (client: ProviderClient.ProviderClient, order: OrderRef) =>
  client.json({ method: "GET", path: orderPath(order) }, Order).pipe(paidPlan("reading orders"))

/** What `PATCH …/orders/{id}` changes: only what is given is sent. */
export interface OrderUpdate { readonly comment?: string | undefined; readonly shippingProvider?: string | undefined; readonly shippingTracking?: string | undefined; readonly shippingTrackingURL?: string | undefined }

export const updateOrder = (client: ProviderClient.ProviderClient, order: OrderRef, update: OrderUpdate) =>
  client.json({ method: "PATCH", path: orderPath(order), body: ProviderRequest.jsonBody(update) }, Order).pipe(paidPlan("updating orders"))

export const fulfillOrder = (client: ProviderClient.ProviderClient, order: OrderRef & { sendOrderFulfilledEmail: boolean }) =>
  client.json({
    method: "POST",
    path: orderPath(order, "/fulfill"),
    body: ProviderRequest.jsonBody({ sendOrderFulfilledEmail: order.sendOrderFulfilledEmail })
  }, Order).pipe(paidPlan("fulfilling orders"))

export const unfulfillOrder = (client: ProviderClient.ProviderClient, order: OrderRef) =>
  client.json({ method: "POST", path: orderPath(order, "/unfulfill") }, Order).pipe(paidPlan("unfulfilling orders"))

/** Why an order is refunded: the document's (Stripe's) reasons. */
export const refundReasons = ["duplicate", "fraudulent", "requested"] as const

export const refundOrder = (client: ProviderClient.ProviderClient, order: OrderRef & { reason?: string | undefined }) =>
  client.json({
    method: "POST",
    path: orderPath(order, "/refund"),
    body: ProviderRequest.jsonBody(order.reason === undefined ? {} : { reason: order.reason })
  }, Order).pipe(paidPlan("refunding orders"))
