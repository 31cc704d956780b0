/** The properties the actions share: Webflow ids, and the site. */
import { Property } from "@x/core"
import * as CustomCodeRules from "./customCodeRules.js"
import { webflowIdPattern } from "./ids.js"
import * as CollectionOptions from "./options/collections.js"
import * as FormOptions from "./options/forms.js"
import * as PageOptions from "./options/pages.js"
import * as RedirectOptions from "./options/redirects.js"
import * as ShopOptions from "./options/shop.js"
import * as SiteOptions from "./options/sites.js"

export const webflowId = Property.patterned(webflowIdPattern, "must be a Webflow id (24 hexadecimal digits)")

/** The site. */
export const siteId = <const R extends boolean>(required: R) => webflowId({ title: "Site", required, dynamicOptions: SiteOptions.sites })

/** A collection of the site. */
export const collectionId = webflowId({ title: "Collection", required: true, dynamicOptions: CollectionOptions.collections })

// --- forms ---
/** A form of the site. */
export const formId = webflowId({ title: "Form", required: true, dynamicOptions: FormOptions.forms })
// --- items ---

/** An item of the collection. */
export const itemId = webflowId({ title: "Item", required: true, dynamicOptions: CollectionOptions.items })

/** Several items of the collection (a multi-select): the array carries the options, each item the id format. */
export const itemIds = Property.extend(
  Property.array({
    title: "Items",
    required: true,
    items: webflowId({ title: "Item" }),
    minItems: 1,
    // Webflow's bulk item endpoints take 100 items at most.
    maxItems: 100
  }),
  { dynamicOptions: CollectionOptions.items }
)

/** New items, each its fields by slug (`name` and `slug` among them), up to Webflow's 100 a request. */
export const newItems = Property.array({
  title: "Items",
  description: "Each item's fields by slug: name, slug and the collection's other fields, as Webflow takes them.",
  required: true,
  items: Property.object({ title: "Fields" }),
  minItems: 1,
  maxItems: 100
})

/** Changes to items: each its id, and the fields (null clears one) and flags that change; up to 100 a request. */
export const itemChanges = Property.array({
  title: "Items",
  required: true,
  items: Property.object({
    title: "Item",
    properties: {
      id: webflowId({ title: "Item", required: true }),
      fieldData: Property.object({ title: "Fields", description: "The fields that change, by slug; null clears one." }),
      isDraft: Property.boolean({ title: "Draft" }),
      isArchived: Property.boolean({ title: "Archived" })
    }
  }),
  minItems: 1,
  maxItems: 100
})

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
  dynamicOptions: ShopOptions.orders
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

// --- redirects ---
/** A redirect of the site: Webflow's id of it (letters and digits, not always an objectid). */
export const redirectId = Property.string({
  title: "Redirect",
  required: true,
  pattern: /^[A-Za-z0-9_-]{1,64}$/,
  patternMessage: "must be a Webflow redirect id (letters and digits)",
  dynamicOptions: RedirectOptions.redirects
})
/** The path a redirect takes: a path of the site, without its domain (`/old-page`). */
export const redirectFrom = <const R extends boolean>(required: R) => Property.string({
  title: "From",
  description: "The path redirected, without the domain: /old-page.",
  required,
  maxLength: 2048,
  pattern: /^\/\S*$/,
  patternMessage: "must be a path of the site starting with /, without spaces (e.g. /old-page)"
})
/** Where a redirect sends: a path of the site or an http(s) URL. */
export const redirectTo = <const R extends boolean>(required: R) => Property.string({
  title: "To",
  description: "Where it sends: a path of the site (/new-page) or an http(s) URL.",
  required,
  maxLength: 2048,
  pattern: /^(?:\/|https?:\/\/)\S*$/,
  patternMessage: "must be a path starting with / or an http(s) URL, without spaces"
})

// --- custom code ---
/** A registered script's name: Webflow derives its id from it ("CMS Slider" is `cms_slider`). */
export const scriptName = Property.string({
  title: "Name",
  description: "1 to 50 letters and digits (spaces between words); the script's id is made from it: CMS Slider is cms_slider.",
  required: true,
  pattern: CustomCodeRules.scriptNamePattern,
  patternMessage: "must be 1 to 50 letters and digits (spaces between words)"
})
/** A script's Semantic Version. */
export const scriptVersion = Property.string({
  title: "Version",
  description: "A Semantic Version: 1.0.0, 2.1.0-beta.1.",
  required: true,
  pattern: CustomCodeRules.semverPattern,
  patternMessage: "must be a Semantic Version, e.g. 1.0.0"
})
/** Whether the script goes with the site when it is duplicated or transferred. */
export const canCopy = Property.boolean({ title: "Copied with the site", description: "Kept when the site is duplicated or transferred.", defaultValue: false })
/** Registered scripts applied to a site or page: the app's whole list there. */
export const appliedScripts = Property.array({
  title: "Scripts",
  description: "Registered scripts (id and version, as listRegisteredScripts gives them) and where each goes; these replace the ones applied before.",
  required: true,
  items: Property.object({
    title: "Script",
    properties: {
      id: Property.string({ title: "Script id", required: true, minLength: 1, maxLength: 100 }),
      version: scriptVersion,
      location: Property.string({ title: "Location", required: true, choices: [{ label: "In the header", value: "header" }, { label: "In the footer", value: "footer" }] }),
      attributes: Property.object({ title: "Attributes", description: "Attributes of the script element, by name: {\"defer\": \"true\"}." })
    }
  })
})
/** A script applied twice in one list: Webflow keeps one version of a script per site or page. */
export const twiceApplied = (scripts: ReadonlyArray<{ readonly id: string }>) =>
  scripts.flatMap((script, i) =>
    scripts.findIndex((other) => other.id === script.id) < i ? [{ path: `scripts[${i}].id`, message: `${script.id} is applied once already` }] : [])
