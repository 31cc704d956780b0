import * as Item from "./collectionItem.js"
import * as Webhook from "./webhook.js"

export const collectionItemDeleted = Webhook.make({
  name: "collectionItemDeleted",
  title: "Collection Item Deleted",
  description: "Fires when an item of a collection of the site is deleted, optionally only in one collection.",
  ...Item.common,
  triggerType: "collection_item_deleted",
  // An item is deleted once: its id is the event's.
  id: (item) => item.id
  // No sample: a deleted item can no longer be read.
})
