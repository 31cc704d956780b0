import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Auth, ProviderClient, RateLimiter, RequestDeadline } from "../src/index.js"
import * as Immediate from "../src/internal/immediatePermit.js"

const token = (credential: string, limit: number, interval: Duration.DurationInput): RateLimiter.KeyedRateLimit => ({
  scope: "token",
  credential,
  limit,
  interval
})

/**
 * `n` requests at once under `limits`, each taking `duration(i)` from its start to its answer:
 * their start times, once the test's clock has moved far enough.
 */
const startTimes = (
  limiter: RateLimiter.RateLimiter,
  limits: ReadonlyArray<RateLimiter.KeyedRateLimit>,
  n: number,
  duration: (i: number) => number = () => 0
) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    const request = limiter.withPermit(limits)
    const fiber = yield* Effect.fork(Effect.forEach(
      Array.from({ length: n }, (_, i) => i),
      (i) => request(Effect.flatMap(Clock.currentTimeMillis, (t) => {
        times.push(t)
        return duration(i) > 0 ? Effect.sleep(duration(i)) : Effect.void
      })),
      { concurrency: "unbounded" }
    ))
    yield* TestClock.adjust("10 minutes")
    yield* Fiber.join(fiber)
    return times.sort((a, b) => a - b)
  })

/** The most starts in any window of `interval`. */
const most = (times: ReadonlyArray<number>, interval: number) => {
  let result = 0
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= interval) j++
    result = Math.max(result, i - j + 1)
  }
  return result
}

/**
 * A second store, as a database keeps its rows: each bucket's tokens as JSON (through `Tokens`),
 * by a clock of its own (a database's, 5 s ahead of the limiter's).
 */
const rowStore = (): RateLimiter.RateLimiterStore => {
  const rows = new Map<string, string>()
  const codec = Schema.parseJson(RateLimiter.Tokens)
  const read = (bucket: RateLimiter.Bucket): RateLimiter.BucketState => ({
    bucket,
    tokens: rows.has(bucket.key) ? Schema.decodeUnknownSync(codec)(rows.get(bucket.key)) : []
  })
  const write = (bucket: RateLimiter.Bucket, tokens: ReadonlyArray<RateLimiter.Token>) => rows.set(bucket.key, Schema.encodeSync(codec)(tokens))
  const now = Effect.map(Clock.currentTimeMillis, (t) => t + 5_000)
  return {
    take: (buckets, holder) =>
      Effect.map(now, (now) => {
        const taken = RateLimiter.takeAt(buckets.map(read), now, holder)
        if (taken._tag === "Full") return taken
        buckets.forEach((bucket, i) => write(bucket, taken.tokens[i]!))
        return { _tag: "Taken", waitMillis: taken.start - now } as const
      }),
    release: (buckets, holder, sent) =>
      Effect.map(now, (now) => {
        for (const bucket of buckets) write(bucket, RateLimiter.releaseAt(read(bucket), holder, sent ? now : undefined))
      })
  }
}

/**
 * A seeded sequence on a clock moved by hand (TestClock's adjust yields to the scheduler: slow
 * over thousands of steps), and a store of `takeAt` and `releaseAt` over plain arrays, as the
 * memory store used to keep them, to compare a store with.
 */
const byHand = (seed: number) => {
  let time = 0
  let state = seed
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => time,
    unsafeCurrentTimeNanos: () => BigInt(time) * 1_000_000n,
    currentTimeMillis: Effect.sync(() => time),
    currentTimeNanos: Effect.sync(() => BigInt(time) * 1_000_000n),
    sleep: () => Effect.void
  }
  // Mostly a few milliseconds, sometimes up to 200, now and then 20 s (holders pass their hold limit).
  const advance = () => {
    const step = random()
    time += step < 0.02 ? 20_000 : Math.floor(random() * (step < 0.12 ? 200 : 3))
  }
  const rows = new Map<string, ReadonlyArray<RateLimiter.Token>>()
  const read = (bucket: RateLimiter.Bucket): RateLimiter.BucketState => ({ bucket, tokens: rows.get(bucket.key) ?? [] })
  const arrays: RateLimiter.RateLimiterStore = {
    take: (buckets, holder) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const taken = RateLimiter.takeAt(buckets.map(read), now, holder)
        if (taken._tag === "Full") return taken
        buckets.forEach((bucket, i) => rows.set(bucket.key, taken.tokens[i]!))
        return { _tag: "Taken", waitMillis: taken.start - now } as const
      }),
    release: (buckets, holder, sent) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        for (const bucket of buckets) rows.set(bucket.key, RateLimiter.releaseAt(read(bucket), holder, sent ? now : undefined))
      })
  }
  return { clock, random, advance, arrays }
}

describe("RateLimiter", () => {
  it.effect("lets `limit` requests start at once, and each next one when a token comes back an interval after its answer", () =>
    Effect.gen(function*() {
      const times = yield* startTimes(RateLimiter.make(), [token("t1", 3, "10 seconds")], 7)
      // Each is answered at once; its token is back 10 s (and the 5 ms margin) later.
      expect(times).toEqual([0, 0, 0, 10_005, 10_005, 10_005, 20_010])
    }))

  it.effect("never lets more than `limit` start within any window of `interval`, and loses no time", () =>
    Effect.gen(function*() {
      const times = yield* startTimes(RateLimiter.make(), [token("t1", 5, "2 seconds")], 30, (i) => i % 7 * 300)
      expect(most(times, 2000)).toBe(5)
      // Answered at once, the 60th starts after the 5 intervals it must wait, and no later.
      const instant = yield* startTimes(RateLimiter.make(), [token("t1", 10, "2 seconds")], 60)
      expect(most(instant, 2000)).toBe(10)
      expect(instant.at(-1)! - instant[0]!).toBe(5 * 2005)
    }))

  it.effect("a token held by a slow request comes back one interval after its answer, not after its start", () =>
    Effect.gen(function*() {
      // The provider answers each request 5 s after it is sent; the limit is 1 per 10 s.
      const sent: Array<number> = []
      const http = HttpClient.make((request) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) => {
          sent.push(at)
          return Effect.as(Effect.sleep("5 seconds"), HttpClientResponse.fromWeb(request, new Response(null, { status: 204 })))
        })
      )
      const client = ProviderClient.makeWith(http, RateLimiter.make(), {
        baseUrl: "https://api.example.test",
        credentials: Auth.bearer(Redacted.make("a-token")),
        rateLimits: [token("a-token", 1, "10 seconds")]
      })
      const fiber = yield* Effect.fork(Effect.all([0, 1, 2].map(() => client.void({ method: "GET", path: "/x" })), { concurrency: "unbounded" }))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      // The first is answered at 5 s: the second may arrive 10 s later, at 15 s (not at 10 s,
      // where a provider that saw the first arrive at 5 s would still count it).
      expect(sent).toEqual([0, 15_005, 30_010])
    }))

  it.effect("every limit of a request gives it one start: per token and per key", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const perKey: RateLimiter.KeyedRateLimit = { scope: "key", credential: "k", limit: 3, interval: "10 seconds" }
      const a = limiter.withPermit([token("a", 2, "10 seconds"), perKey])
      const b = limiter.withPermit([token("b", 2, "10 seconds"), perKey])
      const now = Clock.currentTimeMillis
      expect(yield* a(now)).toBe(0)
      expect(yield* a(now)).toBe(0)
      expect(yield* b(now)).toBe(0)
      // b's own limit would allow a second request now, but the key's three are held.
      const second = yield* Effect.fork(b(now))
      yield* TestClock.adjust("10004 millis")
      expect(second.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      expect(yield* Fiber.join(second)).toBe(10_005)
      // Then a's two tokens are back, and the key's two others: a may start twice more at
      // once, and a third time only when its own tokens come back, with the key's that it holds.
      expect(yield* a(now)).toBe(10_005)
      expect(yield* a(now)).toBe(10_005)
      const third = yield* Effect.fork(a(now))
      yield* TestClock.adjust("10004 millis")
      expect(third.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      expect(yield* Fiber.join(third)).toBe(20_010)
    }))

  it.effect("separate credentials have separate budgets; the same credential shares one", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const a1 = limiter.withPermit([token("a", 1, "1 second")])
      const a2 = limiter.withPermit([token("a", 1, "1 second")])
      const b = limiter.withPermit([token("b", 1, "1 second")])
      yield* a1(Effect.void)
      yield* b(Effect.void)
      expect(yield* Clock.currentTimeMillis).toBe(0)
      const fiber = yield* Effect.fork(a2(Clock.currentTimeMillis))
      yield* TestClock.adjust("1004 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      expect(yield* Fiber.join(fiber)).toBe(1005)
    }))

  it.effect("a failure or an interruption gives the tokens back: held ones an interval after it, waiting ones at once", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const now = Clock.currentTimeMillis
      // Failed 2 s after its start: back 10 s (and the margin) after that.
      const failing = limiter.withPermit([token("failing", 1, "10 seconds")])
      const failed = yield* Effect.fork(Effect.flip(failing(Effect.zipRight(Effect.sleep("2 seconds"), Effect.fail("boom")))))
      yield* TestClock.adjust("2 seconds")
      expect(yield* Fiber.join(failed)).toBe("boom")
      const afterFailure = yield* Effect.fork(failing(now))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(afterFailure)).toBe(12_005)
      // Interrupted 1 s after its start: back 10 s after that.
      const interrupted = limiter.withPermit([token("interrupted", 1, "10 seconds")])
      const held = yield* Effect.fork(interrupted(Effect.never))
      yield* TestClock.adjust("1 second")
      const interruptedAt = yield* now
      yield* Fiber.interrupt(held)
      const afterInterruption = yield* Effect.fork(interrupted(now))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(afterInterruption)).toBe(interruptedAt + 10_005)
      // Interrupted while it waits for its start: it never started, the next one is not delayed.
      const waited = limiter.withPermit([token("waited", 1, "10 seconds")])
      const first = yield* waited(now)
      const waiting = yield* Effect.fork(waited(now))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(waiting)
      const next = yield* Effect.fork(waited(now))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(next)).toBe(first + 10_005)
    }))

  it.effect("every token held: a request waits for the first answer and one interval", () =>
    Effect.gen(function*() {
      // Two tokens, requests of 30 s and 4 s at once: the third starts 4 + 10 s (and the margin) after.
      const times = yield* startTimes(RateLimiter.make(), [token("t", 2, "10 seconds")], 3, (i) => (i === 0 ? 30_000 : 4_000))
      expect(times).toEqual([0, 0, 14_005])
    }))

  it.effect("a token whose holder never gives it back comes back at its latest: the hold limit and one interval after its start", () =>
    Effect.gen(function*() {
      const store = RateLimiter.memoryStore()
      const limit = token("t", 1, "10 seconds")
      // A holder that is gone: it took the token and will never release it.
      expect(yield* store.take([RateLimiter.bucketOf(limit)], "gone")).toEqual({ _tag: "Taken", waitMillis: 0 })
      const fiber = yield* Effect.fork(RateLimiter.make(store).withPermit([limit])(Clock.currentTimeMillis))
      yield* TestClock.adjust("5 minutes")
      expect(yield* Fiber.join(fiber)).toBe(RateLimiter.holdLimitMillis + 10_000 + RateLimiter.marginMillis)
    }))

  it.effect("a store of rows on another clock gives the same starts as the memory store", () =>
    Effect.gen(function*() {
      const limits: ReadonlyArray<RateLimiter.KeyedRateLimit> = [token("t", 3, "10 seconds"), { scope: "key", credential: "k", limit: 5, interval: "10 seconds" }]
      const duration = (i: number) => [0, 2_000, 7_000, 500][i % 4]!
      const inMemory = yield* startTimes(RateLimiter.make(RateLimiter.memoryStore()), limits, 20, duration)
      const inRows = yield* Effect.flatMap(TestClock.setTime(0), () => startTimes(RateLimiter.make(rowStore()), limits, 20, duration))
      expect(inRows).toEqual(inMemory)
      expect(most(inMemory, 10_000)).toBe(3)
    }))

  it.effect("the memory store answers every take as takeAt and releaseAt over arrays do, large limits, gone holders and buckets named twice included", () => {
    // A seeded sequence of takes and releases (some never sent, some never released, so that
    // holders pass their hold limit) against both stores, the clock moving between calls.
    const { advance, arrays, clock, random } = byHand(7)
    return Effect.gen(function*() {
      const limits: ReadonlyArray<RateLimiter.KeyedRateLimit> = [token("t", 3, "10 seconds"), { scope: "key", credential: "k", limit: 5, interval: "4 seconds" }, token("big", 400, "1 second")]
      const memory = RateLimiter.memoryStore()
      const held: Array<{ readonly holder: string; readonly buckets: ReadonlyArray<RateLimiter.Bucket> }> = []
      let full = 0
      let waited = 0
      for (let i = 0; i < 3_000; i++) {
        advance()
        if (random() < 0.55 || held.length === 0) {
          const pick = random()
          // Some name a bucket twice (two identical limits): still one token of it.
          const buckets = (pick < 0.25 ? [limits[0]!, limits[1]!] : pick < 0.3 ? [limits[1]!, limits[0]!, limits[1]!] : pick < 0.45 ? [limits[1]!] : pick < 0.5 ? [limits[0]!, limits[0]!] : [limits[2]!])
            .map(RateLimiter.bucketOf)
            .sort((a, b) => (a.key < b.key ? -1 : 1))
          const holder = `h${i}`
          const expected = yield* arrays.take(buckets, holder)
          expect(yield* memory.take(buckets, holder)).toEqual(expected)
          if (expected._tag === "Full") full++
          else {
            held.push({ holder, buckets })
            if (expected.waitMillis > 0) waited++
          }
        } else {
          const [{ buckets, holder }] = held.splice(Math.floor(random() * held.length), 1)
          // One in ten holders never gives its tokens back.
          if (random() < 0.9) {
            const sent = random() < 0.8
            yield* arrays.release(buckets, holder, sent)
            yield* memory.release(buckets, holder, sent)
          }
        }
      }
      // The sequence went through full buckets and waits, not only free tokens.
      expect(full).toBeGreaterThan(50)
      expect(waited).toBeGreaterThan(50)
    }).pipe(Effect.withClock(clock))
  })

  it.effect("a limiter's permits taken in its own step (tokens for no holder) give what takeAt and releaseAt over arrays give", () => {
    const { advance, arrays, clock, random } = byHand(11)
    return Effect.gen(function*() {
      const sets: ReadonlyArray<ReadonlyArray<RateLimiter.KeyedRateLimit>> = [
        [token("t", 3, "10 seconds"), { scope: "key", credential: "k", limit: 5, interval: "4 seconds" }],
        [{ scope: "key", credential: "k", limit: 5, interval: "4 seconds" }],
        [token("big", 400, "1 second")]
      ]
      const limiter = RateLimiter.make(RateLimiter.memoryStore())
      const clients = sets.map((limits) => ({
        buckets: limits.map(RateLimiter.bucketOf).sort((a, b) => (a.key < b.key ? -1 : 1)),
        takeNow: Immediate.of(limiter.take(limits))!
      }))
      const held: Array<{ readonly holder: string; readonly buckets: ReadonlyArray<RateLimiter.Bucket>; readonly permit: Immediate.ImmediatePermit }> = []
      let now = 0
      let later = 0
      for (let i = 0; i < 3_000; i++) {
        advance()
        if (random() < 0.55 || held.length === 0) {
          const { buckets, takeNow } = clients[Math.floor(random() * clients.length)]!
          const holder = `h${i}`
          // Both take the tokens, free now or for a later start (that wait is not run here: its
          // tokens are never given back, as a holder gone); a full bucket is taken from by neither.
          const expected = yield* arrays.take(buckets, holder)
          const taken = yield* Effect.withFiberRuntime<Immediate.Taken>((fiber) => Effect.succeed(takeNow(fiber)))
          expect(taken._tag).toBe(expected._tag === "Taken" && expected.waitMillis <= 0 ? "Now" : "Later")
          if (taken._tag === "Now") {
            now++
            held.push({ holder, buckets, permit: taken })
          } else later++
        } else {
          const [{ buckets, holder, permit }] = held.splice(Math.floor(random() * held.length), 1)
          // One in ten holders never gives its tokens back (they come back past the hold limit).
          if (random() < 0.9) {
            yield* arrays.release(buckets, holder, true)
            yield* Effect.withFiberRuntime((fiber) => Effect.sync(() => permit.releaseNow(fiber)))
          }
        }
      }
      expect(now).toBeGreaterThan(500)
      expect(later).toBeGreaterThan(50)
    }).pipe(Effect.withClock(clock))
  })

  it.effect("a limit named twice is one bucket to its store: each bucket once, in key order", () =>
    Effect.gen(function*() {
      const store = rowStore()
      const given: Array<ReadonlyArray<string>> = []
      const spy: RateLimiter.RateLimiterStore = {
        take: (buckets, holder) => {
          given.push(buckets.map((bucket) => bucket.key))
          return store.take(buckets, holder)
        },
        release: (buckets, holder, sent) => {
          given.push(buckets.map((bucket) => bucket.key))
          return store.release(buckets, holder, sent)
        }
      }
      const a = token("a", 2, "10 seconds")
      const b = token("b", 2, "10 seconds")
      yield* RateLimiter.make(spy).withPermit([b, a, b, a])(Effect.void)
      const keys = [a, b].map((limit) => RateLimiter.bucketOf(limit).key).sort()
      expect(given).toEqual([keys, keys])
    }))

  it("keys a bucket by its scope, a hash of its credential, its limit and interval: never the credential", () => {
    const bucket = RateLimiter.bucketOf(token("secret-token-value", 100, "10 seconds"))
    expect(bucket.key).toMatch(/^token:[A-Za-z0-9_-]{22}:100\/10000$/)
    expect(bucket.key).not.toContain("secret")
    expect(RateLimiter.bucketOf(token("secret-token-value", 100, "10 seconds"))).toEqual(bucket)
    expect(RateLimiter.bucketOf(token("another", 100, "10 seconds")).key).not.toBe(bucket.key)
  })
})

describe("RateLimiter permits of a ProviderClient", () => {
  // The limiter on the memory store (its permit taken and given back in the request's own
  // steps), or on another store (through the limiter's effects); a client that takes its
  // request's deadline (the watchdog's time limit), or not (Effect's).
  const cases = [
    ["in memory", true, false],
    ["in memory, deadline-aware client", true, true],
    ["on another store", false, false],
    ["on another store, deadline-aware client", false, true]
  ] as const
  for (const [name, inMemory, deadlineAware] of cases) {
    it.effect(`gives the token back at the answer, before its body is decoded (${name})`, () =>
      Effect.gen(function*() {
        const clock = yield* Effect.clock
        const memory = RateLimiter.memoryStore()
        const store: RateLimiter.RateLimiterStore = inMemory ? memory : { take: memory.take, release: memory.release }
        const limit = token("a-token", 1, "10 seconds")
        // What the bucket answers another holder while the body is decoded: its one token held
        // ("Full") or back one interval (and the margin) after the answer.
        const whileDecoding: Array<RateLimiter.Taken> = []
        const probed = Schema.transform(Schema.Unknown, Schema.Unknown, {
          strict: true,
          decode: (body) => {
            whileDecoding.push(Effect.runSync(Effect.withClock(memory.take([RateLimiter.bucketOf(limit)], "probe"), clock)))
            return body
          },
          encode: (body) => body
        })
        // A body buffered before the answer is given (as @x/http-undici's is): read at once.
        const http = HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>((requested) =>
          Effect.map(requested, (request) => {
            const response = HttpClientResponse.fromWeb(request, new Response(null, { status: 200 }))
            return Object.defineProperty(response, "text", { value: Effect.succeed(JSON.stringify({ id: "abc" })) })
          }), Effect.succeed)
        const client = ProviderClient.makeWith(deadlineAware ? RequestDeadline.deadlineAware(http) : http, RateLimiter.make(store), {
          baseUrl: "https://api.example.test",
          credentials: Auth.bearer(Redacted.make("a-token")),
          rateLimits: [limit]
        })
        expect(yield* client.json({ method: "GET", path: "/x" }, probed)).toEqual({ id: "abc" })
        expect(whileDecoding).toEqual([{ _tag: "Taken", waitMillis: 10_000 + RateLimiter.marginMillis }])
      }))
  }
})

describe("RateLimiter waits", () => {
  it.effect("a request that waits for its limit reports how long and under which scopes; one that starts at once reports nothing", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const waits: Array<{ readonly request: number; readonly wait: RateLimiter.Wait }> = []
      const limits = [token("c", 2, "10 seconds"), { ...token("c", 3, "10 seconds"), scope: "key" }]
      const fiber = yield* Effect.fork(Effect.forEach([0, 1, 2], (request) =>
        limiter.withPermit(limits)(Effect.void).pipe(
          RateLimiter.observingWaits((wait) => Effect.sync(() => void waits.push({ request, wait })))
        )))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      // The third waits for the first token back: one interval (and the margin) after its answer.
      expect(waits).toEqual([{ request: 2, wait: { scopes: ["token", "key"], millis: 10_000 + RateLimiter.marginMillis } }])
    }))

  it.effect("a wait behind a request in flight counts the time asked again too", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const waits: Array<RateLimiter.Wait> = []
      const limits = [token("c", 1, "10 seconds")]
      const observed = RateLimiter.observingWaits((wait) => Effect.sync(() => void waits.push(wait)))
      // The first holds the only token for 3 s; the second finds it held (asks again 10 s after
      // the first's start), then waits for it back 10 s after the first's answer: 13 s in all.
      const first = yield* Effect.fork(observed(limiter.withPermit(limits)(Effect.sleep("3 seconds"))))
      const second = yield* Effect.fork(observed(limiter.withPermit(limits)(Effect.void)))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      expect(waits).toEqual([{ scopes: ["token"], millis: 13_000 + RateLimiter.marginMillis }])
    }))

  it.effect("nobody observing: waits as before", () =>
    Effect.gen(function*() {
      const times = yield* startTimes(RateLimiter.make(), [token("c", 1, "10 seconds")], 2)
      expect(times).toEqual([0, 10_000 + RateLimiter.marginMillis])
    }))
})
