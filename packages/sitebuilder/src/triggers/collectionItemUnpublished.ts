import * as Item from "./collectionItem.js"
import * as Webhook from "./webhook.js"

export const collectionItemUnpublished = Webhook.make({
  name: "collectionItemUnpublished",
  title: "Collection Item Unpublished",
  description: "Fires when an item of a collection of the site is removed from the live site (the staged item stays), optionally only in one collection.",
  ...Item.common,
  triggerType: "collection_item_unpublished",
  // An item can be unpublished again after a new publish, which changes its lastUpdated.
  id: Item.versionOf
  // No sample: Webflow's lists do not say which items were unpublished (a never published item looks the same).
})
