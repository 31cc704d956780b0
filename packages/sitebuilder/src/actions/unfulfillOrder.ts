import { Action } from "@x/core"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const unfulfillOrder = Action.make({
  name: "unfulfillOrder",
  title: "Unfulfill Order",
  impact: "write", idempotent: true,
  description: "Sets a fulfilled order back to unfulfilled.",
  props: { siteId: Props.siteId(true), orderId: Props.orderId },
  output: Orders.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) => Orders.unfulfillOrder(client, order)
})
