import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Auth, BufferedSend, ProviderClient, ProviderRequest, RateLimiter, RequestDeadline, ResponseReader } from "../src/index.js"

/**
 * A client that is both deadline-aware (`execute`) and a `BufferedSend` (the callback), on
 * TestClock: `/ok` answers `{"ok":true}` at once, `/missing` 404, `/hang` only its abort. It
 * records which way each request went.
 */
const fakeClient = () => {
  const seen: Array<{ readonly path: string; readonly via: "execute" | "callback" }> = []
  let aborts = 0
  let flaky = 0
  const answer = (request: HttpClientRequest.HttpClientRequest, path: string) =>
    path.endsWith("/missing")
      ? HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ message: "no such card" }), { status: 404 }))
      : path.endsWith("/flaky") && flaky++ === 0
      ? HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ message: "try again" }), { status: 503 }))
      : HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ ok: true }), { status: 200 }))
  const aborted = (request: HttpClientRequest.HttpClientRequest) =>
    new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("aborted") })
  const execute = RequestDeadline.deadlineAware(HttpClient.make((request, url, _signal, fiber) => {
    const deadline = RequestDeadline.take(fiber)
    seen.push({ path: url.pathname, via: "execute" })
    if (!url.pathname.endsWith("/hang")) return Effect.succeed(answer(request, url.pathname))
    return Effect.async<never, HttpClientError.RequestError>((resume) => {
      if (deadline === undefined) return
      deadline.abort = () => {
        aborts++
        resume(Effect.fail(aborted(request)))
      }
    })
  }))
  const client = BufferedSend.bufferedSend(execute, (request, _fiber, done) => {
    const path = new URL(request.url).pathname
    seen.push({ path, via: "callback" })
    if (path.endsWith("/later")) {
      // Called back later, from outside the fiber's step (as undici's callback is).
      queueMicrotask(() => done(Either.right(answer(request, path))))
      return () => {}
    }
    if (!path.endsWith("/hang")) {
      done(Either.right(answer(request, path)))
      return () => {}
    }
    let ended = false
    return () => {
      if (ended) return
      ended = true
      aborts++
      done(Either.left(aborted(request)))
    }
  })
  return { client, seen, vias: () => seen.map((s) => s.via), aborts: () => aborts }
}

/**
 * A client of `http` with a 10 s limit, no retries, and, with `limit`, a rate limit of `limit` a
 * minute on its key (the test runtime's tracer is on: the client's own `tracing` says whether a
 * request gets a span).
 */
const providerOf = (
  http: HttpClient.HttpClient,
  options: { readonly limit?: number; readonly tracing?: boolean; readonly retries?: number } = {}
) =>
  ProviderClient.makeWith(http, RateLimiter.make(), {
    tracing: options.tracing,
    baseUrl: "https://api.example.test/v1",
    // Headers set once on every request: no wrapper around the client (one would be skipped by the callback).
    credentials: Auth.headers({ "x-api-key": "key-0123456789" }),
    timeout: "10 seconds",
    retry: { maxRetries: options.retries ?? 0 },
    ...(options.limit === undefined ? {} : { rateLimits: [{ scope: "key", credential: "key-0123456789", limit: options.limit, interval: "1 minute" }] })
  })

const Ok = Schema.Struct({ ok: Schema.Boolean })

describe("BufferedSend", () => {
  it("a client offers a BufferedSend only when it says so", () => {
    expect(BufferedSend.isBufferedSend(fakeClient().client)).toBe(true)
    expect(BufferedSend.isBufferedSend(HttpClient.make(() => Effect.never))).toBe(false)
    expect(BufferedSend.isBufferedSend(null)).toBe(false)
  })

  it.effect("an attempt goes through the callback (its watchdog started first), and reads and fails as through execute", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client, { limit: 100 })
      // The first request starts the watchdog, then goes through the callback, as the next ones do.
      const first = yield* client.json({ method: "GET", path: "/ok" }, Ok)
      const second = yield* client.json({ method: "GET", path: "/ok" }, Ok)
      expect(second).toEqual(first)
      expect(second).toEqual({ ok: true })
      const written = yield* client.json({ method: "POST", path: "/ok", body: ProviderRequest.jsonBody({ name: "Load" }) }, Ok)
      expect(written).toEqual({ ok: true })
      const missing = yield* Effect.flip(client.void({ method: "GET", path: "/missing" }))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "no such card", status: 404 })
      expect(fake.vias()).toEqual(["callback", "callback", "callback", "callback"])
      // The same error as through execute: a client that asks for spans (the test runtime traces).
      const fresh = fakeClient()
      const throughExecute = yield* Effect.flip(providerOf(fresh.client, { limit: 100, tracing: true }).void({ method: "GET", path: "/missing" }))
      expect(fresh.vias()).toEqual(["execute"])
      expect(throughExecute).toEqual(missing)
    }))

  it.effect("goes through execute where the callback cannot do what it does", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client, { limit: 3 })
      yield* client.void({ method: "GET", path: "/ok" })
      // Traced: the platform's span around the request, from a client that asks for spans.
      const tracing = providerOf(fake.client, { tracing: true })
      yield* tracing.void({ method: "GET", path: "/ok" })
      yield* tracing.void({ method: "GET", path: "/ok" })
      // A runtime that traces nothing: a client that asks for spans gets none, so the callback.
      yield* Effect.withTracerEnabled(tracing.void({ method: "GET", path: "/ok" }), false)
      // Credentials that wrap the client (a key in the query): the wrapper is not skipped.
      const keyed = ProviderClient.makeWith(fake.client, RateLimiter.make(), {
        baseUrl: "https://api.example.test/v1",
        credentials: Auth.query({ key: "key-0123456789" }),
        timeout: "10 seconds"
      })
      yield* keyed.void({ method: "GET", path: "/ok" })
      yield* keyed.void({ method: "GET", path: "/ok" })
      expect(fake.vias().slice(-2)).toEqual(["execute", "execute"])
      // A body that is streamed, and a response read as a stream.
      yield* client.void({ method: "POST", path: "/ok", body: ProviderRequest.multipartBody({ fields: { name: "a" }, files: {} }) })
      const streamed = yield* client.send({ method: "GET", path: "/ok" }, ResponseReader.streaming(ResponseReader.text))
      expect(streamed).toBe('{"ok":true}')
      // A stream asked for by the caller (the FiberRef set around the call), on a client like the first.
      const seenBefore = fake.vias().length
      const asked = ProviderClient.makeWith(fake.client, RateLimiter.make(), {
        baseUrl: "https://api.example.test/v1",
        credentials: Auth.headers({ "x-api-key": "key-0123456789" }),
        timeout: "10 seconds"
      })
      yield* asked.void({ method: "GET", path: "/ok" })
      yield* Effect.locally(asked.void({ method: "GET", path: "/ok" }), ResponseReader.streamRequested, true)
      yield* asked.void({ method: "GET", path: "/ok" })
      expect(fake.vias().slice(seenBefore)).toEqual(["callback", "execute", "callback"])
      expect(fake.vias().slice(0, 8)).toEqual(["callback", "execute", "execute", "callback", "execute", "execute", "execute", "execute"])
      // The limit's three tokens are taken (each back a minute after its answer): the next request
      // waits for one, through execute.
      const waiting = yield* Effect.fork(client.void({ method: "GET", path: "/ok" }))
      yield* TestClock.adjust("61 seconds")
      yield* Fiber.join(waiting)
      expect(fake.vias()).toHaveLength(12)
      expect(fake.vias()[11]).toBe("execute")
      // The watchdog stops with nothing to watch: the next request starts it again, and goes through the callback.
      yield* TestClock.adjust("1 second")
      expect(yield* TestClock.sleeps()).toHaveLength(0)
      yield* TestClock.adjust("2 minutes")
      yield* client.void({ method: "GET", path: "/ok" })
      yield* client.void({ method: "GET", path: "/ok" })
      expect(fake.vias().slice(12)).toEqual(["callback", "callback"])
    }))

  it.effect("a failure through the callback is retried as the policy says, each attempt a callback", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client, { limit: 100, retries: 1 })
      yield* client.void({ method: "GET", path: "/ok" })
      // A request in flight keeps the watchdog running through the retry's backoff (250 ms and jitter).
      const hanging = yield* Effect.fork(client.void({ method: "GET", path: "/hang" }))
      const fiber = yield* Effect.fork(client.json({ method: "GET", path: "/flaky" }, Ok))
      yield* TestClock.adjust("2 seconds")
      expect(yield* Fiber.join(fiber)).toEqual({ ok: true })
      yield* Fiber.interrupt(hanging)
      expect(fake.seen.map((s) => `${s.path} ${s.via}`)).toEqual(["/v1/ok callback", "/v1/hang callback", "/v1/flaky callback", "/v1/flaky callback"])
    }))

  it.effect("a reader that throws in the callback is the fiber's defect, as on the fiber", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client)
      yield* client.void({ method: "GET", path: "/ok" })
      const fiber = yield* Effect.fork(client.send({ method: "GET", path: "/later" }, () => {
        throw new Error("a reader's bug")
      }))
      // Once the answer has come (a turn of the event loop later), the fiber has ended.
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      const exit = fiber.unsafePoll()
      expect(exit !== null && exit._tag === "Failure" && Cause.isDie(exit.cause) && String(Cause.squash(exit.cause))).toBe("Error: a reader's bug")
      expect(fake.vias()).toEqual(["callback", "callback"])
    }))

  it.effect("a request through the callback is aborted at its time limit by the watchdog, on TestClock", () =>
    Effect.gen(function*() {
      const fake = fakeClient()
      const client = providerOf(fake.client, { limit: 100 })
      yield* client.void({ method: "GET", path: "/ok" })
      const fiber = yield* Effect.fork(Effect.flip(client.void({ method: "GET", path: "/hang" })))
      yield* TestClock.adjust("9 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1100 millis")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 10s" })
      expect(fake.aborts()).toBe(1)
      expect(fake.vias()).toEqual(["callback", "callback"])
    }))

  for (const { clients, options } of [{ clients: "without rate limits", options: {} }, { clients: "with rate limits in memory", options: { limit: 2 } }] as const) {
    it.effect(`a request through the callback, interrupted, is aborted at once, its watch dropped and its token given back (${clients})`, () =>
      Effect.gen(function*() {
        const fake = fakeClient()
        const client = providerOf(fake.client, options)
        yield* client.void({ method: "GET", path: "/ok" })
        const fiber = yield* Effect.fork(client.void({ method: "GET", path: "/hang" }))
        yield* TestClock.adjust("1 second")
        yield* Fiber.interrupt(fiber)
        expect(fake.aborts()).toBe(1)
        // Nothing left to watch: the watchdog stops at its next tick, not at the deadline.
        yield* TestClock.adjust("200 millis")
        expect(yield* TestClock.sleeps()).toHaveLength(0)
        // With two tokens a minute, both back within the minute: the interrupted request's was
        // given back (one kept would hold the second request until its holder is presumed gone).
        const next = yield* Effect.fork(Effect.all([client.void({ method: "GET", path: "/ok" }), client.void({ method: "GET", path: "/ok" })]))
        yield* TestClock.adjust("1 minute")
        yield* Fiber.join(next)
        expect(fake.vias().slice(0, 2)).toEqual(["callback", "callback"])
        expect(fake.seen.map((s) => s.path)).toEqual(["/v1/ok", "/v1/hang", "/v1/ok", "/v1/ok"])
        expect(fake.aborts()).toBe(1)
      }))
  }
})
