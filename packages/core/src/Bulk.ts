/**
 * Bulk operations: one effect per item ("archive every card of a list"), run concurrently up
 * to a bound, each to its end. A failing item does not stop the others; the report lists every
 * item's result in input order, so that a partial failure says which items succeeded.
 *
 * Pacing is not done here: every request goes through the connection's provider client, whose
 * rate limiter (see `RateLimiter`) holds the credential's limit however many items run at
 * once, and whose retries answer a 429 or a transient failure before an item is reported failed.
 * The bound is of requests in flight (sockets, memory), not of the rate.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/**
 * What a failed item reports of its error: the typed error's tag (e.g. `NotFound`) and message.
 *
 * @since 0.2.0
 * @category models
 */
export interface ItemError<Tag extends string = string> {
  readonly _tag: Tag
  readonly message: string
}

/**
 * One item's result: its output, or its error.
 *
 * @since 0.2.0
 * @category models
 */
export type Result<A, Tag extends string = string> =
  | { readonly id: string; readonly ok: true; readonly output: A }
  | { readonly id: string; readonly ok: false; readonly error: ItemError<Tag> }

/**
 * The outcome of a bulk operation: how many items succeeded and failed, and every item's
 * result in the order of the input.
 *
 * @since 0.2.0
 * @category models
 */
export interface Report<A, Tag extends string = string> {
  readonly succeeded: number
  readonly failed: number
  readonly results: ReadonlyArray<Result<A, Tag>>
}

/**
 * How a bulk operation runs: how each item is named in its result, and how many run at once.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options<I> {
  /** The item's id in its result (a record's id, so a caller can retry exactly the failed ones). */
  readonly id: (item: I) => string
  /** How many items are in flight at once; default `defaultConcurrency`. */
  readonly concurrency?: number | undefined
}

/**
 * Items in flight by default: enough to hide a provider's latency, while the rate limiter
 * decides how fast they start.
 *
 * @since 0.2.0
 * @category utils
 */
export const defaultConcurrency = 5

/**
 * Runs `f` for every item, at most `concurrency` at once, and reports each item's result in
 * input order. Errors of `f` become failed results (never a failure of the whole); defects
 * and interruption are not caught, as they are not an item's outcome.
 *
 * @since 0.2.0
 * @category combinators
 */
export const forEach = <I, A, E extends ItemError, R>(
  items: Iterable<I>,
  f: (item: I) => Effect.Effect<A, E, R>,
  options: Options<I>
): Effect.Effect<Report<A, E["_tag"]>, never, R> => {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? defaultConcurrency))
  // Read once: an iterable may be a generator.
  const source: ReadonlyArray<I> = Array.isArray(items) ? items : Array.from(items)
  return Effect.map(
    Effect.forEach(source, (item) => Effect.either(f(item)), { concurrency }),
    (outcomes) => {
      let succeeded = 0
      const results = outcomes.map((outcome, index): Result<A, E["_tag"]> => {
        const id = options.id(source[index]!)
        if (Either.isRight(outcome)) {
          succeeded++
          return { id, ok: true, output: outcome.right }
        }
        return { id, ok: false, error: { _tag: outcome.left._tag, message: outcome.left.message } }
      })
      return { succeeded, failed: results.length - succeeded, results }
    }
  )
}

/**
 * The Schema of a failed item's error, for an action's output.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ItemErrorSchema = Schema.Struct({ _tag: Schema.String, message: Schema.String })

/**
 * The Schema of one item's result, given the Schema of an item's output, for an action's
 * output (e.g. `results: Schema.Array(Bulk.ResultSchema(Card))`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const ResultSchema = <A, I>(output: Schema.Schema<A, I>) =>
  Schema.Union(
    Schema.Struct({ id: Schema.String, ok: Schema.Literal(true), output }),
    Schema.Struct({ id: Schema.String, ok: Schema.Literal(false), error: ItemErrorSchema })
  )
