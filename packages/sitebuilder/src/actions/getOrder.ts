import { Action } from "@x/core"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getOrder = Action.make({
  name: "getOrder",
  title: "Get Order",
  impact: "read",
  description: "Reads an order: its customer, purchased items, totals, shipping and the dates of its steps.",
  props: { siteId: Props.siteId(true), orderId: Props.orderId },
  output: Orders.Order,
  scopes: [Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) => Orders.getOrder(client, order)
})
