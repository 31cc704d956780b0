import { createHash } from "node:crypto"
import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

/** What a change to an order can change: its status, notes, shipping, and the times of its steps. */
const changeOf = (order: Webhooks.OrderEvent) =>
  createHash("sha256").update(JSON.stringify([
    order.comment, order.shippingProvider, order.shippingTracking, order.shippingTrackingURL,
    order.fulfilledOn, order.refundedOn, order.disputedOn, order.disputeUpdatedOn, order.disputeLastStatus
  ])).digest("hex").slice(0, 16)

/** The latest step of an order: when it last changed, as far as the order says. */
const changedOn = (order: Webhooks.OrderEvent) =>
  [order.acceptedOn, order.fulfilledOn, order.refundedOn, order.disputedOn, order.disputeUpdatedOn].reduce<string>(
    (latest, at) => (at != null && at > latest ? at : latest),
    ""
  )

export const orderChanged = Webhook.make({
  name: "orderChanged",
  title: "Order Changed",
  description: "Fires when an order of the site changes: fulfilled, unfulfilled, refunded, disputed, its notes or shipping updated.",
  props: {},
  triggerType: "ecomm_order_changed",
  readScope: Scopes.ecommerceRead,
  payload: Webhooks.OrderEvent,
  // The payload has no time of the change: the order, its status and what changed make one change;
  // a redelivery carries the same order, the next change another.
  id: (order) => `${order.orderId}:${order.status}:${changeOf(order)}`,
  recent: (client, { siteId }) => Webhooks.recentOrders(client, siteId, changedOn)
})
