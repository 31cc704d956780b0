/**
 * Driving a polling trigger: a poll at once, then one per interval (the trigger's, or the one
 * given), each from the cursor of the last poll its caller kept. The first poll without a
 * stored cursor sets the baseline and emits nothing. A poll that fails, or whose events the
 * caller could not keep, leaves the cursor where it was: the next poll asks again, and the
 * events' ids let the caller drop those it already has.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type ConnectorError, type InvalidInput, invalidInput } from "./ConnectorError.js"
import type { Connections } from "./Connections.js"
import type * as Executor from "./Executor.js"
import type * as Trigger from "./Trigger.js"

/**
 * One poll's outcome: its events (encoded, scrubbed, each with its id), the cursor to store
 * once they are kept, and whether it was the baseline.
 *
 * @since 0.2.0
 * @category models
 */
export interface Poll {
  readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>>
  readonly cursor: unknown
  readonly baseline: boolean
}

/**
 * How `run` polls, and what it does with each poll.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options<E, R> {
  /** The cursor stored by a previous run, as JSON data; undefined to start with a baseline. */
  readonly cursor: unknown
  /** Overrides the trigger's declared interval. */
  readonly interval?: Duration.DurationInput | undefined
  /**
   * Keeps a poll: its events first (durably, if they must survive a restart), then its cursor.
   * When it succeeds, the next poll starts from `poll.cursor`; when it fails, from the same
   * cursor as this one.
   */
  readonly onPoll: (poll: Poll) => Effect.Effect<void, E, R>
  /** Told of a poll that failed, or was not kept; polling goes on at the next interval. */
  readonly onFailure: (error: ConnectorError | E) => Effect.Effect<void, never, R>
}

/**
 * The interval a trigger declares.
 *
 * @since 0.2.0
 * @category utils
 */
export const intervalOf = (trigger: Trigger.PollingTrigger): Duration.Duration => Duration.decode(trigger.interval)

/**
 * Polls the trigger until interrupted: at once, then after each interval (counted from the
 * end of the previous poll, so that a slow provider is not asked twice at a time). Fails only
 * when the step cannot be prepared (its shape, type or parameters), is not a polling trigger,
 * or its interval is not positive.
 *
 * @since 0.2.0
 * @category constructors
 */
export const run = <E, R>(
  executor: Executor.Executor,
  step: Executor.TriggerStep,
  options: Options<E, R>
): Effect.Effect<never, InvalidInput, Connections | R> =>
  Effect.suspend(() => {
    const prepared = executor.prepareTrigger(step)
    if (Either.isLeft(prepared)) return Effect.fail(prepared.left)
    const { step: declared, trigger } = prepared.right
    const refuse = (message: string) => Effect.fail(invalidInput([{ path: "type", message }], `step "${declared.name}"`))
    if (trigger.kind !== "POLLING") return refuse(`${declared.type} is not a polling trigger`)
    const interval = options.interval === undefined ? intervalOf(trigger) : Duration.decode(options.interval)
    if (!Duration.greaterThan(interval, Duration.zero)) return refuse(`the polling interval must be positive`)
    let cursor = options.cursor
    // Suspended: each poll reads the cursor the last one kept.
    const once = Effect.suspend(() => Effect.flatMap(
      Effect.either(Effect.flatMap(executor.poll(prepared.right, cursor), (polled) => {
        const poll: Poll = { ...polled, baseline: cursor === undefined || cursor === null }
        return Effect.as(options.onPoll(poll), poll.cursor)
      })),
      Either.match({
        onLeft: options.onFailure,
        onRight: (next) => Effect.sync(() => void (cursor = next))
      })
    ))
    return Effect.forever(Effect.zipRight(once, Effect.sleep(interval)))
  })
