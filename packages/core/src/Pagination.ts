/**
 * Follows a paginated listing to its end: offset/limit (Webflow) or page/page_size.
 * With a reported total, the walk ends when that many items have come (or a page is empty);
 * without one, at the first page shorter than asked for. Offsets advance by what came, so a
 * provider that caps pages below `pageSize` skips nothing.
 */
import * as Effect from "effect/Effect"

/**
 * One page of a list endpoint: its items, and whether another page follows.
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
 * How a walk over pages is sized: the page size and the most items it collects.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Items per page. */
  readonly pageSize: number
  /** Stops after this many items (default: no limit). */
  readonly maxItems?: number
  /** A safety bound against providers that never stop answering (default 10,000 pages). */
  readonly maxPages?: number
}

const walk = <A, E, R>(
  options: Settings,
  fetch: (index: number, received: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E, R> => {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY
  const maxPages = options.maxPages ?? 10_000
  const loop = (index: number, acc: Array<A>): Effect.Effect<ReadonlyArray<A>, E, R> =>
    Effect.flatMap(fetch(index, acc.length), (page) => {
      for (const item of page.items) acc.push(item)
      const done = page.items.length === 0 ||
        (page.total === undefined ? page.items.length < options.pageSize : acc.length >= page.total) ||
        acc.length >= maxItems ||
        index + 1 >= maxPages
      return done ? Effect.succeed(acc.length > maxItems ? acc.slice(0, maxItems) : acc) : loop(index + 1, acc)
    })
  return Effect.suspend(() => loop(0, []))
}

/**
 * Offset/limit pagination: `fetch(offset, limit)`, each offset where the items so far end.
 *
 * @since 0.1.0
 * @category utils
 */
export const byOffset = <A, E, R>(
  options: Settings,
  fetch: (offset: number, limit: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E, R> => walk(options, (_, received) => fetch(received, options.pageSize))

/**
 * Page-number pagination: `fetch(page, pageSize)` for page 1, 2, 3, …
 *
 * @since 0.1.0
 * @category utils
 */
export const byPage = <A, E, R>(
  options: Settings,
  fetch: (page: number, pageSize: number) => Effect.Effect<Page<A>, E, R>
): Effect.Effect<ReadonlyArray<A>, E, R> => walk(options, (index) => fetch(index + 1, options.pageSize))
