import * as Webhooks from "../api/webhooks.js"
import * as Item from "./collectionItem.js"
import * as Webhook from "./webhook.js"

export const collectionItemCreated = Webhook.make({
  name: "collectionItemCreated",
  title: "Collection Item Created",
  description: "Fires when an item is created in a collection of the site (staged or live), optionally only in one collection.",
  ...Item.common,
  triggerType: "collection_item_created",
  // An item is created once; its id with its lastUpdated is one version of it.
  id: Item.versionOf,
  recent: (client, params) => Webhooks.recentItems(client, params, (item) => item.createdOn),
  history: { records: (client, params) => Webhooks.itemsOf(client, params, Webhooks.catchUpScan), happenedAt: (item) => item.createdOn }
})
