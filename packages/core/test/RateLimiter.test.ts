import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { RateLimiter } from "../src/index.js"

const startTimes = (gate: Effect.Effect<void>, n: number) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    const fiber = yield* Effect.fork(
      Effect.forEach(
        Array.from({ length: n }),
        () => Effect.zipRight(gate, Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => times.push(t)))),
        { concurrency: "unbounded" }
      )
    )
    yield* TestClock.adjust("10 minutes")
    yield* Fiber.join(fiber)
    return times.sort((a, b) => a - b)
  })

describe("RateLimiter", () => {
  it.effect("lets `limit` requests start at once, and each next one when a token comes back an interval later", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const gate = limiter.gate([{ scope: "token", credential: "t1", limit: 3, interval: "10 seconds" }])
      const times = yield* startTimes(gate, 7)
      // A token returns one interval (10 s) and a margin (1 %: 100 ms) after it was taken.
      expect(times).toEqual([0, 0, 0, 10_100, 10_100, 10_100, 20_200])
    }))

  it.effect("never lets more than `limit` start within any window of `interval`", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const gate = limiter.gate([{ scope: "token", credential: "t1", limit: 100, interval: "2 seconds" }])
      const times = yield* startTimes(gate, 1000)
      for (let i = 100; i < times.length; i++) expect(times[i]! - times[i - 100]!).toBeGreaterThanOrEqual(2000)
      // The theoretical minimum is 9 intervals for the 1000th request; each adds the 50 ms margin.
      expect(times.at(-1)).toBe(9 * 2050)
    }))

  it.effect("applies every limit: per token and per key", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const perKey: RateLimiter.KeyedRateLimit = { scope: "key", credential: "k", limit: 3, interval: "10 seconds" }
      const a = limiter.gate([{ scope: "token", credential: "a", limit: 2, interval: "10 seconds" }, perKey])
      const b = limiter.gate([{ scope: "token", credential: "b", limit: 2, interval: "10 seconds" }, perKey])
      yield* a
      yield* a
      yield* b
      // b's own limit would allow a second request now, but the key's three are spent.
      const fiber = yield* Effect.fork(b)
      yield* TestClock.adjust("10099 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      yield* Fiber.join(fiber)
      // At 10.1 s, a's two tokens are back but the key has two left (b took one at 10 s):
      // a may start twice more at once, and a third time only when its own tokens return.
      yield* a
      yield* a
      const third = yield* Effect.fork(a)
      yield* TestClock.adjust("10099 millis")
      expect(third.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      yield* Fiber.join(third)
    }))

  it.effect("separate credentials have separate budgets; the same credential shares one", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make()
      const limit = (credential: string): RateLimiter.KeyedRateLimit => ({ scope: "token", credential, limit: 1, interval: "1 second" })
      const a1 = limiter.gate([limit("a")])
      const a2 = limiter.gate([limit("a")])
      const b = limiter.gate([limit("b")])
      const t0 = yield* Clock.currentTimeMillis
      yield* a1
      yield* b
      expect(yield* Clock.currentTimeMillis).toBe(t0)
      const fiber = yield* Effect.fork(a2)
      yield* TestClock.adjust("1049 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      yield* Fiber.join(fiber)
    }))
})
