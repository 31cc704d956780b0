/**
 * A client-side rate limiter per credential, sized to a provider's published limits.
 *
 * Each limit is a bucket of `limit` tokens. A request holds a token of each of its limits from
 * its start until its answer (or its failure, or its interruption), and the token comes back
 * one `interval` after that answer. A provider counts a request when it arrives, which is after
 * its start and before its answer, however long it waited on the way (a busy thread, a loaded
 * machine), so no window of `interval` ever sees more than `limit` of them arrive: the limit
 * holds by construction (Trello: 100 requests per 10 s per token), with no margin to guess for
 * a request's way (`marginMillis` is only the clocks' resolution). A request waits for the
 * earliest token back of each of its limits (tokens come back out of order), and all of them
 * give it one start.
 *
 * The algorithm is core's (`takeAt`, `releaseAt`, over each bucket's tokens, under the key of
 * `bucketOf`); where the tokens are kept is a `RateLimiterStore`: in memory by default
 * (`memoryStore`), or anywhere that applies the algorithm atomically to the buckets of a
 * request (the runner keeps them in PostgreSQL for several runners, and a worker thread asks
 * another thread's store). A held token whose holder never answers (a process gone) comes
 * back at the latest `holdLimitMillis` and one interval after its start: a request that has
 * not arrived a minute after its start is presumed never to.
 * Waiting is `Effect.sleep`, so it runs on `TestClock` in tests. A request that had to wait
 * reports its wait to the observer in its fiber (`observingWaits`), so that a caller can say
 * which steps were slow because of a rate limit.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Schema from "effect/Schema"
import { createHash, randomUUID } from "node:crypto"
import * as Immediate from "./internal/immediatePermit.js"
import { type Held, MemoryBucket } from "./internal/memoryBuckets.js"
import { nowOf } from "./internal/fiberNow.js"

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

/**
 * One limit of one credential as a store keeps it: its key (the scope, a SHA-256 of the
 * credential, the limit and its interval: never the credential), its size and its interval.
 *
 * @since 0.5.0
 * @category models
 */
export interface Bucket {
  readonly key: string
  readonly limit: number
  readonly intervalMillis: number
}

/**
 * A bucket's token: free from a time (ms), or held by the request `holder` since `start`,
 * back at the latest at `latest` if its holder never gives it back.
 *
 * @since 0.5.0
 * @category models
 */
export const Token = Schema.Union(
  Schema.Struct({ free: Schema.Number }),
  Schema.Struct({ holder: Schema.String, start: Schema.Number, latest: Schema.Number })
)

/**
 * A bucket's token, as the algorithm reads and writes it.
 *
 * @since 0.5.0
 * @category models
 */
export type Token = typeof Token.Type

/**
 * A bucket's tokens as a store keeps them: those taken so far (the ones never taken are free).
 *
 * @since 0.5.0
 * @category models
 */
export const Tokens = Schema.Array(Token)

/**
 * A bucket and its tokens, which the algorithm reads.
 *
 * @since 0.5.0
 * @category models
 */
export interface BucketState {
  readonly bucket: Bucket
  readonly tokens: ReadonlyArray<Token>
}

/**
 * What taking at a time gives: every bucket's tokens with one held for the request from
 * `start`, or none of them when a bucket has every token held (ask again in `retryMillis`).
 *
 * @since 0.5.0
 * @category models
 */
export type TakeResult =
  | { readonly _tag: "Taken"; readonly start: number; readonly tokens: ReadonlyArray<ReadonlyArray<Token>> }
  | { readonly _tag: "Full"; readonly retryMillis: number }

/**
 * What a store answers a take: the request may start in `waitMillis` (its tokens are held for
 * it meanwhile), or every token of a bucket is held (nothing is taken: ask again).
 *
 * @since 0.5.0
 * @category models
 */
export type Taken =
  | { readonly _tag: "Taken"; readonly waitMillis: number }
  | { readonly _tag: "Full"; readonly retryMillis: number }

/**
 * Where the tokens are kept. Each call applies the algorithm (`takeAt`, `releaseAt`) to the
 * given buckets at once, by the store's own clock; buckets come in key order, each once. A store that
 * cannot reach its tokens decides what to do (the runner's paces alone for a while): neither
 * call fails.
 *
 * @since 0.5.0
 * @category models
 */
export interface RateLimiterStore {
  /** Takes a token of every bucket for `holder`, all for one start, or none. */
  readonly take: (buckets: ReadonlyArray<Bucket>, holder: string) => Effect.Effect<Taken>
  /** Gives `holder`'s tokens back: one interval after now when the request was sent, else at its start. */
  readonly release: (buckets: ReadonlyArray<Bucket>, holder: string, sent: boolean) => Effect.Effect<void>
}

/**
 * A request's tokens, held until `release` (which gives them back once, however often it runs).
 *
 * @since 0.5.0
 * @category models
 */
export interface Permit {
  readonly release: Effect.Effect<void>
}

/**
 * Paces requests under their limits.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimiter {
  /**
   * Waits until a request under all of `limits` may start and holds a token of each for it:
   * run it uninterruptibly with the permit's release (`withPermit` does). Interrupted while
   * it waits, it gives the tokens back. Resolve it once per connection.
   */
  readonly take: (limits: ReadonlyArray<KeyedRateLimit>) => Effect.Effect<Permit>
  /**
   * Runs a request under all of `limits`: it waits for its start, and its tokens come back
   * one interval after it ends (succeeds, fails or is interrupted). Resolve it once per connection.
   */
  readonly withPermit: (
    limits: ReadonlyArray<KeyedRateLimit>
  ) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * How long a token may be held before it is presumed given back (its holder gone): a request
 * arrives before this after its start, or never.
 *
 * @since 0.5.0
 * @category constants
 */
export const holdLimitMillis = 60_000

/**
 * A token comes back this much later than one interval after its request's answer. Not for
 * the request's way to the provider (the answer follows its arrival), only for time's
 * resolution: clocks are read in whole milliseconds (a time read just before a tick is almost
 * one late), a database's clock is rounded, and Node's timers may fire a millisecond early.
 * It costs 0.05 % of a 10 s interval.
 *
 * @since 0.5.0
 * @category constants
 */
export const marginMillis = 5

/**
 * The bucket of a limit of a credential (its key hashes the credential).
 *
 * @since 0.5.0
 * @category algorithm
 */
export const bucketOf = (limit: KeyedRateLimit): Bucket => {
  const intervalMillis = Duration.toMillis(Duration.decode(limit.interval))
  const size = Math.max(1, Math.floor(limit.limit))
  const hashed = createHash("sha256").update(limit.credential).digest("base64url").slice(0, 22)
  return { key: `${limit.scope}:${hashed}:${size}/${intervalMillis}`, limit: size, intervalMillis }
}

/** When a token is back: a free one at its time; a held one only once its holder is presumed gone. */
const backAt = (token: Token, now: number): number =>
  "free" in token ? token.free : token.latest <= now ? token.latest : Number.POSITIVE_INFINITY

/**
 * Takes a token of each bucket for `holder` at `now`: each bucket's earliest back (tokens
 * come back out of order), the start the latest of them (all limits of a request give it one
 * start). When a bucket has every token held by a request in flight, none is taken.
 *
 * @since 0.5.0
 * @category algorithm
 */
export const takeAt = (states: ReadonlyArray<BucketState>, now: number, holder: string): TakeResult => {
  const chosen: Array<number> = []
  let start = now
  let retryMillis = Number.POSITIVE_INFINITY
  for (const { bucket, tokens } of states) {
    // A token never taken is free; otherwise the earliest back (tokens return out of order).
    let index = tokens.length
    let earliest = Number.NEGATIVE_INFINITY
    if (tokens.length >= bucket.limit) {
      index = 0
      earliest = backAt(tokens[0]!, now)
      for (let i = 1; i < bucket.limit; i++) {
        const at = backAt(tokens[i]!, now)
        if (at < earliest) {
          earliest = at
          index = i
        }
      }
    }
    if (earliest === Number.POSITIVE_INFINITY) {
      // Every token is held by a request in flight: none comes back before an interval after
      // its answer, which is after its start and after now, so asking again then loses no time.
      for (const token of tokens) {
        if (!("free" in token)) retryMillis = Math.min(retryMillis, Math.max(token.start, now) + bucket.intervalMillis - now, token.latest - now)
      }
    }
    chosen.push(index)
    start = Math.max(start, earliest)
  }
  if (retryMillis < Number.POSITIVE_INFINITY) return { _tag: "Full", retryMillis: Math.max(1, retryMillis) }
  // All limits give the request one start, so the tokens are taken once it is known.
  return {
    _tag: "Taken",
    start,
    tokens: states.map(({ bucket, tokens }, i) => {
      const next = tokens.slice(0, bucket.limit)
      next[chosen[i]!] = { holder, start, latest: start + holdLimitMillis + bucket.intervalMillis + marginMillis }
      return next
    })
  }
}

/**
 * Gives `holder`'s token of a bucket back: one interval (and `marginMillis`) after
 * `answeredAt`, or, for a request never sent (`undefined`), at its start.
 *
 * @since 0.5.0
 * @category algorithm
 */
export const releaseAt = (state: BucketState, holder: string, answeredAt: number | undefined): ReadonlyArray<Token> =>
  state.tokens.map((token) =>
    "holder" in token && token.holder === holder
      // Never sent: back when it would have started (no request of it can arrive).
      ? { free: answeredAt === undefined ? token.start : answeredAt + state.bucket.intervalMillis + marginMillis }
      : token
  )

/**
 * A store in this process's memory (a JavaScript thread's: each take and release runs whole).
 * It applies `takeAt` and `releaseAt`'s algorithm, giving the same starts, over buckets kept
 * for it (`internal/memoryBuckets`): a call costs O(1) where times come in order (as the clock
 * gives them; O(log limit) for those that do not), not a scan and a copy of every token, so a
 * large limit costs no more per call than a small one.
 *
 * @since 0.5.0
 * @category constructors
 */
export const memoryStore = (): RateLimiterStore => {
  const buckets = new Map<string, MemoryBucket>()
  const bucketFor = (bucket: Bucket): MemoryBucket => {
    let kept = buckets.get(bucket.key)
    if (kept === undefined) buckets.set(bucket.key, kept = new MemoryBucket(bucket.limit, bucket.intervalMillis))
    return kept
  }
  // The buckets of one request's limits, each once (a bucket named twice gives one token, as
  // `takeAt` over its array does: a limiter names each once, another caller may not).
  const keptOf = (wanted: ReadonlyArray<Bucket>): Array<MemoryBucket> => {
    const kept: Array<MemoryBucket> = []
    for (const bucket of wanted) {
      const memory = bucketFor(bucket)
      if (!kept.includes(memory)) kept.push(memory)
    }
    return kept
  }
  const sync: SynchronousStore = {
    take: (wanted, holder, now) => {
      const kept = keptOf(wanted)
      let start = now
      let retryMillis = Number.POSITIVE_INFINITY
      for (const bucket of kept) {
        const earliest = bucket.earliest(now)
        if (earliest === Number.POSITIVE_INFINITY) retryMillis = Math.min(retryMillis, bucket.retryMillis(now))
        else start = Math.max(start, earliest)
      }
      if (retryMillis < Number.POSITIVE_INFINITY) return { _tag: "Full", retryMillis: Math.max(1, retryMillis) }
      for (const bucket of kept) bucket.take(now, holder, start, start + holdLimitMillis + bucket.intervalMillis + marginMillis)
      return { _tag: "Taken", waitMillis: start - now }
    },
    bucketsOf: keptOf,
    takeFree: (kept, now) => {
      for (let i = 0; i < kept.length; i++) if (kept[i]!.earliest(now) > now) return undefined
      const tokens: Array<Held> = new Array(kept.length)
      for (let i = 0; i < kept.length; i++) {
        const bucket = kept[i]!
        tokens[i] = bucket.take(now, undefined, now, now + holdLimitMillis + bucket.intervalMillis + marginMillis)
      }
      return tokens
    },
    release: (held, holder, answeredAt) => {
      for (const bucket of held) buckets.get(bucket.key)?.release(holder, answeredAt, marginMillis)
    },
    releaseFree: (tokens, answeredAt) => {
      for (let i = 0; i < tokens.length; i++) tokens[i]!.bucket.releaseToken(tokens[i]!, answeredAt, marginMillis)
    }
  }
  const store: RateLimiterStore = {
    // Synchronous: each runs whole, so it is atomic.
    take: (wanted, holder) => Effect.map(Clock.currentTimeMillis, (now) => sync.take(wanted, holder, now)),
    release: (held, holder, sent) => Effect.map(Clock.currentTimeMillis, (now) => sync.release(held, holder, sent ? now : undefined))
  }
  synchronousStores.set(store, sync)
  return store
}

/** A store whose calls need no effect: the memory store's, which a limiter on it calls directly. */
interface SynchronousStore {
  readonly take: (buckets: ReadonlyArray<Bucket>, holder: string, now: number) => Taken
  /** The store's buckets of these, each once: what `takeFree` takes from (a limiter finds them once). */
  readonly bucketsOf: (buckets: ReadonlyArray<Bucket>) => ReadonlyArray<MemoryBucket>
  /**
   * Takes a token of each bucket when every one has a token back at `now` (no wait), for no
   * holder: the caller gives them back with `releaseFree`, and no holder's name is made or
   * looked up. Otherwise takes nothing.
   */
  readonly takeFree: (buckets: ReadonlyArray<MemoryBucket>, now: number) => ReadonlyArray<Held> | undefined
  readonly release: (buckets: ReadonlyArray<Bucket>, holder: string, answeredAt: number | undefined) => void
  readonly releaseFree: (tokens: ReadonlyArray<Held>, answeredAt: number | undefined) => void
}

const synchronousStores = new WeakMap<RateLimiterStore, SynchronousStore>()

/**
 * How long a request waited for its start: `millis` in all (its waits for a token held by a
 * request in flight, then for the earliest token back), under the limits of these `scopes`
 * (e.g. "token", "key": never the credential).
 *
 * @since 0.6.0
 * @category models
 */
export interface Wait {
  readonly scopes: ReadonlyArray<string>
  readonly millis: number
}

/**
 * Told of each wait of a request of this fiber (and of the fibers it forks), once the request
 * may start; `undefined` (the default) when nobody asks.
 *
 * @since 0.6.0
 * @category fiber refs
 */
export const currentWaitObserver: FiberRef.FiberRef<((wait: Wait) => Effect.Effect<void>) | undefined> = FiberRef.unsafeMake<
  ((wait: Wait) => Effect.Effect<void>) | undefined
>(undefined)

/**
 * Runs `effect` with `observe` told of every wait of its requests for their rate limits
 * (a request that starts at once is not reported).
 *
 * @since 0.6.0
 * @category combinators
 */
export const observingWaits = (observe: (wait: Wait) => Effect.Effect<void>) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.locally(effect, currentWaitObserver, observe)

const reportWait = (wait: Wait): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(currentWaitObserver), (observe) => observe === undefined ? Effect.void : observe(wait))

const noPermit: Permit = { release: Effect.void }

/**
 * A permit of the memory store's tokens taken for no holder: given back through the tokens in
 * the caller's step (`releaseNow`), or as an effect of one step where a caller asks for one. A
 * class, not an object literal: a literal with a getter is built by V8's runtime, slowly, on
 * every request.
 */
class FreePermit implements Immediate.ImmediatePermit {
  readonly _tag = "Now"
  private released = false

  constructor(private readonly store: SynchronousStore, private readonly tokens: ReadonlyArray<Held>) {}

  releaseNow(fiber: Fiber.RuntimeFiber<any, any>): void {
    if (this.released) return
    this.released = true
    this.store.releaseFree(this.tokens, nowOf(fiber))
  }

  get release(): Effect.Effect<void> {
    return Effect.withFiberRuntime<void>((fiber) => {
      this.releaseNow(fiber)
      return Effect.void
    })
  }
}

/**
 * A limiter on a store (by default one of its own in memory). Buckets are created on first use
 * of a credential.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (store: RateLimiterStore = memoryStore()): RateLimiter => {
  const sync = synchronousStores.get(store)
  // A holder names one request's tokens: unique across processes (a shared store's tokens are
  // every runner's), without a random UUID per request.
  const prefix = randomUUID()
  let taken = 0
  const take = (limits: ReadonlyArray<KeyedRateLimit>): Effect.Effect<Permit> => {
    if (limits.length === 0) return Effect.succeed(noPermit)
    // A store takes its buckets in one order, so that two takes never wait on each other in a cycle.
    const sorted = limits.map(bucketOf).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    // A limit named twice (two identical limits of a connection) is one bucket: one token of it.
    const buckets = sorted.filter((bucket, i) => i === 0 || bucket.key !== sorted[i - 1]!.key)
    const scopes = [...new Set(limits.map((limit) => limit.scope))]
    const permitOf = (holder: string): Permit => {
      let released = false
      return {
        release: Effect.suspend(() => {
          if (released) return Effect.void
          released = true
          return store.release(buckets, holder, true)
        })
      }
    }
    // What a store answered: the permit, or the wait for it. The store's calls run whole; only
    // the waits can be interrupted, even where the caller made the permit's taking and its
    // release uninterruptible (`withPermit`). `waited`: the time slept so far for a full
    // bucket, reported with the last wait.
    const answered = (holder: string, answer: Taken, waited: number): Effect.Effect<Permit> => {
      if (answer._tag === "Full") {
        return Effect.zipRight(
          Effect.interruptible(Effect.sleep(Duration.millis(answer.retryMillis))),
          Effect.flatMap(store.take(buckets, holder), (next) => answered(holder, next, waited + answer.retryMillis))
        )
      }
      const permit = permitOf(holder)
      if (answer.waitMillis <= 0) return waited > 0 ? Effect.as(reportWait({ scopes, millis: waited }), permit) : Effect.succeed(permit)
      return Effect.interruptible(Effect.sleep(Duration.millis(answer.waitMillis))).pipe(
        Effect.onInterrupt(() => store.release(buckets, holder, false)),
        Effect.zipRight(reportWait({ scopes, millis: waited + answer.waitMillis })),
        Effect.as(permit)
      )
    }
    // In memory, a token free now is taken in the fiber's step, with no effect around it
    // (`ProviderClient` takes it in a step of its own: `internal/immediatePermit`).
    if (sync !== undefined) {
      // This client's buckets in the store, found at its first take.
      let memoryBuckets: ReadonlyArray<MemoryBucket> | undefined
      // A token of each bucket back now: taken for no holder, given back through the tokens.
      const takeFree: Immediate.TakeFree = (fiber) => {
        const free = sync.takeFree(memoryBuckets ??= sync.bucketsOf(buckets), nowOf(fiber))
        return free === undefined ? undefined : new FreePermit(sync, free)
      }
      const takeNow: Immediate.TakeNow = (fiber) => {
        const free = takeFree(fiber)
        if (free !== undefined) return free
        const now = nowOf(fiber)
        // Otherwise a wait (a token back later, or none while every one is held), for a holder.
        const holder = `${prefix}:${taken++}`
        return { _tag: "Later", wait: Effect.uninterruptible(answered(holder, sync.take(buckets, holder, now), 0)) }
      }
      return Immediate.register(
        Effect.withFiberRuntime<Permit>((fiber) => {
          const result = takeNow(fiber)
          return result._tag === "Now" ? Effect.succeed(result) : result.wait
        }),
        takeNow,
        takeFree
      )
    }
    return Effect.uninterruptible(Effect.suspend(() => {
      const holder = `${prefix}:${taken++}`
      return Effect.flatMap(store.take(buckets, holder), (answer) => answered(holder, answer, 0))
    }))
  }
  return {
    take,
    withPermit: (limits) => {
      const taking = take(limits)
      return (effect) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(taking, (permit) => Effect.ensuring(restore(effect), permit.release))
        )
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
