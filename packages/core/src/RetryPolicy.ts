/**
 * When and how a failed request is retried: exponential backoff with jitter, a bounded
 * number of attempts, and the provider's `Retry-After` honoured (seconds or an HTTP date).
 *
 * What may be retried depends on whether the request is idempotent: GET, HEAD, PUT and
 * DELETE are retried on 429, 5xx and transport failures; a request that creates something
 * (POST, PATCH) only when the provider provably did not process it (429, 503, a connection
 * that was refused before anything was sent), never after a read timeout, so a retry never
 * creates a second record.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Schedule from "effect/Schedule"

/**
 * How a client retries (all optional).
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Retries after the first attempt. Default 4. */
  readonly maxRetries?: number
  /** The first backoff delay, doubled on each retry. Default 250 ms. */
  readonly baseDelay?: Duration.DurationInput
  /** The longest backoff delay. Default 10 s. */
  readonly maxDelay?: Duration.DurationInput
  /** A `Retry-After` longer than this is not waited for: the error is returned at once. Default 60 s. */
  readonly maxRetryAfter?: Duration.DurationInput
}

/**
 * The retry settings, with their defaults applied.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryPolicy {
  readonly maxRetries: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
  readonly maxRetryAfter: Duration.Duration
}

/**
 * The client on this dispatcher.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Settings = {}): RetryPolicy => ({
  maxRetries: settings.maxRetries ?? 4,
  baseDelay: Duration.decode(settings.baseDelay ?? "250 millis"),
  maxDelay: Duration.decode(settings.maxDelay ?? "10 seconds"),
  maxRetryAfter: Duration.decode(settings.maxRetryAfter ?? "60 seconds")
})

/**
 * What the retry loop knows of one failed attempt.
 *
 * @since 0.1.0
 * @category models
 */
export interface Attempt {
  /** The request is idempotent (GET, HEAD, PUT, DELETE, OPTIONS). */
  readonly idempotent: boolean
  /** The failure is transient: 429, 5xx but 501, a transport failure or a timeout. */
  readonly transient: boolean
  /** The provider provably did not process the request: 429, 503, a refused connection. */
  readonly notProcessed: boolean
  readonly retryAfter?: Duration.Duration | undefined
}

/**
 * Whether an attempt that failed this way may be tried again under this policy.
 *
 * @since 0.1.0
 * @category utils
 */
export const shouldRetry = (policy: RetryPolicy, attempt: Attempt): boolean =>
  (attempt.idempotent ? attempt.transient : attempt.notProcessed) &&
  (attempt.retryAfter === undefined || Duration.lessThanOrEqualTo(attempt.retryAfter, policy.maxRetryAfter))

/**
 * The schedule of retries: exponential backoff from `baseDelay`, jittered, capped at
 * `maxDelay`, never sooner than the attempt's `Retry-After`, at most `maxRetries` times.
 *
 * @since 0.1.0
 * @category constructors
 */
export const schedule = <A extends Attempt>(policy: RetryPolicy): Schedule.Schedule<A, A> =>
  Schedule.exponential(policy.baseDelay, 2).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, policy.maxDelay)),
    Schedule.zipRight(Schedule.identity<A>()),
    Schedule.modifyDelay((attempt, delay) =>
      attempt.retryAfter === undefined ? delay : Duration.max(delay, attempt.retryAfter)
    ),
    Schedule.intersect(Schedule.recurs(policy.maxRetries)),
    Schedule.map(([attempt]) => attempt)
  )

/**
 * Parses a `Retry-After` header: delay-seconds, or an HTTP date relative to `now` (ms).
 * An unparsable value is ignored; a date in the past means "now".
 *
 * @since 0.1.0
 * @category utils
 */
export const parseRetryAfter = (header: string | undefined, now: number): Duration.Duration | undefined => {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Duration.seconds(Number(value))
  // An HTTP date starts with the day's name ("Sat, 21 Nov 2026 10:00:30 GMT"); Date.parse alone
  // would also take "-1" or "2" for dates.
  if (!/^[A-Za-z]{3},? /.test(value)) return undefined
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Duration.millis(Math.max(0, date - now))
}

/**
 * Methods whose repetition has the same effect as one request (RFC 9110 §9.2.2).
 *
 * @since 0.1.0
 * @category utils
 */
export const isIdempotent = (method: string): boolean =>
  method === "GET" || method === "HEAD" || method === "PUT" || method === "DELETE" || method === "OPTIONS"
