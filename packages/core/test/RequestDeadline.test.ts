import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { RateLimiter, RequestDeadline } from "../src/index.js"
import { timedFake, timedProvider } from "./support.js"

/** The time-limited fake of `support.ts`, deadline-aware only (every request through `execute`). */
const fakeClient = () => timedFake()

/** A client of `http` with a 10 s limit, no retries, its key in the query (a wrapper around `http`), and, with `limit`, a rate limit. */
const providerOf = (http: HttpClient.HttpClient, options: { readonly limit?: number; readonly store?: RateLimiter.RateLimiterStore } = {}) =>
  timedProvider(http, { ...options, query: true })

/**
 * The two ways an attempt goes: through `execute` (the deadline taken by the client), and
 * through a `BufferedSend`'s callback (the provider client's own watch).
 */
const ways = [
  { way: "execute", fake: fakeClient, provider: providerOf },
  { way: "callback", fake: () => timedFake({ buffered: true }), provider: timedProvider }
] as const

/** The in-memory store seen as any other (its take and release effects, no permit taken in the caller's step). */
const asOtherStore = (memory: RateLimiter.RateLimiterStore): RateLimiter.RateLimiterStore => ({ take: memory.take, release: memory.release })

describe("RequestDeadline", () => {
  it("a client is deadline-aware only when it says so", () => {
    expect(RequestDeadline.isDeadlineAware(fakeClient().client)).toBe(true)
    expect(RequestDeadline.isDeadlineAware(HttpClient.make(() => Effect.never))).toBe(false)
    expect(RequestDeadline.isDeadlineAware(null)).toBe(false)
  })

  for (const { fake: makeFake, provider, way } of ways) {
    it.effect(`a request is aborted at its time limit by the watchdog, on TestClock (through ${way})`, () =>
      Effect.gen(function*() {
        const fake = makeFake()
        const client = provider(fake.client)
        const fiber = yield* Effect.fork(Effect.flip(client.void({ method: "GET", path: "/hang" })))
        yield* TestClock.adjust("9 seconds")
        expect(fiber.unsafePoll()).toBeNull()
        yield* TestClock.adjust("1100 millis")
        const error = yield* Fiber.join(fiber)
        expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 10s" })
        expect(fake.aborts()).toBe(1)
        // Aborted through the deadline (or the watch's abort), not by the platform's interruption of the request.
        expect(fake.seen[0]).toMatchObject({ path: "/v1/hang", via: way, deadline: way === "execute" })
        expect(fake.seen[0]!.signalAborted()).toBe(false)
      }))
  }

  it.effect("a request that completes is never aborted, and its deadline is not left for the next request", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client)
      yield* client.void({ method: "GET", path: "/ok" })
      yield* TestClock.adjust("1 minute")
      expect(fake.aborts()).toBe(0)
      // The same fiber sends a request outside any limit: it finds no deadline.
      yield* Effect.withFiberRuntime((fiber) => Effect.sync(() => expect(RequestDeadline.take(fiber)).toBeUndefined()))
      expect(fake.seen).toHaveLength(1)
      expect(fake.seen[0]!.deadline).toBe(true)
    }))

  it.effect("requests in flight with different limits each end at their own, whatever finishes between them", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client)
      // Limits given out of order, answered requests in between: the watchdog's list loses
      // entries from its middle and its end, at sweeps and at answers.
      const limits = [6, 2, 10, 4, 8]
      const hanging = yield* Effect.forEach(limits, (seconds) =>
        Effect.zipLeft(
          Effect.fork(Effect.flip(client.void({ method: "GET", path: "/hang", timeout: `${seconds} seconds` }))),
          client.void({ method: "GET", path: "/ok" })
        ))
      for (let second = 1; second <= 11; second++) {
        yield* TestClock.adjust("1 second")
        // The watchdog sleeps until the next deadline: each request ends at its own, none before.
        hanging.forEach((fiber, i) => expect(fiber.unsafePoll() !== null, `${limits[i]} s limit at ${second} s`).toBe(limits[i]! <= second))
      }
      const errors = yield* Effect.forEach(hanging, Fiber.join)
      expect(errors.map((error) => error._tag)).toEqual(limits.map(() => "Timeout"))
      expect(fake.aborts()).toBe(limits.length)
    }))
})

describe("RequestDeadline, interruption", () => {
  const interrupted = [
    { clients: "without rate limits", options: () => ({}) },
    { clients: "with rate limits in memory", options: () => ({ limit: 1 }) },
    // A store of each test's own: a token one test holds is not another's.
    { clients: "with rate limits in another store (its permit an effect)", options: () => ({ limit: 1, store: asOtherStore(RateLimiter.memoryStore()) }) }
  ] as const
  for (const { clients, options } of interrupted) {
    for (const { fake: makeFake, provider, way } of ways) {
      it.effect(`an interrupted request is aborted at once, its watch not kept until the deadline, its token given back (${clients}, through ${way})`, () =>
        Effect.gen(function*() {
          const fake = makeFake()
          const client = provider(fake.client, options())
          const fiber = yield* Effect.fork(client.void({ method: "GET", path: "/hang" }))
          yield* TestClock.adjust("1 second")
          yield* Fiber.interrupt(fiber)
          // The request on the wire is aborted by the interruption, not 9 seconds later by the watchdog.
          expect(fake.aborts()).toBe(1)
          // The watchdog, with nothing left to watch, stops at its next tick (100 ms) instead of
          // sleeping until the interrupted request's deadline.
          yield* TestClock.adjust("200 millis")
          expect(yield* TestClock.sleeps()).toHaveLength(0)
          // With a limit of one a minute, its token was given back: the next request is served within the
          // minute (a token kept would hold it past the minute's window).
          const next = yield* Effect.fork(client.void({ method: "GET", path: "/ok" }))
          yield* TestClock.adjust("1 minute")
          yield* Fiber.join(next)
          expect(fake.seen.map((s) => s.path)).toEqual(["/v1/hang", "/v1/ok"])
          // Another store's permit is an effect: only the in-memory limiter's, or none, takes the callback.
          expect(fake.seen[0]!.via).toBe(way === "callback" && !("store" in options()) ? "callback" : "execute")
          expect(fake.aborts()).toBe(1)
        }))
    }
  }

  it.effect("a request interrupted while it waits for its rate-limit token leaves the client's later requests timed out", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const memory = RateLimiter.memoryStore()
      const taking = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      let takes = 0
      // The first take waits (as a shared store's does): the interruption arrives meanwhile, held back by the mask.
      const store: RateLimiter.RateLimiterStore = {
        take: (buckets, holder) =>
          takes++ === 0
            ? Effect.zipRight(Effect.zipRight(Deferred.succeed(taking, undefined), Deferred.await(gate)), memory.take(buckets, holder))
            : memory.take(buckets, holder),
        release: memory.release
      }
      const client = providerOf(fake.client, { limit: 100, store })
      const first = yield* Effect.fork(client.void({ method: "GET", path: "/hang" }))
      yield* Deferred.await(taking)
      yield* Fiber.interruptFork(first)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.await(first)
      // The next request on the same client is still aborted at its time limit.
      const next = yield* Effect.fork(Effect.either(client.void({ method: "GET", path: "/hang" })))
      yield* TestClock.adjust("1 minute")
      const outcome = yield* Fiber.join(next)
      expect(outcome._tag === "Left" && outcome.left._tag).toBe("Timeout")
      expect(fake.aborts()).toBe(1)
    }))
})
