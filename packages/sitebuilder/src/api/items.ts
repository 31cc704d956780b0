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
import { paged } from "./shared.js"

const { path } = ProviderRequest

/**
 * A CMS item: `fieldData` keeps every field of the collection, `name` and `slug` always among
 * them; its locale (`cmsLocaleId`: which locale's version this is), dates and flags as Webflow
 * gives them (`lastPublished` null: never published). Its fields in Webflow's order, so that
 * an answer as Webflow sends it is read without a copy.
 */
export const Item = Schema.Struct({
  id: Schema.String,
  cmsLocaleId: Schema.optional(Schema.NullOr(Schema.String)),
  lastPublished: Schema.optional(Schema.NullOr(Schema.String)),
  lastUpdated: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String),
  isArchived: Schema.optional(Schema.Boolean),
  isDraft: Schema.optional(Schema.Boolean),
  fieldData: Schema.Struct(
    { name: Schema.String, slug: Schema.String },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
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

// --- many items in one request ---

/** Webflow's limit of items in one bulk request ("up to 100 items", the document says). */
export const bulkLimit = 100

/** What a failed item reports: the typed error's tag and Webflow's reason for that item. */
export const BulkItemError = Schema.Struct({ _tag: Schema.String, message: Schema.String })

/**
 * One item's result of a bulk write, at its place in the input (`index`): its output, or why
 * Webflow refused it. `id` is the item's (absent for an item that was not created).
 */
export const BulkItemResult = <A, I>(output: Schema.Schema<A, I>) =>
  Schema.Union(
    Schema.Struct({ index: Schema.Number, id: Schema.optional(Schema.String), ok: Schema.Literal(true), output }),
    Schema.Struct({ index: Schema.Number, id: Schema.optional(Schema.String), ok: Schema.Literal(false), error: BulkItemError })
  )

/** A bulk write's report: how many items were written and refused, and each item's result in input order. */
export const BulkReport = <A, I>(output: Schema.Schema<A, I>) =>
  Schema.Struct({ succeeded: Schema.Number, failed: Schema.Number, results: Schema.Array(BulkItemResult(output)) })

type BulkResult<A> =
  | { readonly index: number; readonly id?: string | undefined; readonly ok: true; readonly output: A }
  | { readonly index: number; readonly id?: string | undefined; readonly ok: false; readonly error: typeof BulkItemError.Type }

const Detail = Schema.Struct({ param: Schema.String, description: Schema.optional(Schema.String), message: Schema.optional(Schema.String) })
const detailsOf = Schema.decodeUnknownOption(Schema.Struct({ details: Schema.Array(Schema.Unknown) }))
const detailOf = Schema.decodeUnknownOption(Detail)
/** `items[3].fieldData.slug` (a bulk body's `items`) or `fieldData[3].slug` (`/items/bulk`'s `fieldData`): the item's index, and the rest. */
const itemParam = /^(?:items|fieldData)\[(\d+)\]\.?(.*)$/

/**
 * The items of a request that Webflow's error names in its `details` (`{param: "items[1].fieldData.slug",
 * description}`), each with its reasons, the field named as the caller's item names it (`within`,
 * e.g. `fieldData.`, dropped: a new item is its fields); empty when the error names no item (a
 * refusal of the whole request).
 */
export const refusedItems = (error: ConnectorError.ConnectorError, count: number, within = ""): ReadonlyMap<number, string> => {
  const refused = new Map<number, string>()
  const body = "body" in error ? error.body : undefined
  const details = Option.getOrElse(Option.map(detailsOf(body), (b) => b.details), () => [])
  for (const detail of details) {
    const parsed = detailOf(detail)
    if (Option.isNone(parsed)) continue
    const match = itemParam.exec(parsed.value.param)
    const index = match === null ? -1 : Number(match[1])
    if (index < 0 || index >= count) continue
    const reason = parsed.value.description ?? parsed.value.message ?? error.message
    const field = within !== "" && match![2]!.startsWith(within) ? match![2]!.slice(within.length) : match![2]
    const named = field === "" ? reason : `${field}: ${reason}`
    refused.set(index, refused.has(index) ? `${refused.get(index)}; ${named}` : named)
  }
  return refused
}

/**
 * Writes `entries` in one request (`send`, whose outputs are in the order it was given them).
 * When Webflow refuses the request naming some of its items, those are reported failed with its
 * reasons and the others are sent again once, without them: a refused request wrote nothing. A
 * refusal that names no item (the collection, the token, the rate) fails the whole, nothing written.
 */
export const writeMany = <E, A>(
  entries: ReadonlyArray<E>,
  send: (batch: ReadonlyArray<E>) => Effect.Effect<ReadonlyArray<A>, ConnectorError.ConnectorError>,
  idOf: (entry: E, output: A | undefined) => string | undefined,
  /** What of a refused field's name the caller's item does not have (`fieldData.`: a new item is its fields). */
  within = ""
) => {
  const failed = (index: number, error: ConnectorError.ConnectorError, message: string): BulkResult<A> => {
    const id = idOf(entries[index]!, undefined)
    return { index, ...(id === undefined ? {} : { id }), ok: false, error: { _tag: error._tag, message } }
  }
  const written = (indexes: ReadonlyArray<number>, outputs: ReadonlyArray<A>) =>
    indexes.map((index, i): BulkResult<A> => {
      const id = idOf(entries[index]!, outputs[i])
      return { index, ...(id === undefined ? {} : { id }), ok: true, output: outputs[i]! }
    })
  const all = entries.map((_, index) => index)
  return send(entries).pipe(
    Effect.map((outputs) => written(all, outputs)),
    Effect.catchAll((error) => {
      const refused = refusedItems(error, entries.length, within)
      if (refused.size === 0) return Effect.fail(error)
      const refusals = [...refused].map(([index, reason]) => failed(index, error, reason))
      const rest = all.filter((index) => !refused.has(index))
      if (rest.length === 0) return Effect.succeed(refusals)
      return send(rest.map((index) => entries[index]!)).pipe(
        Effect.map((outputs) => [...refusals, ...written(rest, outputs)]),
        // Refused again: each remaining item reports the second refusal (its own reason when named).
        Effect.catchAll((again) => {
          const named = refusedItems(again, rest.length, within)
          if (named.size === 0 && !["InvalidInput", "NotFound", "Conflict"].includes(again._tag)) return Effect.fail(again)
          return Effect.succeed([...refusals, ...rest.map((index, i) => failed(index, again, named.get(i) ?? again.message))])
        })
      )
    }),
    Effect.map((results) => {
      const sorted = [...results].sort((a, b) => a.index - b.index)
      const succeeded = sorted.filter((r) => r.ok).length
      return { succeeded, failed: sorted.length - succeeded, results: sorted }
    })
  )
}

/** The items a bulk write answers: `{items: [...]}`, in the order sent. */
const WrittenItems = Schema.Struct({ items: Schema.Array(WrittenItem) })

/**
 * Creates items, staged: `POST /collections/{id}/items/bulk` `{isDraft, isArchived, fieldData: [...]}`
 * (one flag for all; the primary locale only, as no `cmsLocaleIds` is sent), or live at once:
 * `POST /collections/{id}/items/live` `{items: [{fieldData, isArchived}]}`. Each answers `{items}` (202).
 */
export const createItems = (
  client: ProviderClient.ProviderClient,
  write: { readonly collectionId: string; readonly live: boolean; readonly isDraft: boolean; readonly isArchived: boolean },
  items: ReadonlyArray<Readonly<Record<string, unknown>>>
) =>
  Effect.map(
    client.json(
      write.live
        ? {
          method: "POST",
          path: path`/collections/${write.collectionId}/items/live`,
          body: ProviderRequest.jsonBody({ items: items.map((fieldData) => ({ isArchived: write.isArchived, isDraft: false, fieldData })) })
        }
        : {
          method: "POST",
          path: path`/collections/${write.collectionId}/items/bulk`,
          body: ProviderRequest.jsonBody({ isArchived: write.isArchived, isDraft: write.isDraft, fieldData: items })
        },
      WrittenItems
    ),
    (answer) => answer.items
  )

/** What one item of a bulk update sends: its id, the fields that change (null clears one), its flags where given. */
export interface ItemChange {
  readonly id: string
  readonly fieldData?: Readonly<Record<string, unknown>> | undefined
  readonly isDraft?: boolean | undefined
  readonly isArchived?: boolean | undefined
}

/** `PATCH /collections/{id}/items` (staged) or `…/items/live` (the live items too) `{items: [{id, …}]}`: `{items}` (200). */
export const updateItems = (client: ProviderClient.ProviderClient, collectionId: string, live: boolean, changes: ReadonlyArray<ItemChange>) =>
  Effect.map(
    client.json({
      method: "PATCH",
      path: live ? path`/collections/${collectionId}/items/live` : path`/collections/${collectionId}/items`,
      body: ProviderRequest.jsonBody({
        items: changes.map((change) => ({
          id: change.id,
          ...(change.isArchived === undefined ? {} : { isArchived: change.isArchived }),
          ...(change.isDraft === undefined ? {} : { isDraft: change.isDraft }),
          ...(change.fieldData === undefined ? {} : { fieldData: change.fieldData })
        }))
      })
    }, WrittenItems),
    (answer) => answer.items
  )

/**
 * `DELETE /collections/{id}/items` (the staged items deleted) or `…/items/live` (unpublished: the
 * staged items stay, as drafts) `{items: [{id}]}` (204): each item's output is its id.
 */
export const deleteItems = (client: ProviderClient.ProviderClient, collectionId: string, live: boolean, itemIds: ReadonlyArray<string>) =>
  Effect.as(
    client.void({
      method: "DELETE",
      path: live ? path`/collections/${collectionId}/items/live` : path`/collections/${collectionId}/items`,
      body: ProviderRequest.jsonBody({ items: itemIds.map((id) => ({ id })) })
    }),
    itemIds.map((id) => ({ id }))
  )

/** A problem for each value given again after its first place (a slug, an id): Webflow would refuse the request. */
export const repeated = <V>(values: ReadonlyArray<V>, problem: (index: number, value: V) => { readonly path: string; readonly message: string }) =>
  values.flatMap((value, i) => value !== undefined && values.indexOf(value) < i ? [problem(i, value)] : [])
