import { Action, ConnectorError, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "../api.js"
import * as Options from "../options.js"
import * as Scopes from "../scopes.js"

/** Fulfilment needs a paid e-commerce plan; Webflow says so with a 409, a 402 or a 403. */
const onFreePlan = (error: ConnectorError.ConnectorError): error is ConnectorError.ConnectorError =>
  (error._tag === "Conflict" && (error.body as { code?: unknown } | undefined)?.code === "ecommerce_not_enabled") ||
  error._tag === "PaymentRequired" ||
  (error._tag === "PermissionDenied" && error.missingScopes === undefined)

export const fulfillOrder = Action.make({
  name: "fulfillOrder",
  title: "Fulfill Order",
  description: "Marks an order fulfilled (needs a paid Webflow e-commerce plan).",
  props: {
    siteId: Options.siteId(true),
    orderId: Property.string({ title: "Order", required: true, minLength: 1, dynamicOptions: Options.orders }),
    sendOrderFulfilledEmail: Property.boolean({ title: "Send the Order Fulfilled email", defaultValue: false })
  },
  output: Api.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) =>
    Api.fulfillOrder(client, { ...order, sendOrderFulfilledEmail: order.sendOrderFulfilledEmail ?? false }).pipe(
      Effect.mapError((error) =>
        onFreePlan(error)
          ? new ConnectorError.PaymentRequired({
            ...error,
            message: `fulfilling orders needs a paid Webflow e-commerce plan on this site (Webflow: ${error.message})`
          })
          : error
      )
    )
})
