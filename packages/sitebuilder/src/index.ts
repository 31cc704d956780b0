/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import { createCollectionItem } from "./actions/createCollectionItem.js"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { listCollectionItems } from "./actions/listCollectionItems.js"
import { updateCollectionItem } from "./actions/updateCollectionItem.js"
import { deleteAsset } from "./actions/deleteAsset.js"
import { getAsset } from "./actions/getAsset.js"
import { listAssets } from "./actions/listAssets.js"
import { uploadAsset } from "./actions/uploadAsset.js"
import { connection as declared } from "./connection.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: [fulfillOrder, getCollectionItem, listCollectionItems, createCollectionItem, updateCollectionItem,
    // assets
    listAssets, uploadAsset, getAsset, deleteAsset
  ],
  customAction: true
})

/**
 * The typed clients of sitebuilder: `Sitebuilder.client(connection)` (Promise) and `Sitebuilder.effect(connection)`
 * (Effect), one method per action.
 */
export const Sitebuilder = Client.make(sitebuilder)

export { Field } from "./api/collections.js"
export { Item, WrittenItem } from "./api/items.js"
export { Order } from "./api/orders.js"
export { Asset, AssetVariant } from "./api/assets.js"
/** The connection, with the OAuth2 scopes its actions need. */
export const connection = sitebuilder.connection
export { createCollectionItem, fulfillOrder, getCollectionItem, listCollectionItems, updateCollectionItem }
export { deleteAsset, getAsset, listAssets, uploadAsset }
