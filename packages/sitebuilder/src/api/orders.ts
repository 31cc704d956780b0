/** E-commerce orders: a site's list, and fulfilment. */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { paged } from "../api.js"

const { path } = ProviderRequest

export const Order = Schema.Struct({ orderId: Schema.String, status: Schema.String })
export type Order = typeof Order.Type

/** The site's orders, every page (a stream: pulled page by page). */
export const orders = (client: ProviderClient.ProviderClient, siteId: string) =>
  paged(client, { path: path`/sites/${siteId}/orders`, key: "orders" }, Order)

export const fulfillOrder = (
  client: ProviderClient.ProviderClient,
  order: { siteId: string; orderId: string; sendOrderFulfilledEmail: boolean }
) =>
  client.json({
    method: "POST",
    path: path`/sites/${order.siteId}/orders/${order.orderId}/fulfill`,
    body: ProviderRequest.jsonBody({ sendOrderFulfilledEmail: order.sendOrderFulfilledEmail })
  }, Order)
