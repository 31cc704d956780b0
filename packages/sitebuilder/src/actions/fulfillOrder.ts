import { Action, Property } from "@x/core"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const fulfillOrder = Action.make({
  name: "fulfillOrder",
  title: "Fulfill Order",
  impact: "write", idempotent: false,
  description: "Marks an order fulfilled (needs a paid Webflow e-commerce plan).",
  props: {
    siteId: Props.siteId(true),
    orderId: Props.orderId,
    sendOrderFulfilledEmail: Property.boolean({ title: "Send the Order Fulfilled email", defaultValue: false })
  },
  output: Orders.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) => Orders.fulfillOrder(client, { ...order, sendOrderFulfilledEmail: order.sendOrderFulfilledEmail ?? false })
})
