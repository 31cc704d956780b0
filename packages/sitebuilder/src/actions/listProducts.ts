import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Orders from "../api/orders.js"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listProducts = Action.make({
  name: "listProducts",
  title: "List Products",
  impact: "read",
  description: "Lists the site's products, each with its SKUs (prices), across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    limit: Pagination.limit({ description: "The most products returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ items: Schema.Array(Products.ProductAndSkus) }),
  scopes: [Scopes.ecommerceRead, Scopes.sitesRead],
  run: ({ limit, siteId }, { client }) =>
    Pagination.collect(Products.products(client, siteId, limit ?? 100)).pipe(
      Orders.paidPlan("listing products"),
      Effect.map((items) => ({ items }))
    )
})
