import { Action, Property } from "@x/core"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const refundOrder = Action.make({
  name: "refundOrder",
  title: "Refund Order",
  impact: "destroy", idempotent: false,
  description: "Refunds an order in full through its payment processor, and marks it refunded.",
  props: {
    siteId: Props.siteId(true),
    orderId: Props.orderId,
    reason: Property.string({
      title: "Reason",
      description: "Why it is refunded (as the payment processor records it).",
      choices: Orders.refundReasons.map((value) => ({ label: value, value }))
    })
  },
  output: Orders.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) => Orders.refundOrder(client, order)
})
