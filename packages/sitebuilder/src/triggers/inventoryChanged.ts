import * as Webhooks from "../api/webhooks.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const inventoryChanged = Webhook.make({
  name: "inventoryChanged",
  title: "Inventory Changed",
  description: "Fires when the inventory of a SKU of the site's store changes.",
  props: {},
  triggerType: "ecomm_inventory_changed",
  readScope: Scopes.ecommerceRead,
  payload: Webhooks.InventoryChanged,
  // The payload has no time: the SKU with its new quantity is the change (a redelivery has the
  // same; a later change back to a quantity seen before would be taken for it).
  id: (inventory) => `${inventory.id}:${inventory.inventoryType}:${inventory.quantity ?? ""}`
  // No sample: Webflow keeps no history of inventory changes to read.
})
