import { Action } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getProduct = Action.make({
  name: "getProduct",
  title: "Get Product",
  impact: "read",
  description: "Reads a product with its SKUs (prices).",
  props: { siteId: Props.siteId(true), productId: Props.productId },
  output: Products.ProductAndSkus,
  scopes: [Scopes.ecommerceRead, Scopes.sitesRead],
  run: (product, { client }) => Products.getProduct(client, product)
})
