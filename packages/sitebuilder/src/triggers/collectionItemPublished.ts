import * as Webhooks from "../api/webhooks.js"
import * as Item from "./collectionItem.js"
import * as Webhook from "./webhook.js"

export const collectionItemPublished = Webhook.make({
  name: "collectionItemPublished",
  title: "Collection Item Published",
  description: "Fires when an item of a collection of the site is published to the live site, optionally only in one collection.",
  ...Item.common,
  triggerType: "collection_item_published",
  // An item is published again and again: each publish has its own lastPublished (the document's
  // example leaves it null, so its lastUpdated counts too); a redelivery has the same of both.
  id: (item) => `${Item.versionOf(item)}@${item.lastPublished ?? ""}`,
  recent: (client, params) => Webhooks.recentItems(client, params, (item) => item.lastPublished)
})
