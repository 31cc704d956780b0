/**
 * CMS items, staged (`/items`) or live (`/items/live`: Webflow v2 publishes through these paths,
 * not through a flag): listed, read, created and updated.
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { paged } from "../api.js"

const { path } = ProviderRequest

/** A CMS item: `fieldData` keeps every field of the collection, `name` and `slug` always among them. */
export const Item = Schema.Struct({
  id: Schema.String,
  fieldData: Schema.Struct(
    { name: Schema.String, slug: Schema.String },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
})
export type Item = typeof Item.Type

/** A created or updated CMS item: the Item, with its status flags. */
export const WrittenItem = Schema.Struct({
  ...Item.fields,
  isDraft: Schema.Boolean,
  isArchived: Schema.Boolean
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

export const getItem = (client: ProviderClient.ProviderClient, collectionId: string, itemId: string) =>
  client.json({ method: "GET", path: path`/collections/${collectionId}/items/${itemId}` }, Item)

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
