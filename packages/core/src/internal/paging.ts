/**
 * The one walk behind every paged stream: it asks for a page with the limit that is left,
 * emits its items, and decides whether another request is due. The provider's own "last
 * page" signal comes back from `fetch` as `Option.none()`; the cap, an empty page and the
 * page bound end the walk here, the same way for every kind of paging.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

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
}

// A bound as a whole number of at least 0 (a NaN or absent one takes the default).
const whole = (n: number | undefined, fallback: number) =>
  n === undefined || Number.isNaN(n) ? fallback : Math.max(0, Math.floor(n))

export const walk = <C, A, E, R>(
  bounds: Bounds,
  first: C,
  fetch: (cursor: C, limit: number, received: number) => Effect.Effect<Fetched<A, C>, E, R>
): Stream.Stream<A, E, R> => {
  const pageSize = Math.max(1, whole(bounds.pageSize, 1))
  const maxItems = whole(bounds.maxItems, Number.POSITIVE_INFINITY)
  const maxPages = whole(bounds.maxPages, 10_000)
  if (maxItems === 0 || maxPages === 0) return Stream.empty
  return Stream.paginateChunkEffect<State<C>, A, E, R>({ cursor: first, received: 0, pages: 0 }, (state) => {
    const left = maxItems - state.received
    return Effect.map(fetch(state.cursor, Math.min(pageSize, left), state.received), ([items, next]) => {
      // A provider that answers more than asked gives no more than the cap.
      const kept = items.length > left ? items.slice(0, left) : items
      const received = state.received + kept.length
      const pages = state.pages + 1
      const more = kept.length > 0 && received < maxItems && pages < maxPages
      return [
        Chunk.unsafeFromArray(kept),
        more ? Option.map(next, (cursor): State<C> => ({ cursor, received, pages })) : Option.none()
      ] as const
    })
  })
}
