/**
 * Webflow Data API v2's wire formats (`../shared/specs/webflow`) that every area shares: the
 * error body, and lists paged by offset. Each area's records (decoded with Schema, unknown
 * fields ignored unless kept) and endpoints are in its own file beside this one.
 *
 * An answer's record requires only what identifies it (its `id`; an order's `orderId`; what
 * says what it is, as a field's `type`) and what the seed names (an order's `orderId` and
 * `status`, an item's `id` and `fieldData.name`, `fieldData.slug`): a write must not fail after
 * Webflow made it because its answer left out a field we merely pass on. Any other field is
 * optional: absent from the output when Webflow leaves it out, or the default stated where it
 * is declared (`[]` for a list, `false` for a flag that is off unless said).
 */
import { Pagination, type ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** Webflow's error body: `{code, message, externalReference, details}`. */
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  message: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Array(Schema.Unknown))
})

/** Webflow pages lists by offset and limit, 100 at most. */
const pageSize = 100

const Page = Schema.Struct({ total: Schema.optional(Schema.Number) })

/** What a paged list request names: its path, the key of its records, and its filters. */
export interface PagedList {
  readonly path: string
  /** The key of the records in the answer (`items`, `orders`, …). */
  readonly key: string
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>
  /** The most records read; every page by default. */
  readonly maxItems?: number | undefined
}

/**
 * A list Webflow pages by `offset` and `limit` (`{[key]: […], pagination: {total}}`), every page
 * up to `maxItems` as a stream, each record read with `record`.
 */
export const paged = <A, I>(client: ProviderClient.ProviderClient, list: PagedList, record: Schema.Schema<A, I>) => {
  const answer = Schema.Struct({ [list.key]: Schema.Array(record), pagination: Schema.optional(Page) }) as unknown as Schema.Schema<
    { readonly [key: string]: ReadonlyArray<A> } & { readonly pagination?: { readonly total?: number | undefined } | undefined },
    unknown
  >
  return Pagination.offset({ pageSize, maxItems: list.maxItems }, (offset, limit) =>
    Effect.map(
      client.json({ method: "GET", path: list.path, query: { offset, limit, ...list.query } }, answer),
      (r) => ({ items: r[list.key] as ReadonlyArray<A>, total: r.pagination?.total })
    ))
}
