/**
 * A client-side rate limiter per credential, sized to a provider's published limits.
 *
 * Each limit is a token bucket of `limit` tokens in which a token comes back exactly one
 * `interval` after it was taken. Unlike a bucket that refills continuously, it never lets
 * more than `limit` requests start within any window of `interval`, which is how providers
 * count (Trello: 100 requests per 10 s per token), so a batch runs at the full allowed rate.
 * A provider counts a request when it arrives, though, a little after it passed the gate: a
 * token comes back a margin later (`marginOf`), and a request that waits longer than that on
 * its way (a busy thread: 0.1-0.6 s for the last of a burst of 100 on a quiet machine, seconds
 * on a loaded one) may land in the window of one sent a full interval after it and be answered
 * 429, which `RetryPolicy` retries. Waiting is `Effect.sleep`, so it runs on `TestClock` in tests.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"

/**
 * A provider's published limit: at most `limit` requests per `interval`, per `scope`.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimit {
  /** What the limit counts per, e.g. "token" or "key"; shown in descriptions, never the credential. */
  readonly scope: string
  readonly limit: number
  readonly interval: Duration.DurationInput
}

/**
 * A limit applied to one credential: the credential is hashed, never kept.
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyedRateLimit extends RateLimit {
  readonly credential: string
}

class Bucket {
  private readonly returns: Array<number>
  private next = 0
  constructor(readonly limit: number, readonly intervalMillis: number) {
    this.returns = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY)
  }
  /** When the next token is back (a time in ms, possibly in the past). */
  nextFree(): number {
    return this.returns[this.next]!
  }
  /** Takes the next token for a request that starts at `start`; it comes back one interval later. */
  take(start: number): void {
    this.returns[this.next] = start + this.intervalMillis
    this.next = (this.next + 1) % this.limit
  }
}

/**
 * Paces requests under their limits.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimiter {
  /**
   * The gate of one credential's limits: an Effect that waits until a request under all of
   * them may start, and succeeds at once when under them. Resolve it once per connection.
   */
  readonly gate: (limits: ReadonlyArray<KeyedRateLimit>) => Effect.Effect<void>
}

/**
 * A token comes back this much later than one interval: the provider counts a request when it
 * arrives, a little after we sent it, and a request sent exactly one interval after another
 * may arrive inside the provider's window. 1 % of the interval, at least 50 ms.
 *
 * @since 0.1.0
 * @category utils
 */
export const marginOf = (intervalMillis: number): number => Math.max(50, Math.round(intervalMillis * 0.01))

const hashCredential = (scope: string, credential: string): string =>
  `${scope}:${createHash("sha256").update(credential).digest("base64url").slice(0, 22)}`

/**
 * A limiter with its own buckets. Buckets are created on first use of a credential.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): RateLimiter => {
  const buckets = new Map<string, Bucket>()
  const bucketOf = (limit: KeyedRateLimit): Bucket => {
    const key = `${hashCredential(limit.scope, limit.credential)}:${limit.limit}/${Duration.toMillis(Duration.decode(limit.interval))}`
    let bucket = buckets.get(key)
    if (bucket === undefined) {
      const interval = Duration.toMillis(Duration.decode(limit.interval))
      bucket = new Bucket(Math.max(1, Math.floor(limit.limit)), interval + marginOf(interval))
      buckets.set(key, bucket)
    }
    return bucket
  }
  return {
    gate: (limits) => {
      if (limits.length === 0) return Effect.void
      const taken = limits.map(bucketOf)
      return Effect.flatMap(Clock.currentTimeMillis, (now) => {
        // All limits must allow the same start time, so the tokens are taken only once it is known.
        let start = now
        for (const bucket of taken) start = Math.max(start, bucket.nextFree())
        for (const bucket of taken) bucket.take(start)
        return start > now ? Effect.sleep(Duration.millis(start - now)) : Effect.void
      })
    }
  }
}

/**
 * The limiter in use. By default one per process, shared by every connection, so that two
 * steps with the same credential share its budget; tests provide their own.
 *
 * @since 0.1.0
 * @category services
 */
export class RateLimiters extends Context.Reference<RateLimiters>()("@x/core/RateLimiters", {
  defaultValue: (): RateLimiter => make()
}) {}
