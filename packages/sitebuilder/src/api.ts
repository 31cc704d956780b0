/**
 * Webflow Data API v2's wire formats (`../shared/specs/webflow`): the records we read,
 * decoded with Schema (unknown fields ignored unless kept), and the endpoints we call.
 */
import { Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export const Order = Schema.Struct({ orderId: Schema.String, status: Schema.String })

/** A CMS item: `fieldData` keeps every field of the collection, `name` and `slug` always among them. */
export const Item = Schema.Struct({
  id: Schema.String,
  fieldData: Schema.Struct(
    { name: Schema.String, slug: Schema.String },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
})
export type Item = typeof Item.Type
export type Order = typeof Order.Type

/** A created or updated CMS item: the Item, with its status flags. */
export const WrittenItem = Schema.Struct({
  ...Item.fields,
  isDraft: Schema.Boolean,
  isArchived: Schema.Boolean
})
export type WrittenItem = typeof WrittenItem.Type

/** A field of a collection, as `GET /collections/{id}` describes it; `validations` depend on its type. */
export const Field = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  displayName: Schema.String,
  type: Schema.String,
  isRequired: Schema.Boolean,
  isEditable: Schema.optional(Schema.Boolean),
  helpText: Schema.optional(Schema.NullOr(Schema.String)),
  validations: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})
export type Field = typeof Field.Type

const Site = Schema.Struct({ id: Schema.String, displayName: Schema.String })
const Collection = Schema.Struct({ id: Schema.String, displayName: Schema.String })
const Page = Schema.Struct({ total: Schema.optional(Schema.Number) })

/** An item as a dropdown reads it: a name if it has one (one odd item does not spoil the list). */
export const ListedItem = Schema.Struct({
  id: Schema.String,
  fieldData: Schema.Struct({ name: Schema.optional(Schema.String), slug: Schema.optional(Schema.String) })
})

/** Webflow's error body: `{code, message, externalReference, details}`. */
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  message: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Array(Schema.Unknown))
})

const { path } = ProviderRequest
/** Webflow pages lists by offset and limit, 100 at most. */
const pageSize = 100

export const listSites = (client: ProviderClient.ProviderClient) =>
  Effect.map(client.json({ method: "GET", path: "/sites" }, Schema.Struct({ sites: Schema.Array(Site) })), (r) => r.sites)

/** The site's orders, every page (a stream: pulled page by page). */
export const orders = (client: ProviderClient.ProviderClient, siteId: string) =>
  Pagination.offset({ pageSize }, (offset, limit) =>
    Effect.map(
      client.json(
        { method: "GET", path: path`/sites/${siteId}/orders`, query: { offset, limit } },
        Schema.Struct({ orders: Schema.Array(Order), pagination: Schema.optional(Page) })
      ),
      (r) => ({ items: r.orders, total: r.pagination?.total })
    ))

export const fulfillOrder = (
  client: ProviderClient.ProviderClient,
  order: { siteId: string; orderId: string; sendOrderFulfilledEmail: boolean }
) =>
  client.json({
    method: "POST",
    path: path`/sites/${order.siteId}/orders/${order.orderId}/fulfill`,
    body: ProviderRequest.jsonBody({ sendOrderFulfilledEmail: order.sendOrderFulfilledEmail })
  }, Order)

export const listCollections = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/sites/${siteId}/collections` }, Schema.Struct({ collections: Schema.Array(Collection) })),
    (r) => r.collections
  )

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
) => {
  const listing = Schema.Struct({ items: Schema.Array(item), pagination: Schema.optional(Page) })
  const url = query.live === true ? path`/collections/${query.collectionId}/items/live` : path`/collections/${query.collectionId}/items`
  const filters = { name: query.name, slug: query.slug, sortBy: query.sortBy, sortOrder: query.sortOrder }
  return Pagination.offset({ pageSize, maxItems }, (offset, limit) =>
    Effect.map(
      client.json({ method: "GET", path: url, query: { offset, limit, ...filters } }, listing),
      (r) => ({ items: r.items, total: r.pagination?.total })
    ))
}

export const getItem = (client: ProviderClient.ProviderClient, collectionId: string, itemId: string) =>
  client.json({ method: "GET", path: path`/collections/${collectionId}/items/${itemId}` }, Item)

/** A collection's fields: `GET /collections/{id}`. */
export const collectionFields = (client: ProviderClient.ProviderClient, collectionId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/collections/${collectionId}` }, Schema.Struct({ fields: Schema.Array(Field) })),
    (r) => r.fields
  )

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
