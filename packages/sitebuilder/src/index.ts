/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import { createCollectionItem } from "./actions/createCollectionItem.js"
import { deleteCollectionItem } from "./actions/deleteCollectionItem.js"
import { findCollectionItem } from "./actions/findCollectionItem.js"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { listCollectionItems } from "./actions/listCollectionItems.js"
import { publishCollectionItems } from "./actions/publishCollectionItems.js"
import { updateCollectionItem } from "./actions/updateCollectionItem.js"
import { connection as declared } from "./connection.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: [
    fulfillOrder,
    // items
    getCollectionItem, listCollectionItems, findCollectionItem, createCollectionItem, updateCollectionItem, deleteCollectionItem, publishCollectionItems
  ],
  customAction: true
})

/**
 * The typed clients of sitebuilder: `Sitebuilder.client(connection)` (Promise) and `Sitebuilder.effect(connection)`
 * (Effect), one method per action.
 */
export const Sitebuilder = Client.make(sitebuilder)

export { Field } from "./api/collections.js"
export { Item, Published, WrittenItem } from "./api/items.js"
export { Order } from "./api/orders.js"
/** The connection, with the OAuth2 scopes its actions need. */
export const connection = sitebuilder.connection
export { createCollectionItem, fulfillOrder, getCollectionItem, listCollectionItems, updateCollectionItem }
export { deleteCollectionItem, findCollectionItem, publishCollectionItems }
