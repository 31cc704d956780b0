import { Action, Property } from "@x/core"
import * as Orders from "../api/orders.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateOrder = Action.make({
  name: "updateOrder",
  title: "Update Order",
  impact: "write", idempotent: true,
  description: "Changes an order's comment and shipping details (those not given are kept).",
  props: {
    siteId: Props.siteId(true),
    orderId: Props.orderId,
    comment: Property.string({ title: "Comment", description: "An internal note on the order (the customer does not see it)." }),
    shippingProvider: Property.string({ title: "Shipping provider", description: "e.g. UPS, FedEx." }),
    shippingTracking: Property.string({ title: "Tracking number" }),
    shippingTrackingURL: Property.string({ title: "Tracking URL", pattern: /^https?:\/\/\S+$/, patternMessage: "must be an http(s) URL" })
  },
  output: Orders.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  validate: ({ comment, shippingProvider, shippingTracking, shippingTrackingURL }) =>
    [comment, shippingProvider, shippingTracking, shippingTrackingURL].every((value) => value === undefined)
      ? [{ path: "comment", message: "give at least one of comment, shippingProvider, shippingTracking, shippingTrackingURL" }]
      : [],
  run: ({ orderId, siteId, ...update }, { client }) => Orders.updateOrder(client, { siteId, orderId }, update)
})
