/**
 * Paged streams: one `Stream` per list endpoint, following the provider's paging lazily, one
 * request per page through the provider client (so rate limits, retries and typed errors
 * apply to each page). Written once for the kinds the providers use: offset/limit with a
 * total (Webflow), page numbers (Browser Use sessions), keyset "before the last item"
 * (Trello actions) and cursor tokens (Browser Use files).
 *
 * Every kind stops without an extra request: at the provider's last page (a reported total
 * reached, a page shorter than asked, no next cursor), at an empty page, at `maxItems` (the
 * cap a user sets; the last request asks only for what is left where the paging allows it)
 * and at `maxPages`. Nothing is requested before the stream is pulled, and a consumer that
 * takes fewer items (`Stream.take`) causes no request for a page it does not need. A provider
 * that loops (a next cursor or key it gave before, or the same items as the page before) ends
 * the stream with `PagingLoop` at its first repeat, naming the request (its method and path).
 *
 * @since 0.1.0
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { PagingLoop } from "./ConnectorError.js"
import * as Paging from "./internal/paging.js"
import * as Property from "./Property.js"

/**
 * One page of an offset or page-number listing: its items, and the total when the provider
 * reports one.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** The total number of items, when the provider reports it. */
  readonly total?: number | undefined
}

/**
 * One page of a cursor listing: its items and the cursor of the next page (absent, null or
 * empty after the last).
 *
 * @since 0.2.0
 * @category models
 */
export interface CursorPage<A> {
  readonly items: ReadonlyArray<A>
  readonly next?: string | null | undefined
}

/**
 * How a stream is sized: the page size asked of the provider, and the caps.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Items per page (at most what the provider allows). */
  readonly pageSize: number
  /** Stops after this many items (default: no limit). */
  readonly maxItems?: number | undefined
  /** A safety bound against providers that never stop answering (default 10,000 pages). */
  readonly maxPages?: number | undefined
}

const nextIf = <C>(more: boolean, cursor: () => C): Option.Option<C> => (more ? Option.some(cursor()) : Option.none())

/**
 * Offset/limit paging (Webflow): `fetch(offset, limit)`, each offset where the items so far
 * end, so a provider that caps pages below `pageSize` skips nothing. With a reported total,
 * the stream ends when the offset reaches it; without one, at a page shorter than asked.
 *
 * @since 0.2.0
 * @category constructors
 */
export const offset = <A, E, R>(
  settings: Settings,
  fetch: (offset: number, limit: number) => Effect.Effect<Page<A>, E, R>
): Stream.Stream<A, E | PagingLoop, R> =>
  Paging.walk(settings, 0, (at: number, limit) =>
    Effect.map(fetch(at, limit), (page) => {
      const end = at + page.items.length
      return [page.items, nextIf(page.total === undefined ? page.items.length >= limit : end < page.total, () => end)] as const
    }))

/**
 * Page-number paging (Browser Use's `page`/`page_size`): `fetch(page, pageSize)` for page
 * 1, 2, 3, … (every request asks for `pageSize`, as page numbers depend on it). With a
 * reported total, the stream ends when that many items have come; without one, at a short page.
 *
 * @since 0.2.0
 * @category constructors
 */
export const pageNumber = <A, E, R>(
  settings: Settings,
  fetch: (page: number, pageSize: number) => Effect.Effect<Page<A>, E, R>
): Stream.Stream<A, E | PagingLoop, R> =>
  Paging.walk(settings, 1, (page: number, _limit, received) =>
    Effect.map(fetch(page, settings.pageSize), (result) => {
      const more = result.total === undefined
        ? result.items.length >= settings.pageSize
        : received + result.items.length < result.total
      return [result.items, nextIf(more, () => page + 1)] as const
    }))

/**
 * Keyset paging, newest first (Trello's `before` with `limit`): `fetch(before, limit)`, with
 * `before` undefined for the first page and then `keyOf` the last item received (its id).
 * The stream ends at a page shorter than asked.
 *
 * @since 0.2.0
 * @category constructors
 */
export const keyset = <A, E, R>(
  settings: Settings,
  fetch: (before: string | undefined, limit: number) => Effect.Effect<ReadonlyArray<A>, E, R>,
  keyOf: (item: A) => string
): Stream.Stream<A, E | PagingLoop, R> =>
  Paging.walk(settings, undefined as string | undefined, (before, limit) =>
    Effect.map(fetch(before, limit), (items) =>
      [items, nextIf(items.length >= limit && items.length > 0, () => keyOf(items[items.length - 1]!) as string | undefined)] as const))

/**
 * Cursor-token paging (`nextCursor`): `fetch(cursor, limit)`, the cursor undefined for the
 * first page and then the one the previous page gave; the stream ends when none is given.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cursor = <A, E, R>(
  settings: Settings,
  fetch: (cursor: string | undefined, limit: number) => Effect.Effect<CursorPage<A>, E, R>
): Stream.Stream<A, E | PagingLoop, R> =>
  Paging.walk(settings, undefined as string | undefined, (at, limit) =>
    Effect.map(fetch(at, limit), (page) => {
      const next = page.next
      return [page.items, nextIf(next !== undefined && next !== null && next !== "", () => next as string | undefined)] as const
    }))

/**
 * The `limit` input of a list action: the most records it returns across pages, 1 to 5000,
 * passed to the stream as `maxItems`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const limit = (config: { readonly description: string; readonly defaultValue: number }) =>
  Property.integer({ title: "Limit", description: config.description, minimum: 1, maximum: 5000, defaultValue: config.defaultValue })

/**
 * Runs a paged stream to its end (or its cap) and gives its items as an array: what an
 * options loader or a "list" action returns.
 *
 * @since 0.2.0
 * @category utils
 */
export const collect = <A, E, R>(stream: Stream.Stream<A, E, R>): Effect.Effect<ReadonlyArray<A>, E, R> =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

/**
 * Offset/limit paging collected into an array.
 *
 * @deprecated Use `Pagination.collect(Pagination.offset(settings, fetch))`.
 * @since 0.1.0
 * @category utils
 */
export const byOffset = <A, E, R>(
  settings: Settings,
  fetch: (offset: number, limit: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E | PagingLoop, R> => collect(offset(settings, fetch))

/**
 * Page-number paging collected into an array.
 *
 * @deprecated Use `Pagination.collect(Pagination.pageNumber(settings, fetch))`.
 * @since 0.1.0
 * @category utils
 */
export const byPage = <A, E, R>(
  settings: Settings,
  fetch: (page: number, pageSize: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E | PagingLoop, R> => collect(pageNumber(settings, fetch))
