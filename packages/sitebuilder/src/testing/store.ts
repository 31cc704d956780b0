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
import type * as Cms from "./cms.js"
import { ApiError, notFound, objectIdOf } from "./http.js"

export interface Site { id: string; displayName: string; shortName: string; ecommerce: boolean; createdOn: string; lastPublished: string | null }
export interface Order { siteId: string; orderId: string; status: string; acceptedOn: string; fulfilledOn: string | null; customer: string; total: number }
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
    customDomains: [],
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

  return {
    sites, orders, collections, items, events, listeners, cmsLocaleId,
    site, collection, item, ecommerce,
    siteJson, collectionJson, collectionDetails, itemJson, liveJson, itemPayload,
    emit,
    webhooks
  }
}
