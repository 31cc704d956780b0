/**
 * Durations written in workflow files (`timeout`, `retry.delay`, a wait's `delay`): Effect's
 * `Duration.decode` text forms, `"<amount> <unit>"` such as `"30 seconds"`, `"2 hours"` or
 * `"500 millis"`. Nothing else: no bare numbers (milliseconds or seconds?), no negative or
 * endless durations.
 *
 * @since 0.7.0
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

/**
 * What a duration may look like, for messages.
 *
 * @since 0.7.0
 * @category constants
 */
export const accepted =
  'text "<amount> <unit>" with a unit of nanos, micros, millis, seconds, minutes, hours, days or weeks (singular too), e.g. "30 seconds", "2 hours", "500 millis"'

// Effect's own pattern (`Duration.decode`), stated here so that a text it would read as negative is refused with a clear message.
const form = /^(-?\d+(?:\.\d+)?)\s+(nanos?|micros?|millis?|seconds?|minutes?|hours?|days?|weeks?)$/

/**
 * A duration from a workflow file's value, or why it is not one.
 *
 * @since 0.7.0
 * @category parsing
 */
export const parse = (text: unknown): Either.Either<Duration.Duration, string> => {
  if (typeof text !== "string") {
    return Either.left(`expected a duration, ${accepted}; got ${text === null ? "null" : Array.isArray(text) ? "a list" : `a ${typeof text}`}`)
  }
  const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
  const match = form.exec(text)
  if (match === null) return Either.left(`${shown} is not a duration: expected ${accepted}`)
  if (match[1]!.startsWith("-")) return Either.left(`${shown} is negative: a duration is zero or more`)
  return Option.match(Duration.decodeUnknown(text), {
    onNone: () => Either.left(`${shown} is not a duration: expected ${accepted}`),
    onSome: (duration) =>
      Duration.isFinite(duration) ? Either.right(duration) : Either.left(`${shown} is too long: a duration must end`)
  })
}
