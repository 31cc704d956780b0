import { Action, Property } from "@x/core"
import * as Products from "../api/products.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateInventory = Action.make({
  name: "updateInventory",
  title: "Update Inventory",
  impact: "write", idempotent: false,
  description: "Sets a SKU's quantity, or adjusts it by a number (negative: takes away); or makes it infinite.",
  props: {
    siteId: Props.siteId(true),
    skuCollectionId: Props.skuCollectionId,
    skuId: Props.skuId,
    inventoryType: Property.string({
      title: "Inventory type",
      required: true,
      choices: [{ label: "finite (counted)", value: "finite" as const }, { label: "infinite (never runs out)", value: "infinite" as const }]
    }),
    quantity: Property.integer({ title: "Set the quantity to", minimum: 0 }),
    updateQuantity: Property.integer({ title: "Adjust the quantity by", description: "Added to the quantity; negative takes away." })
  },
  output: Products.Inventory,
  scopes: [Scopes.ecommerceWrite, Scopes.ecommerceRead, Scopes.sitesRead],
  validate: ({ inventoryType, quantity, updateQuantity }) => [
    ...(quantity !== undefined && updateQuantity !== undefined
      ? [{ path: "updateQuantity", message: "give either quantity (set) or updateQuantity (adjust), not both" }]
      : []),
    ...(inventoryType === "infinite" && (quantity !== undefined || updateQuantity !== undefined)
      ? [{ path: "inventoryType", message: "an infinite inventory has no quantity" }]
      : [])
  ],
  run: ({ inventoryType, quantity, skuCollectionId, skuId, updateQuantity }, { client }) =>
    Products.updateInventory(client, { skuCollectionId, skuId, inventoryType: inventoryType as "finite" | "infinite", quantity, updateQuantity })
})
