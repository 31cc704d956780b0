/**
 * The retry combinator of `ProviderClient`: an attempt retried by the policy, then once more
 * after a credentials refresh on a 401, with the secrets scrubbed from the final error.
 */
import * as Effect from "effect/Effect"
import type * as Schedule from "effect/Schedule"
import * as Auth from "../Auth.js"
import type * as Errors from "../ConnectorError.js"
import * as RetryPolicy from "../RetryPolicy.js"
import { settle } from "./accepted.js"
import { AttemptFailed } from "./attempt.js"
import { scrubError } from "./scrubError.js"

/** @internal What the combinator needs of a client, made once per client. */
export interface Retrying {
  readonly schedule: Schedule.Schedule<AttemptFailed, AttemptFailed>
  readonly retryWhile: (failure: AttemptFailed) => boolean
  readonly credentials: Auth.Credentials
}

/** @internal The policy's retries for one client. */
export const make = (credentials: Auth.Credentials, options: RetryPolicy.Settings | undefined): Retrying => {
  const policy = RetryPolicy.make(options)
  return {
    schedule: RetryPolicy.schedule<AttemptFailed>(policy),
    retryWhile: (failure) => RetryPolicy.shouldRetry(policy, failure),
    credentials
  }
}

/**
 * @internal `once` (whose failures `toAttempt` reads), retried as the policy says, refreshed
 * once on a 401; errors scrubbed. A success passes one failure handler and nothing else: the
 * mapping, the retries, the refresh and the scrubbing are all entered from it.
 */
export const retrying = <A, E>(
  self: Retrying,
  once: Effect.Effect<A, E>,
  toAttempt: (error: E) => AttemptFailed,
  info: Errors.RequestInfo,
  idempotent: boolean
): Effect.Effect<A, Errors.ConnectorError> => Effect.catchAll(once, recovery(self, once, toAttempt, info, idempotent))

/**
 * @internal What follows a first attempt's failure: `retrying`'s failure handler, for an
 * attempt that hands its failure over itself (one step of the fiber's fewer than the handler's
 * frame); `once` is then each retry.
 */
export const recovery = <A, E>(
  self: Retrying,
  once: Effect.Effect<A, E>,
  toAttempt: (error: E) => AttemptFailed,
  info: Errors.RequestInfo,
  idempotent: boolean
): (error: E) => Effect.Effect<A, Errors.ConnectorError> => {
  const { credentials, retryWhile, schedule } = self
  // The retries after a first failure, as the policy allows them (built then: a success pays nothing for them).
  const retry = (first: AttemptFailed): Effect.Effect<A, AttemptFailed> => {
    if (!retryWhile(first)) return Effect.fail(first)
    const attempt = Effect.mapError(once, toAttempt)
    let replayed = false
    let count = 1
    const again: Effect.Effect<A, AttemptFailed> = Effect.suspend(() => {
      if (!replayed) {
        replayed = true
        return Effect.fail(first)
      }
      count++
      return Effect.zipRight(
        Effect.logDebug(Auth.scrub(credentials.secrets, `retrying ${info.method} ${info.path}`)).pipe(
          Effect.annotateLogs({ attempt: count })
        ),
        attempt
      )
    })
    return Effect.retry(
      Effect.tapError(again, (failure) =>
        Effect.logDebug(Auth.scrub(
          credentials.secrets,
          `${info.method} ${info.path} failed: ${failure.error._tag}: ${failure.error.message}`
        ))),
      { schedule, while: retryWhile }
    )
  }
  const refresh = credentials.refresh
  const recover = (first: AttemptFailed): Effect.Effect<A, AttemptFailed> =>
    refresh === undefined ? retry(first) : Effect.catchAll(retry(first), (failure) =>
      failure.error._tag !== "AuthenticationFailed"
        ? Effect.fail(failure)
        : Effect.flatMap(
          Effect.mapError(refresh, (error) => new AttemptFailed(error, idempotent, false, false)),
          // The whole of it again from a first attempt.
          (renewed) => renewed ? Effect.catchAll(Effect.mapError(once, toAttempt), retry) : Effect.fail(failure)
        ))
  // Secrets are scrubbed once, here, from whatever reached the error: the provider's message
  // and body, the path (a token may be part of it), decoding details; then it is settled.
  const settled = (failure: AttemptFailed) => settle(scrubError(credentials.secrets, failure.error))
  return (error) => Effect.mapError(recover(toAttempt(error)), settled)
}
