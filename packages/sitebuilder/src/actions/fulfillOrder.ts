import { Action, ConnectorError, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Orders from "../api/orders.js"
import * as Options from "../options.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

const codeOf = (error: ConnectorError.ConnectorError) => (error.body as { code?: unknown } | undefined)?.code

/**
 * Fulfilment needs a paid e-commerce plan; Webflow says so with a 409 `ecommerce_not_enabled`,
 * a 402, or a 403 that names the plan. Any other 403 is about access, and stays one.
 */
const onFreePlan = (error: ConnectorError.ConnectorError): boolean =>
  codeOf(error) === "ecommerce_not_enabled" ||
  error._tag === "PaymentRequired" ||
  (error._tag === "PermissionDenied" && error.missingScopes === undefined &&
    /\b(plan|upgrade|e-?commerce|billing|payment)\b/i.test(error.message))

export const fulfillOrder = Action.make({
  name: "fulfillOrder",
  title: "Fulfill Order",
  description: "Marks an order fulfilled (needs a paid Webflow e-commerce plan).",
  props: {
    siteId: Props.siteId(true),
    orderId: Property.string({
      title: "Order",
      required: true,
      // Webflow's order ids are like "dfa-3f1": letters, digits and dashes.
      pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
      patternMessage: "must be a Webflow order id (letters, digits and dashes, e.g. dfa-3f1)",
      dynamicOptions: Options.orders
    }),
    sendOrderFulfilledEmail: Property.boolean({ title: "Send the Order Fulfilled email", defaultValue: false })
  },
  output: Orders.Order,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  run: (order, { client }) =>
    Orders.fulfillOrder(client, { ...order, sendOrderFulfilledEmail: order.sendOrderFulfilledEmail ?? false }).pipe(
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
