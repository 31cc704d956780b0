/**
 * The one walk behind every paged stream: it asks for a page with the limit that is left,
 * emits its items, and decides whether another request is due. The provider's own "last
 * page" signal comes back from `fetch` as `Option.none()`; the cap, an empty page and the
 * page bound end the walk here, the same way for every kind of paging. So does a provider
 * that loops: a next cursor it gave before (a cursor token, a keyset id), or the same items
 * as the page before (an offset or page number it ignores), ends the walk with `PagingLoop`
 * at the first repeat, naming the request that gave it.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { PagingLoop, type RequestInfo } from "../ConnectorError.js"

export interface Bounds {
  readonly pageSize: number
  readonly maxItems?: number | undefined
  readonly maxPages?: number | undefined
}

/** What one request gave: its items, and the cursor of the next page (none after the last). */
export type Fetched<A, C> = readonly [ReadonlyArray<A>, Option.Option<C>]

interface State<C> {
  readonly cursor: C
  readonly received: number
  readonly pages: number
  /** The items of the page before, to see a page given again. */
  readonly previous: ReadonlyArray<unknown>
  /** The repeat found on the page before: the next pull fails with it, without a request. */
  readonly loop?: PagingLoop | undefined
}

/**
 * Where the provider client notes each request a page's `fetch` sends (its method and path),
 * so that a loop names it. Set only around a page's fetch: other requests note nothing.
 */
export const pageRequest = FiberRef.unsafeMake<{ request?: RequestInfo | undefined } | undefined>(undefined)

// A bound as a whole number of at least 0 (a NaN or absent one takes the default).
const whole = (n: number | undefined, fallback: number) =>
  n === undefined || Number.isNaN(n) ? fallback : Math.max(0, Math.floor(n))

const textOf = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}

/** Whether a page holds the same items as the one before (compared as JSON; the first items first, which usually differ). */
const samePage = (previous: ReadonlyArray<unknown>, items: ReadonlyArray<unknown>): boolean => {
  if (items.length === 0 || previous.length !== items.length) return false
  if (previous[0] !== items[0]) {
    const first = textOf(items[0])
    if (first === undefined || first !== textOf(previous[0])) return false
  }
  const text = textOf(items)
  return text !== undefined && text === textOf(previous)
}

const loop = (request: RequestInfo | undefined, pages: number, what: string) =>
  new PagingLoop({
    message: `${request === undefined ? "the listing" : `${request.method} ${request.path}`} ${what} (page ${pages}): ` +
      "the provider is repeating itself, so the listing was stopped rather than read forever",
    request
  })

export const walk = <C, A, E, R>(
  bounds: Bounds,
  first: C,
  fetch: (cursor: C, limit: number, received: number) => Effect.Effect<Fetched<A, C>, E, R>
): Stream.Stream<A, E | PagingLoop, R> => {
  const pageSize = Math.max(1, whole(bounds.pageSize, 1))
  const maxItems = whole(bounds.maxItems, Number.POSITIVE_INFINITY)
  const maxPages = whole(bounds.maxPages, 10_000)
  if (maxItems === 0 || maxPages === 0) return Stream.empty
  // Each run of the stream has its own record of the cursors asked for.
  return Stream.suspend(() => {
    const asked = new Set<C>([first])
    return Stream.paginateChunkEffect<State<C>, A, E | PagingLoop, R>({ cursor: first, received: 0, pages: 0, previous: [] }, (state) => {
      if (state.loop !== undefined) return Effect.fail(state.loop)
      const left = maxItems - state.received
      const noted: { request?: RequestInfo | undefined } = {}
      const page = Effect.locally(fetch(state.cursor, Math.min(pageSize, left), state.received), pageRequest, noted)
      return Effect.flatMap(page, ([items, next]) => {
        // A provider that answers more than asked gives no more than the cap.
        const kept = items.length > left ? items.slice(0, left) : items
        const received = state.received + kept.length
        const pages = state.pages + 1
        // The same items again are not emitted twice: the walk ends here.
        if (samePage(state.previous, kept)) return Effect.fail(loop(noted.request, pages, "answered with the same items as the page before"))
        const more = kept.length > 0 && received < maxItems && pages < maxPages
        if (!more || Option.isNone(next)) return Effect.succeed([Chunk.unsafeFromArray(kept), Option.none<State<C>>()] as const)
        const cursor = next.value
        // This page's items are new: they are emitted, and the next pull ends the walk.
        const repeated = asked.has(cursor) ? loop(noted.request, pages, "gave a next-page cursor it had given before") : undefined
        asked.add(cursor)
        return Effect.succeed([Chunk.unsafeFromArray(kept), Option.some<State<C>>({ cursor, received, pages, previous: kept, loop: repeated })] as const)
      })
    })
  })
}
