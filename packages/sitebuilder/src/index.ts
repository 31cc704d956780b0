/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { listCollectionItems } from "./actions/listCollectionItems.js"
import { connection as declared } from "./connection.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: [fulfillOrder, getCollectionItem, listCollectionItems],
  customAction: true
})

/**
 * The typed clients of sitebuilder: `Sitebuilder.client(connection)` (Promise) and `Sitebuilder.effect(connection)`
 * (Effect), one method per action.
 */
export const Sitebuilder = Client.make(sitebuilder)

export { Item, Order } from "./api.js"
/** The connection, with the OAuth2 scopes its actions need. */
export const connection = sitebuilder.connection
export { fulfillOrder, getCollectionItem, listCollectionItems }
