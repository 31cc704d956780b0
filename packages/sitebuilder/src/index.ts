/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Component } from "@x/core"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { connection } from "./connection.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection,
  actions: [fulfillOrder, getCollectionItem],
  customAction: true
})

export { Item, Order } from "./api.js"
export { connection, fulfillOrder, getCollectionItem }
