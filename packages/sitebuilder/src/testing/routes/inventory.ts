/**
 * A SKU's inventory (`/collections/{sku_collection_id}/items/{sku_id}/inventory`, the collection
 * being the site's "SKUs"): read it; set its quantity or adjust it by a delta (not both), or make
 * it infinite. Each change is emitted as `ecomm_inventory_changed`.
 */
import { invalid, type Route } from "../http.js"
import type { Inventory, Store } from "../store.js"

export const routes = (store: Store): ReadonlyArray<Route> => [
  {
    method: "GET",
    path: "/collections/:sku_collection_id/items/:sku_id/inventory",
    scope: "ecommerce:read",
    handle: ({ path }) => store.inventoryJson(store.skuOf(path["sku_collection_id"]!, path["sku_id"]!).id)
  },
  {
    method: "PATCH",
    path: "/collections/:sku_collection_id/items/:sku_id/inventory",
    scope: "ecommerce:write",
    handle: ({ body, path }) => {
      const sku = store.skuOf(path["sku_collection_id"]!, path["sku_id"]!)
      const { inventoryType, quantity, updateQuantity } = body
      if (inventoryType !== "finite" && inventoryType !== "infinite") throw invalid([{ param: "inventoryType", description: "must be one of infinite, finite" }])
      if (quantity !== undefined && updateQuantity !== undefined) {
        throw invalid([{ param: "updateQuantity", description: "quantity and updateQuantity cannot both be given" }])
      }
      for (const [param, value] of [["quantity", quantity], ["updateQuantity", updateQuantity]] as const) {
        if (value !== undefined && !Number.isInteger(value)) throw invalid([{ param, description: "must be an integer" }])
      }
      const current = store.inventories.get(sku.id) ?? { inventoryType: "infinite" as const, quantity: 0 }
      const before = JSON.stringify(store.inventoryJson(sku.id))
      const next: Inventory = inventoryType === "infinite"
        ? { inventoryType, quantity: 0 }
        : { inventoryType, quantity: quantity !== undefined ? quantity as number : current.quantity + ((updateQuantity as number | undefined) ?? 0) }
      if (next.quantity < 0) throw invalid([{ param: quantity !== undefined ? "quantity" : "updateQuantity", description: "the quantity cannot be negative" }])
      store.inventories.set(sku.id, next)
      const after = store.inventoryJson(sku.id)
      if (JSON.stringify(after) !== before) store.emit(store.products.get(sku.productId)!.siteId, "ecomm_inventory_changed", after)
      return after
    }
  }
]
