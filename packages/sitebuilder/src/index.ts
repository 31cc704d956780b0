/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import * as actions from "./actions/index.js"
import { connection as declared } from "./connection.js"
import * as triggers from "./triggers/index.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: Object.values(actions),
  // Webflow's webhook events, each a dynamic webhook on a site, every delivery's signature checked.
  triggers: Object.values(triggers),
  customAction: true
})

/**
 * The typed clients of sitebuilder: `Sitebuilder.client(connection)` (Promise) and `Sitebuilder.effect(connection)`
 * (Effect), one method per action.
 */
export const Sitebuilder = Client.make(sitebuilder)

// The records the actions and triggers output, as Schemas.
export { Asset, AssetVariant } from "./api/assets.js"
export { Collection, CollectionDetails, Field } from "./api/collections.js"
export { AppliedScript, CustomCode, CustomCodeBlock, RegisteredScript } from "./api/customCode.js"
export { Form, FormField, FormSubmission } from "./api/forms.js"
export { Item, Published, WrittenItem } from "./api/items.js"
export { Address, Money, Order, PurchasedItem } from "./api/orders.js"
export { OpenGraph, Page, Seo } from "./api/pages.js"
export { Inventory, Price, Product, ProductAndSkus, Sku, Skus } from "./api/products.js"
export { Redirect } from "./api/redirects.js"
export { CustomDomain, Publish, Site } from "./api/sites.js"
export { CommentEvent, FormSubmitted, InventoryChanged, ItemEvent, OrderEvent, PageEvent, SitePublished } from "./api/webhooks.js"

export * from "./actions/index.js"
/** The connection, with the OAuth2 scopes its actions and triggers need. */
export const connection = sitebuilder.connection
export * from "./triggers/index.js"
