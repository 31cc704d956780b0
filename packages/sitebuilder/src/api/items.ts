/**
 * CMS items, staged (`/items`) or live (`/items/live`: Webflow v2 publishes through these paths,
 * not through a flag): listed, found by a field's value, read, created, updated, deleted or
 * unpublished, and published.
 */
import { Action, ConnectorError, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { paged } from "../api.js"

const { path } = ProviderRequest

/**
 * A CMS item: `fieldData` keeps every field of the collection, `name` and `slug` always among
 * them; its dates and flags as Webflow gives them (`lastPublished` null: never published).
 */
export const Item = Schema.Struct({
  id: Schema.String,
  fieldData: Schema.Struct(
    { name: Schema.String, slug: Schema.String },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  ),
  isDraft: Schema.optional(Schema.Boolean),
  isArchived: Schema.optional(Schema.Boolean),
  lastPublished: Schema.optional(Schema.NullOr(Schema.String)),
  lastUpdated: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String)
})
export type Item = typeof Item.Type

/** A created or updated CMS item: the Item, with its status flags (`false` when left out: Webflow's default for both). */
export const WrittenItem = Schema.Struct({
  ...Item.fields,
  isDraft: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  isArchived: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type WrittenItem = typeof WrittenItem.Type

/** An item as a dropdown reads it: a name if it has one (one odd item does not spoil the list). */
export const ListedItem = Schema.Struct({
  id: Schema.String,
  fieldData: Schema.Struct({ name: Schema.optional(Schema.String), slug: Schema.optional(Schema.String) })
})

/** Which items to list: staged (every item) or live (published), filtered and sorted as Webflow allows. */
export interface ItemQuery {
  readonly collectionId: string
  readonly live?: boolean | undefined
  readonly name?: string | undefined
  readonly slug?: string | undefined
  readonly sortBy?: SortBy | undefined
  readonly sortOrder?: SortOrder | undefined
}
export const sortBy = ["lastPublished", "name", "slug"] as const
export const sortOrder = ["asc", "desc"] as const
export type SortBy = typeof sortBy[number]
export type SortOrder = typeof sortOrder[number]

/**
 * A collection's items as a stream, every page up to `maxItems`, each read with `item` (the full
 * Item, or the lenient one a dropdown needs). `GET /collections/{id}/items`, or `…/items/live`.
 */
export const items = <A, I>(
  client: ProviderClient.ProviderClient,
  query: ItemQuery,
  item: Schema.Schema<A, I>,
  maxItems?: number
) =>
  paged(client, {
    path: query.live === true ? path`/collections/${query.collectionId}/items/live` : path`/collections/${query.collectionId}/items`,
    key: "items",
    query: { name: query.name, slug: query.slug, sortBy: query.sortBy, sortOrder: query.sortOrder },
    maxItems
  }, item)

/** One item, at its path: `/collections/{id}/items/{itemId}`, or `…/live` for its published version. */
const itemPath = (collectionId: string, itemId: string, live: boolean) =>
  live ? path`/collections/${collectionId}/items/${itemId}/live` : path`/collections/${collectionId}/items/${itemId}`

/** `GET /collections/{id}/items/{itemId}` (staged), or `…/live` (published; a 404 while unpublished). */
export const getItem = (client: ProviderClient.ProviderClient, collectionId: string, itemId: string, live = false) =>
  client.json({ method: "GET", path: itemPath(collectionId, itemId, live) }, Item)

/** Whether a field's value is the one looked for: the same text, one of a list's, or an image's or file's URL. */
export const matches = (value: unknown, wanted: string): boolean => {
  if (Array.isArray(value)) return value.some((v) => matches(v, wanted))
  if (typeof value === "object" && value !== null) return matches((value as { url?: unknown }).url, wanted)
  return value !== undefined && value !== null && String(value) === wanted
}

/** Webflow filters these itself (`?name=`, `?slug=`): one request finds the item. */
const filtered = ["name", "slug"] as const

/**
 * The first item whose field `field` is `value` (null: none). `name` and `slug` are asked of
 * Webflow; any other field is read page after page until a match, or until `maxItems` items.
 */
export const findItem = (
  client: ProviderClient.ProviderClient,
  query: { readonly collectionId: string; readonly live?: boolean | undefined; readonly field: string; readonly value: string },
  maxItems: number
) => {
  const { collectionId, field, live, value } = query
  const stream = (filtered as ReadonlyArray<string>).includes(field)
    ? items(client, { collectionId, live, ...(field === "name" ? { name: value } : { slug: value }) }, Item, 1)
    : Stream.filter(items(client, { collectionId, live }, Item, maxItems), (item) => matches(item.fieldData[field], value))
  return Effect.map(Stream.runHead(stream), Option.getOrNull)
}

/**
 * The item a create cut short may have made (an action's `reconcile`): of the items with its
 * slug (unique in a collection) or, without one, its name (both filtered by Webflow), the newest
 * created at or after `since`, to the second.
 */
export const findCreatedItem = (
  client: ProviderClient.ProviderClient,
  where: { readonly collectionId: string; readonly live: boolean; readonly fieldData: Readonly<Record<string, unknown>> },
  since: Date
): Effect.Effect<Option.Option<WrittenItem>, ConnectorError.ConnectorError> => {
  const { slug, name } = where.fieldData
  const by = typeof slug === "string" ? { slug } : typeof name === "string" ? { name } : undefined
  if (by === undefined) {
    return Effect.fail(ConnectorError.invalidInput([{ path: "fieldData.name", message: "an item created without a name or slug cannot be found again" }]))
  }
  return Effect.map(Stream.runCollect(items(client, { collectionId: where.collectionId, live: where.live, ...by }, Item)), (found) =>
    Option.map(
      Action.newestCreatedSince(found, (item) => item.createdOn === undefined ? Number.NEGATIVE_INFINITY : Date.parse(item.createdOn), { since }),
      (item) => ({ ...item, isDraft: item.isDraft ?? false, isArchived: item.isArchived ?? false })
    ))
}

/** `DELETE /collections/{id}/items/{itemId}` (the staged item), or `…/live` (unpublished: the staged one stays). */
export const deleteItem = (client: ProviderClient.ProviderClient, collectionId: string, itemId: string, live: boolean) =>
  client.void({ method: "DELETE", path: itemPath(collectionId, itemId, live) })

/** What publishing answers: the ids published, and a message for each that was not ("Staging item ID … not found."). */
export const Published = Schema.Struct({
  publishedItemIds: Schema.Array(Schema.String),
  errors: Schema.Array(Schema.String)
})
export type Published = typeof Published.Type

/** `POST /collections/{id}/items/publish` `{itemIds}`: each staged item copied to the live site. */
export const publishItems = (client: ProviderClient.ProviderClient, collectionId: string, itemIds: ReadonlyArray<string>) =>
  client.json({
    method: "POST",
    path: path`/collections/${collectionId}/items/publish`,
    body: ProviderRequest.jsonBody({ itemIds })
  }, Schema.Struct({
    // The document requires neither list: an absent one is empty.
    publishedItemIds: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
    errors: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
  }))

/** What an item write sends: its fields, and its status flags where given. */
export interface ItemWrite {
  readonly collectionId: string
  /** Published at once (`…/live`) rather than staged. */
  readonly live: boolean
  /** Absent on an update that changes only the flags. */
  readonly fieldData?: Readonly<Record<string, unknown>> | undefined
  readonly isDraft?: boolean | undefined
  readonly isArchived?: boolean | undefined
}

const writeBody = (write: ItemWrite) =>
  ProviderRequest.jsonBody({
    ...(write.isArchived === undefined ? {} : { isArchived: write.isArchived }),
    ...(write.isDraft === undefined ? {} : { isDraft: write.isDraft }),
    ...(write.fieldData === undefined ? {} : { fieldData: write.fieldData })
  })

/** `POST /collections/{id}/items` (staged) or `…/items/live` (published at once). */
export const createItem = (client: ProviderClient.ProviderClient, write: ItemWrite) =>
  client.json({
    method: "POST",
    path: write.live ? path`/collections/${write.collectionId}/items/live` : path`/collections/${write.collectionId}/items`,
    body: writeBody(write)
  }, WrittenItem)

/** `PATCH /collections/{id}/items/{itemId}` (staged) or `…/live` (the live item too). */
export const updateItem = (client: ProviderClient.ProviderClient, write: ItemWrite & { readonly itemId: string }) =>
  client.json({
    method: "PATCH",
    path: write.live
      ? path`/collections/${write.collectionId}/items/${write.itemId}/live`
      : path`/collections/${write.collectionId}/items/${write.itemId}`,
    body: writeBody(write)
  }, WrittenItem)
