/**
 * The simulator's records (sites, collections and their items, orders, …), the lookups every
 * route shares (a 400 for an id that is not an objectid, a 404 in Webflow's words for one that
 * is not there), their JSON as Webflow answers it, and `emit`: every event a change causes, as
 * the payload of Webflow's webhook of that trigger type, kept in `events` and handed to the
 * listeners (the webhook deliveries).
 *
 * A CMS item has two versions: the staged one (`fieldData`, what `/items` lists and writes) and
 * the live one (`live`, what `/items/live` lists: the staged version as it was when published,
 * absent while the item is unpublished). Publishing copies staged to live; writing `…/live`
 * changes both.
 */
import { randomBytes } from "node:crypto"
import * as AssetStore from "./assets.js"
import * as SiteCode from "./siteCode.js"
import type * as Cms from "./cms.js"
import { ApiError, notFound, objectIdOf } from "./http.js"

export interface Site { id: string; displayName: string; shortName: string; ecommerce: boolean; createdOn: string; lastPublished: string | null }
/**
 * An order: its status and the times of its steps, the customer, what was bought (`lines`: a
 * seeded order without them bought one T-shirt for its `total`), and the notes and shipping an
 * update sets.
 */
export interface Order {
  siteId: string
  orderId: string
  status: string
  acceptedOn: string
  fulfilledOn: string | null
  customer: string
  /** In cents. */
  total: number
  email?: string
  refundedOn?: string | null
  refundReason?: string | null
  comment?: string
  shippingProvider?: string | null
  shippingTracking?: string | null
  shippingTrackingURL?: string | null
  lines?: Array<OrderLine>
}
/** A purchased item of an order: a SKU of a product, how many, at what price (cents). */
export interface OrderLine { productId: string; productName: string; productSlug: string; skuId: string; skuName: string; skuSlug: string; skuCode: string; price: number; count: number }
export interface Collection { id: string; siteId: string; displayName: string; singularName: string; slug: string; fields: Array<Cms.CollectionField> }
export type CollectionField = Cms.CollectionField
/** The published version of an item. */
export interface LiveItem { fieldData: Record<string, unknown>; lastUpdated: string }
export interface Item {
  id: string
  collectionId: string
  /** The staged version's fields. */
  fieldData: Record<string, unknown>
  createdOn: string
  lastUpdated: string
  isDraft: boolean
  isArchived: boolean
  /** When it was last published; null: never. */
  lastPublished: string | null
  /** The live version; undefined while the item is not published. */
  live: LiveItem | undefined
}

// --- forms ---
/** A form field: its id keys it in the form; `elementId` is its element's UUID in the webhook's schema. */
/** `hidden`: a hidden field, not shown to visitors (`userVisible: false`): the one kind an API update of a submission may set. */
export interface FormField { id: string; elementId: string; displayName: string; type: "Plain" | "Email" | "Password" | "Phone" | "Number"; placeholder: string | null; hidden?: boolean }
export interface Form { id: string; siteId: string; displayName: string; pageId: string; pageName: string; formElementId: string; createdOn: string; fields: Array<FormField> }
export interface FormSubmission { id: string; formId: string; dateSubmitted: string; formResponse: Record<string, unknown> }
// --- sites, collections and pages ---
/** A custom domain of a site; `lastPublished`: when the site was last published to it. */
export interface CustomDomain { id: string; siteId: string; url: string; lastPublished: string | null }
/** A page (made in the Designer; its metadata written by `PUT /pages/{id}`). */
export interface Page {
  id: string
  siteId: string
  title: string
  /** "" for the home page. */
  slug: string
  createdOn: string
  lastUpdated: string
  draft: boolean
  archived: boolean
  seo: { title: string; description: string }
  /** `titleCopied`/`descriptionCopied`: the Open Graph one is the SEO one. */
  openGraph: { title: string; titleCopied: boolean; description: string; descriptionCopied: boolean }
}
// --- orders, products and inventory ---
/** A product: an item of the site's "Products" collection (its `fieldData`: name, slug, description, shippable, …). */
export interface Product {
  id: string
  siteId: string
  fieldData: Record<string, unknown>
  createdOn: string
  lastUpdated: string
  lastPublished: string | null
  isDraft: boolean
  isArchived: boolean
}
/** A SKU: a purchasable variant of a product, an item of the site's "SKUs" collection; its price in `fieldData.price`. */
export interface Sku { id: string; productId: string; fieldData: Record<string, unknown>; createdOn: string; lastUpdated: string; lastPublished: string | null }
/** A SKU's inventory: `quantity` counts down on orders when `finite`. */
export interface Inventory { inventoryType: "finite" | "infinite"; quantity: number }
// --- webhooks ---
/** A webhook registration (`/sites/{id}/webhooks`): the site's events of one type, sent to `url`. */
export interface Webhook {
  id: string
  siteId: string
  triggerType: string
  url: string
  /** form_submission only: the name of the form. */
  filter: { name: string } | null
  createdOn: string
  lastTriggered: string | null
}

/** An event: Webflow's `triggerType` and the webhook's `payload`, on a site. */
export interface Event {
  readonly siteId: string
  readonly triggerType: string
  readonly payload: Record<string, unknown>
}

export const objectId = () => randomBytes(12).toString("hex")
export const seedId = (n: number) => `5eed${n.toString(16).padStart(20, "0")}`
export const workspaceId = "5f0c8c9e1c9d440000e8d8c3"

export type Store = ReturnType<typeof make>

export const make = () => {
  const sites = new Map<string, Site>()
  const orders = new Map<string, Order>()
  const collections = new Map<string, Collection>()
  const items = new Map<string, Item>()
  const events: Array<Event> = []
  const listeners: Array<(event: Event) => void> = []
  const webhooks = new Map<string, Webhook>()
  const cmsLocaleId = objectId()

  const site = (id: string) => {
    const found = sites.get(objectIdOf(id, "site_id"))
    if (found === undefined) throw notFound("resource_not_found", "Site")
    return found
  }
  const collection = (id: string) => {
    const found = collections.get(objectIdOf(id, "collection_id"))
    if (found === undefined) throw notFound("collection_not_found", "Collection")
    return found
  }
  const item = (c: Collection, id: string) => {
    const found = items.get(objectIdOf(id, "item_id"))
    if (found === undefined || found.collectionId !== c.id) throw notFound("item_not_found", "Item")
    return found
  }
  const ecommerce = (s: Site) => {
    if (!s.ecommerce) throw new ApiError(409, "ecommerce_not_enabled", "Ecommerce is not enabled for this site. Upgrade to an Ecommerce plan.")
  }

  // --- sites, collections and pages ---
  const customDomains = new Map<string, CustomDomain>()
  const pages = new Map<string, Page>()
  /** When each site was last published through the API (its publishes are limited to one a minute). */
  const publishedAt = new Map<string, number>()
  /** The wait between two publishes of a site (Webflow: one a minute); the simulator's `publishIntervalMs` sets it. */
  const publishing = { intervalMs: 60_000 }
  const primaryLocaleId = seedId(0xf00)
  const customDomainJson = (d: CustomDomain) => ({ id: d.id, url: d.url, lastPublished: d.lastPublished })
  const page = (id: string) => {
    const found = pages.get(objectIdOf(id, "page_id"))
    if (found === undefined) throw notFound("resource_not_found", "Page")
    return found
  }
  const publishedPath = (p: Page) => `/${p.slug}`
  const pageJson = (p: Page) => ({
    id: p.id, siteId: p.siteId, parentId: null, collectionId: null, title: p.title, slug: p.slug,
    createdOn: p.createdOn, lastUpdated: p.lastUpdated, archived: p.archived, draft: p.draft,
    canBranch: true, isBranch: false, branchId: null,
    seo: { ...p.seo },
    openGraph: {
      title: p.openGraph.titleCopied ? p.seo.title : p.openGraph.title, titleCopied: p.openGraph.titleCopied,
      description: p.openGraph.descriptionCopied ? p.seo.description : p.openGraph.description, descriptionCopied: p.openGraph.descriptionCopied
    },
    localeId: primaryLocaleId, publishedPath: publishedPath(p)
  })
  /** A page as the page_* webhooks carry it; `at` is `createdOn`, `lastUpdated` or `deletedOn`. */
  const pagePayload = (p: Page, at: Record<string, string>) => ({ siteId: p.siteId, pageId: p.id, pageTitle: p.title, ...at, publishedPath: publishedPath(p) })

  const siteJson = (s: Site) => ({
    id: s.id,
    workspaceId,
    createdOn: s.createdOn,
    displayName: s.displayName,
    shortName: s.shortName,
    lastPublished: s.lastPublished,
    lastUpdated: s.createdOn,
    previewUrl: `https://screenshots.webflow.com/sites/${s.id}/preview.png`,
    timeZone: "America/New_York",
    parentFolderId: null,
    customDomains: [...customDomains.values()].filter((d) => d.siteId === s.id).map(customDomainJson),
    locales: {
      primary: { id: seedId(0xf00), cmsLocaleId, enabled: true, displayName: "English", displayImageId: null, redirect: false, subdirectory: "", tag: "en" },
      secondary: []
    },
    dataCollectionEnabled: false,
    dataCollectionType: "disabled"
  })
  const collectionJson = (c: Collection) => ({
    id: c.id, displayName: c.displayName, singularName: c.singularName, slug: c.slug,
    createdOn: sites.get(c.siteId)?.createdOn ?? null, lastUpdated: sites.get(c.siteId)?.createdOn ?? null
  })
  const collectionDetails = (c: Collection) => ({ ...collectionJson(c), fields: c.fields })
  /** The staged item, as `/items` answers it. */
  const itemJson = (i: Item) => ({
    id: i.id, cmsLocaleId, lastPublished: i.lastPublished, lastUpdated: i.lastUpdated, createdOn: i.createdOn,
    isArchived: i.isArchived, isDraft: i.isDraft, fieldData: i.fieldData
  })
  /** The live item, as `/items/live` answers it (only for a published item). */
  const liveJson = (i: Item & { live: LiveItem }) => ({
    ...itemJson(i), lastUpdated: i.live.lastUpdated, isDraft: false, fieldData: i.live.fieldData
  })
  /** An item as a webhook's payload carries it: with its site, workspace and collection. */
  const itemPayload = (i: Item) => ({
    ...itemJson(i), siteId: collections.get(i.collectionId)?.siteId, workspaceId, collectionId: i.collectionId
  })

  const emit = (siteId: string, triggerType: string, payload: Record<string, unknown>) => {
    const event = { siteId, triggerType, payload }
    events.push(event)
    for (const listener of listeners) listener(event)
  }

  // --- forms ---
  const forms = new Map<string, Form>()
  const formSubmissions = new Map<string, FormSubmission>()
  const form = (id: string) => {
    const found = forms.get(objectIdOf(id, "form_id"))
    if (found === undefined) throw notFound("resource_not_found", "Form")
    return found
  }
  const formSubmission = (id: string) => {
    const found = formSubmissions.get(objectIdOf(id, "form_submission_id"))
    if (found === undefined) throw notFound("resource_not_found", "Form submission")
    return found
  }
  const formJson = (f: Form) => ({
    id: f.id, displayName: f.displayName, createdOn: f.createdOn, lastUpdated: f.createdOn,
    fields: Object.fromEntries(f.fields.map((field) => [field.id, { displayName: field.displayName, type: field.type, placeholder: field.placeholder, userVisible: field.hidden !== true }])),
    responseSettings: { redirectUrl: "/thank-you", redirectMethod: "GET", redirectAction: null, sendEmailConfirmation: false },
    siteId: f.siteId, siteDomainId: seedId(0xd0), pageId: f.pageId, pageName: f.pageName, formElementId: f.formElementId, workspaceId
  })
  const formSubmissionJson = (sub: FormSubmission) => {
    const f = forms.get(sub.formId)!
    return {
      id: sub.id, formId: sub.formId, displayName: f.displayName, siteId: f.siteId, workspaceId,
      formResponse: sub.formResponse, dateSubmitted: sub.dateSubmitted
    }
  }
  // --- orders, products and inventory ---
  const products = new Map<string, Product>()
  const skus = new Map<string, Sku>()
  /** By SKU id. */
  const inventories = new Map<string, Inventory>()
  /** Each e-commerce site's "SKUs" collection, by site id. */
  const skuCollections = new Map<string, string>()
  /** A site with e-commerce on. */
  const shop = (siteId: string) => {
    const found = site(siteId)
    ecommerce(found)
    return found
  }
  const product = (s: Site, id: string) => {
    const found = products.get(objectIdOf(id, "product_id"))
    if (found === undefined || found.siteId !== s.id) throw notFound("resource_not_found", "Product")
    return found
  }
  /** A SKU of the SKU collection `collectionId` (the site's "SKUs"). */
  const skuOf = (collectionId: string, id: string) => {
    const c = collection(collectionId)
    if (skuCollections.get(c.siteId) !== c.id) throw notFound("resource_not_found", "SKU collection")
    ecommerce(site(c.siteId))
    const found = skus.get(objectIdOf(id, "sku_id"))
    if (found === undefined || products.get(found.productId)?.siteId !== c.siteId) throw notFound("resource_not_found", "SKU")
    return found
  }
  const productJson = (p: Product) => ({
    id: p.id, cmsLocaleId, lastPublished: p.lastPublished, lastUpdated: p.lastUpdated, createdOn: p.createdOn,
    isArchived: p.isArchived, isDraft: p.isDraft, fieldData: p.fieldData
  })
  const skuJson = (k: Sku) => ({ id: k.id, cmsLocaleId, lastPublished: k.lastPublished, lastUpdated: k.lastUpdated, createdOn: k.createdOn, fieldData: k.fieldData })
  const productAndSkus = (p: Product) => ({ product: productJson(p), skus: [...skus.values()].filter((k) => k.productId === p.id).map(skuJson) })
  /** A SKU's inventory, as the API answers it and `ecomm_inventory_changed` carries it (no quantity when infinite). */
  const inventoryJson = (skuId: string) => {
    const inventory = inventories.get(skuId) ?? { inventoryType: "infinite", quantity: 0 }
    return inventory.inventoryType === "finite" ? { id: skuId, quantity: inventory.quantity, inventoryType: "finite" } : { id: skuId, inventoryType: "infinite" }
  }
  // --- assets ---
  const assetStore = AssetStore.make()
  // --- redirects and custom code ---
  const siteCode = SiteCode.make()

  return {
    assetStore,
    siteCode,
    sites, orders, collections, items, events, listeners, cmsLocaleId,
    site, collection, item, ecommerce,
    siteJson, collectionJson, collectionDetails, itemJson, liveJson, itemPayload,
    emit,
    // forms
    forms, formSubmissions, form, formSubmission,
    formJson, formSubmissionJson,
    // webhooks
    webhooks,
    // sites, collections and pages
    customDomains, pages, publishedAt, publishing, page, customDomainJson, pageJson, pagePayload,
    // orders, products and inventory
    products, skus, inventories, skuCollections, shop, product, skuOf, productJson, skuJson, productAndSkus, inventoryJson
  }
}
