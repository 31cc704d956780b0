import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const newOrder = Webhook.make({
  name: "newOrder",
  title: "New Order",
  description: "Fires when a shopper places an order on the site's store.",
  props: {},
  triggerType: "ecomm_new_order",
  readScope: Scopes.ecommerceRead,
  payload: Webhooks.OrderEvent,
  // An order is placed once: its id is the event's.
  id: (order) => order.orderId,
  recent: (client, { siteId }) => Webhooks.recentOrders(client, siteId, (order) => order.acceptedOn),
  history: { records: (client, { siteId }) => Webhooks.siteOrders(client, siteId, Webhooks.catchUpScan), happenedAt: (order) => order.acceptedOn }
})
