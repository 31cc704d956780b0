import { Action } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getInventory = Action.make({
  name: "getInventory",
  title: "Get Inventory",
  impact: "read",
  description: "Reads a SKU's inventory: finite with the quantity left, or infinite.",
  props: { siteId: Props.siteId(true), skuCollectionId: Props.skuCollectionId, skuId: Props.skuId },
  output: Products.Inventory,
  scopes: [Scopes.ecommerceRead, Scopes.sitesRead],
  run: (sku, { client }) => Products.getInventory(client, sku)
})
