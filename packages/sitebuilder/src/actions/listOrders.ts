import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listOrders = Action.make({
  name: "listOrders",
  title: "List Orders",
  impact: "read",
  description: "Lists the site's orders (of one status, if chosen), across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    status: Property.string({ title: "Status", description: "Only the orders in this status.", choices: Orders.orderStatuses.map((value) => ({ label: value, value })) }),
    limit: Pagination.limit({ description: "The most orders returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ orders: Schema.Array(Orders.Order) }),
  scopes: [Scopes.ecommerceRead, Scopes.sitesRead],
  run: ({ limit, siteId, status }, { client }) =>
    Pagination.collect(Orders.orders(client, siteId, { status, maxItems: limit ?? 100 })).pipe(
      Orders.paidPlan("listing orders"),
      Effect.map((orders) => ({ orders }))
    )
})
