import * as Webhooks from "../api/webhooks.js"
import * as Item from "./collectionItem.js"
import * as Webhook from "./webhook.js"

export const collectionItemChanged = Webhook.make({
  name: "collectionItemChanged",
  title: "Collection Item Changed",
  description: "Fires when an item of a collection of the site is updated (staged or live), optionally only in one collection.",
  ...Item.common,
  triggerType: "collection_item_changed",
  // Each change has a new lastUpdated: the item's id with it is one change.
  id: Item.versionOf,
  recent: (client, params) => Webhooks.recentItems(client, params, (item) => item.lastUpdated),
  history: {
    records: (client, params) => Webhooks.itemsOf(client, params, Webhooks.catchUpScan),
    // An item never updated since its creation (the same time) has no change to catch up.
    happenedAt: (item) => (item.lastUpdated === item.createdOn ? undefined : item.lastUpdated)
  }
})
