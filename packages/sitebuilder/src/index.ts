/**
 * @x/sitebuilder: the site-builder component, `sitebuilder/v1` (Webflow Data API v2).
 */
import { Client, Component } from "@x/core"
import { createCollectionItem } from "./actions/createCollectionItem.js"
import { deleteCollectionItem } from "./actions/deleteCollectionItem.js"
import { findCollectionItem } from "./actions/findCollectionItem.js"
import { getCollectionItem } from "./actions/getCollectionItem.js"
import { listCollectionItems } from "./actions/listCollectionItems.js"
import { publishCollectionItems } from "./actions/publishCollectionItems.js"
import { updateCollectionItem } from "./actions/updateCollectionItem.js"
// many items in one request, and unpublishing
import { createCollectionItems } from "./actions/createCollectionItems.js"
import { deleteCollectionItems } from "./actions/deleteCollectionItems.js"
import { unpublishCollectionItem } from "./actions/unpublishCollectionItem.js"
import { updateCollectionItems } from "./actions/updateCollectionItems.js"
import { connection as declared } from "./connection.js"
// sites, collections and pages
import { getCollection } from "./actions/getCollection.js"
import { getPageMetadata } from "./actions/getPageMetadata.js"
import { getSite } from "./actions/getSite.js"
import { listCollections } from "./actions/listCollections.js"
import { listCustomDomains } from "./actions/listCustomDomains.js"
import { listPages } from "./actions/listPages.js"
import { listSites } from "./actions/listSites.js"
import { publishSite } from "./actions/publishSite.js"
import { updatePageMetadata } from "./actions/updatePageMetadata.js"
// orders, products and inventory
import { createProduct } from "./actions/createProduct.js"
import { fulfillOrder } from "./actions/fulfillOrder.js"
import { getInventory } from "./actions/getInventory.js"
import { getOrder } from "./actions/getOrder.js"
import { getProduct } from "./actions/getProduct.js"
import { listOrders } from "./actions/listOrders.js"
import { listProducts } from "./actions/listProducts.js"
import { refundOrder } from "./actions/refundOrder.js"
import { unfulfillOrder } from "./actions/unfulfillOrder.js"
import { updateInventory } from "./actions/updateInventory.js"
import { updateOrder } from "./actions/updateOrder.js"
import { updateProduct } from "./actions/updateProduct.js"
// assets
import { deleteAsset } from "./actions/deleteAsset.js"
import { getAsset } from "./actions/getAsset.js"
import { listAssets } from "./actions/listAssets.js"
import { uploadAsset } from "./actions/uploadAsset.js"
// redirects, custom code, site submissions and SKUs
import { createRedirect } from "./actions/createRedirect.js"
import { createSkus } from "./actions/createSkus.js"
import { deleteFormSubmission } from "./actions/deleteFormSubmission.js"
import { deletePageCustomCode } from "./actions/deletePageCustomCode.js"
import { deleteRedirect } from "./actions/deleteRedirect.js"
import { deleteSiteCustomCode } from "./actions/deleteSiteCustomCode.js"
import { getPageCustomCode } from "./actions/getPageCustomCode.js"
import { getSiteCustomCode } from "./actions/getSiteCustomCode.js"
import { listCustomCodeBlocks } from "./actions/listCustomCodeBlocks.js"
import { listRedirects } from "./actions/listRedirects.js"
import { listRegisteredScripts } from "./actions/listRegisteredScripts.js"
import { listSiteFormSubmissions } from "./actions/listSiteFormSubmissions.js"
import { registerHostedScript } from "./actions/registerHostedScript.js"
import { registerInlineScript } from "./actions/registerInlineScript.js"
import { updateFormSubmission } from "./actions/updateFormSubmission.js"
import { updateRedirect } from "./actions/updateRedirect.js"
import { updateSku } from "./actions/updateSku.js"
import { upsertPageCustomCode } from "./actions/upsertPageCustomCode.js"
import { upsertSiteCustomCode } from "./actions/upsertSiteCustomCode.js"
// forms
import { getFormSubmission } from "./actions/getFormSubmission.js"
import { listFormSubmissions } from "./actions/listFormSubmissions.js"
import { listForms } from "./actions/listForms.js"
import { collectionItemChanged } from "./triggers/collectionItemChanged.js"
import { collectionItemCreated } from "./triggers/collectionItemCreated.js"
import { collectionItemDeleted } from "./triggers/collectionItemDeleted.js"
import { collectionItemPublished } from "./triggers/collectionItemPublished.js"
import { collectionItemUnpublished } from "./triggers/collectionItemUnpublished.js"
import { commentCreated } from "./triggers/commentCreated.js"
import { formSubmitted } from "./triggers/formSubmitted.js"
import { inventoryChanged } from "./triggers/inventoryChanged.js"
import { newOrder } from "./triggers/newOrder.js"
import { orderChanged } from "./triggers/orderChanged.js"
import { pageCreated } from "./triggers/pageCreated.js"
import { pageDeleted } from "./triggers/pageDeleted.js"
import { pageMetadataUpdated } from "./triggers/pageMetadataUpdated.js"
import { sitePublished } from "./triggers/sitePublished.js"

export const sitebuilder = Component.make({
  name: "sitebuilder",
  version: 1,
  title: "Site Builder",
  description: "Visual web design and development platform for building responsive websites without code.",
  category: "Developer Tools",
  connection: declared,
  actions: [
    // sites, collections and pages
    listSites, getSite, publishSite, listCustomDomains, listCollections, getCollection, listPages, getPageMetadata, updatePageMetadata,
    // items
    getCollectionItem, listCollectionItems, findCollectionItem, createCollectionItem, updateCollectionItem, deleteCollectionItem, publishCollectionItems,
    createCollectionItems, updateCollectionItems, deleteCollectionItems, unpublishCollectionItem,
    // orders, products and inventory
    listOrders, getOrder, updateOrder, fulfillOrder, unfulfillOrder, refundOrder,
    listProducts, getProduct, createProduct, updateProduct, getInventory, updateInventory,
    // forms
    listForms, listFormSubmissions, getFormSubmission,
    // assets
    listAssets, uploadAsset, getAsset, deleteAsset,
    // redirects
    listRedirects, createRedirect, updateRedirect, deleteRedirect,
    // custom code
    listRegisteredScripts, registerHostedScript, registerInlineScript, getSiteCustomCode, upsertSiteCustomCode, deleteSiteCustomCode,
    getPageCustomCode, upsertPageCustomCode, deletePageCustomCode, listCustomCodeBlocks,
    // form submissions by site, updated and deleted; SKUs on their own
    listSiteFormSubmissions, updateFormSubmission, deleteFormSubmission, createSkus, updateSku
  ],
  // Webflow's webhook events, each a dynamic webhook on a site, every delivery's signature checked.
  triggers: [
    formSubmitted,
    sitePublished,
    newOrder,
    orderChanged,
    inventoryChanged,
    collectionItemCreated,
    collectionItemChanged,
    collectionItemDeleted,
    collectionItemPublished,
    collectionItemUnpublished,
    pageCreated,
    pageMetadataUpdated,
    pageDeleted,
    commentCreated
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
// orders, products and inventory
export { Address, Money, Order, PurchasedItem } from "./api/orders.js"
export { Inventory, Price, Product, ProductAndSkus, Sku } from "./api/products.js"
export { createProduct, getInventory, getOrder, getProduct, listOrders, listProducts, refundOrder, unfulfillOrder, updateInventory, updateOrder, updateProduct }
// forms
export { Form, FormField, FormSubmission } from "./api/forms.js"
// sites, collections and pages
export { Collection, CollectionDetails } from "./api/collections.js"
export { OpenGraph, Page, Seo } from "./api/pages.js"
export { CustomDomain, Publish, Site } from "./api/sites.js"
export { getCollection, getPageMetadata, getSite, listCollections, listCustomDomains, listPages, listSites, publishSite, updatePageMetadata }
/** The connection, with the OAuth2 scopes its actions and triggers need. */
export const connection = sitebuilder.connection
export { createCollectionItem, fulfillOrder, getCollectionItem, listCollectionItems, updateCollectionItem }
export { deleteCollectionItem, findCollectionItem, publishCollectionItems }
export { createCollectionItems, deleteCollectionItems, unpublishCollectionItem, updateCollectionItems }
// forms
export { getFormSubmission, listForms, listFormSubmissions }
// assets
export { Asset, AssetVariant } from "./api/assets.js"
export { deleteAsset, getAsset, listAssets, uploadAsset }
// redirects, custom code, site submissions and SKUs
export { Redirect } from "./api/redirects.js"
export { AppliedScript, CustomCode, CustomCodeBlock, RegisteredScript } from "./api/customCode.js"
export { Skus } from "./api/products.js"
export { createRedirect, deleteRedirect, listRedirects, updateRedirect }
export { deletePageCustomCode, deleteSiteCustomCode, getPageCustomCode, getSiteCustomCode, listCustomCodeBlocks, listRegisteredScripts }
export { registerHostedScript, registerInlineScript, upsertPageCustomCode, upsertSiteCustomCode }
export { createSkus, deleteFormSubmission, listSiteFormSubmissions, updateFormSubmission, updateSku }
// triggers
export { CommentEvent, FormSubmitted, InventoryChanged, ItemEvent, OrderEvent, PageEvent, SitePublished } from "./api/webhooks.js"
export {
  collectionItemChanged,
  collectionItemCreated,
  collectionItemDeleted,
  collectionItemPublished,
  collectionItemUnpublished,
  commentCreated,
  formSubmitted,
  inventoryChanged,
  newOrder,
  orderChanged,
  pageCreated,
  pageDeleted,
  pageMetadataUpdated,
  sitePublished
}
