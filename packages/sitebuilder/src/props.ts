/** The properties the actions share: Webflow ids, and the site. */
import { Property } from "@x/core"
import { webflowIdPattern } from "./ids.js"
import * as Options from "./options.js"
import * as FormOptions from "./options/forms.js"
import * as PageOptions from "./options/pages.js"
import * as ShopOptions from "./options/shop.js"

export const webflowId = Property.patterned(webflowIdPattern, "must be a Webflow id (24 hexadecimal digits)")

/** The site. */
export const siteId = <const R extends boolean>(required: R) => webflowId({ title: "Site", required, dynamicOptions: Options.sites })

/** A collection of the site. */
export const collectionId = webflowId({ title: "Collection", required: true, dynamicOptions: Options.collections })

// --- forms ---
/** A form of the site. */
export const formId = webflowId({ title: "Form", required: true, dynamicOptions: FormOptions.forms })
// --- items ---

/** An item of the collection. */
export const itemId = webflowId({ title: "Item", required: true, dynamicOptions: Options.items })

/** Several items of the collection (a multi-select): the array carries the options, each item the id format. */
export const itemIds = ({ dynamicOptions: Options.items, ...Property.array({
  title: "Items",
  required: true,
  items: webflowId({ title: "Item" }),
  minItems: 1,
  // Webflow's bulk item endpoints take 100 items at most.
  maxItems: 100
}) })

// --- sites, collections and pages ---
/** A page of the site. */
export const pageId = webflowId({ title: "Page", required: true, dynamicOptions: PageOptions.pages })

// --- orders, products and inventory ---
/** An order of the site. Webflow's order ids are like "dfa-3f1": letters, digits and dashes. */
export const orderId = Property.string({
  title: "Order",
  required: true,
  pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
  patternMessage: "must be a Webflow order id (letters, digits and dashes, e.g. dfa-3f1)",
  dynamicOptions: Options.orders
})
/** A product of the site. */
export const productId = webflowId({ title: "Product", required: true, dynamicOptions: ShopOptions.products })
/** A SKU (a product's variant) of the site. */
export const skuId = webflowId({ title: "SKU", required: true, dynamicOptions: ShopOptions.skus })
/** The site's SKU collection ("SKUs" in its collections). */
export const skuCollectionId = webflowId({
  title: "SKU collection",
  description: "The site's \"SKUs\" collection (e-commerce sites have one; `GET /sites/{id}/collections` lists it).",
  required: true,
  dynamicOptions: ShopOptions.skuCollections
})
