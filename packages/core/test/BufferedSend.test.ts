import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { BufferedSend, ProviderRequest, ResponseReader } from "../src/index.js"
import { timedFake, timedProvider } from "./support.js"

/** The time-limited fake of `support.ts`, a `BufferedSend` too: it records which way each request went. */
const fakeClient = () => timedFake({ buffered: true })

/** Its provider client, with headers for credentials (no wrapper around the client, which the callback would skip). */
const providerOf = timedProvider

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
      const keyed = providerOf(fake.client, { query: true })
      yield* keyed.void({ method: "GET", path: "/ok" })
      yield* keyed.void({ method: "GET", path: "/ok" })
      expect(fake.vias().slice(-2)).toEqual(["execute", "execute"])
      // A body that is streamed, and a response read as a stream.
      yield* client.void({ method: "POST", path: "/ok", body: ProviderRequest.multipartBody({ fields: { name: "a" }, files: {} }) })
      const streamed = yield* client.send({ method: "GET", path: "/ok" }, ResponseReader.streaming(ResponseReader.text))
      expect(streamed).toBe('{"ok":true}')
      // A stream asked for by the caller (the FiberRef set around the call), on a client like the first.
      const seenBefore = fake.vias().length
      const asked = providerOf(fake.client)
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
})
