/**
 * serve's HTTP server on its own: a webhook's path goes to its handler with the method, the
 * headers and the body read under the cap, and the handler's answer is written as it is (a
 * defect, an answer Node cannot send or a stream answered 500, an interruption not the client's
 * 503); every other path is the app's; a client that goes away interrupts its handler; the
 * server closes once a request in flight is answered.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import * as CappedBody from "../src/internal/cappedBody.js"
import * as IngestionServer from "../src/serve/IngestionServer.js"

const maxBytes = 64

/** A stall bound on each wait (the answers here are local and immediate). */
const stallMs = 20_000

/** The server on a free port with `webhooks`; its scope, to close it, and its base URL. */
const started = (
  webhooks: ReadonlyMap<string, IngestionServer.Handler<never>>,
  app: IngestionServer.Options<never>["app"] = Effect.map(HttpServerRequest.HttpServerRequest, (request) => HttpServerResponse.text(`the app: ${request.url}`))
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const server = yield* IngestionServer.serve({ port: 0, host: "127.0.0.1", webhooks, maxBytes, app }).pipe(Scope.extend(scope))
    const { port } = server.address() as AddressInfo
    // The close begun: the server takes no new connection (`server.close` was called).
    const closeBegun = Effect.gen(function*() {
      for (let looks = 0; server.listening; looks++) {
        expect(looks).toBeLessThan(100_000)
        yield* Effect.sleep("1 millis")
      }
    })
    return { scope, url: `http://127.0.0.1:${port}`, closeBegun }
  })

/** Runs `use` with the server, closed after it. */
const withServer = <A, E>(
  webhooks: ReadonlyMap<string, IngestionServer.Handler<never>>,
  use: (url: string) => Effect.Effect<A, E>
) => Effect.acquireUseRelease(started(webhooks), ({ url }) => use(url), ({ scope }) => Scope.close(scope, Exit.void))

const call = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(stallMs) })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

const text = (body: Option.Option<Uint8Array>) => Option.match(body, { onNone: () => "(over the cap)", onSome: (bytes) => Buffer.from(bytes).toString() })

describe("IngestionServer", () => {
  it.live("a webhook's path goes to its handler with the method, the headers and the body; HEAD is answered without a body; other paths are the app's", () => {
    const echo: IngestionServer.Handler<never> = (delivery) =>
      Effect.map(delivery.body, (body) =>
        HttpServerResponse.unsafeJson({ method: delivery.method, signature: delivery.headers["x-signature"], body: text(body) }, {
          headers: { "x-handled": "yes" }
        }))
    return withServer(new Map([["/hooks/a", echo]]), (url) =>
      Effect.gen(function*() {
        const posted = yield* call(`${url}/hooks/a`, { method: "POST", headers: { "X-Signature": "s1" }, body: "hello" })
        expect(posted.status).toBe(200)
        expect(posted.headers.get("x-handled")).toBe("yes")
        expect(JSON.parse(posted.text)).toEqual({ method: "POST", signature: "s1", body: "hello" })
        // The path in another form (percent-encoded, a trailing slash) is the same webhook's.
        expect(JSON.parse((yield* call(`${url}/hooks/%61/?q=1`, { method: "POST", body: "again" })).text)).toMatchObject({ body: "again" })
        const head = yield* call(`${url}/hooks/a`, { method: "HEAD" })
        expect([head.status, head.headers.get("x-handled"), head.text]).toEqual([200, "yes", ""])
        expect(yield* call(`${url}/other?x=1`)).toMatchObject({ status: 200, text: "the app: /other?x=1" })
        expect(yield* call(`${url}/hooks/b`)).toMatchObject({ status: 200, text: "the app: /hooks/b" })
      }))
  })

  it.live("a body over the cap is none to the handler, which answers 413", () => {
    const capped: IngestionServer.Handler<never> = (delivery) =>
      Effect.map(delivery.body, (body) => Option.isNone(body) ? CappedBody.tooLarge(maxBytes) : HttpServerResponse.text(text(body)))
    return withServer(new Map([["/hooks/a", capped]]), (url) =>
      Effect.gen(function*() {
        expect(yield* call(`${url}/hooks/a`, { method: "POST", body: "x".repeat(maxBytes) })).toMatchObject({ status: 200, text: "x".repeat(maxBytes) })
        expect((yield* call(`${url}/hooks/a`, { method: "POST", body: "x".repeat(maxBytes + 1) })).status).toBe(413)
      }))
  })

  /** The answers' statuses to a POST on each webhook, then a handler that answers still answered. */
  const statuses = (handlers: ReadonlyArray<readonly [string, IngestionServer.Handler<never>]>) =>
    withServer(
      new Map([...handlers.map(([name, handler]) => [`/hooks/${name}`, handler] as const), ["/hooks/fine", () => Effect.succeed(HttpServerResponse.text("fine"))]]),
      (url) =>
        Effect.gen(function*() {
          const answered: Array<readonly [string, number]> = []
          for (const [name] of handlers) answered.push([name, (yield* call(`${url}/hooks/${name}`, { method: "POST" })).status])
          expect(yield* call(`${url}/hooks/fine`, { method: "POST" })).toMatchObject({ status: 200, text: "fine" })
          return answered
        })
    )

  it.live("a handler's defect is answered 500, and so is an answer Node cannot send (a status out of range, a header with a line break); the server lives on", () =>
    Effect.gen(function*() {
      expect(
        yield* statuses([
          ["dies", () => Effect.die(new Error("a bug"))],
          ["status", () => Effect.succeed(HttpServerResponse.text("no such status", { status: 1000 }))],
          ["header", () => Effect.succeed(HttpServerResponse.text("bad header", { headers: { "x-bad": "a\nb" } }))]
        ])
      ).toEqual([["dies", 500], ["status", 500], ["header", 500]])
    }))

  it.live("an answer with a stream or a form body (no delivery's) is answered 500, not sent empty", () =>
    Effect.gen(function*() {
      expect(
        yield* statuses([
          ["stream", () => Effect.succeed(HttpServerResponse.stream(Stream.make(new Uint8Array([1, 2, 3]))))],
          ["form", () => Effect.succeed(HttpServerResponse.formData(new FormData()))]
        ])
      ).toEqual([["stream", 500], ["form", 500]])
    }))

  it.live("a handler interrupted other than by its client is answered 503, not left open", () =>
    Effect.gen(function*() {
      expect(yield* statuses([["interrupted", () => Effect.interrupt]])).toEqual([["interrupted", 503]])
    }))

  it.live("a client that goes away before its answer interrupts its handler", () =>
    Effect.gen(function*() {
      const handling = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const waits: IngestionServer.Handler<never> = () =>
        Deferred.succeed(handling, undefined).pipe(
          Effect.zipRight(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
        )
      yield* withServer(new Map([["/hooks/a", waits]]), (url) =>
        Effect.gen(function*() {
          const request = httpRequest(`${url}/hooks/a`, { method: "POST" })
          request.on("error", () => {})
          request.end("hello")
          yield* Deferred.await(handling).pipe(Effect.timeout(stallMs), Effect.orDie)
          request.destroy()
          yield* Deferred.await(interrupted).pipe(Effect.timeout(stallMs), Effect.orDie)
        }))
    }))

  it.live("the server closes once a request in flight is answered", () =>
    Effect.gen(function*() {
      const handling = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const waits: IngestionServer.Handler<never> = () =>
        Deferred.succeed(handling, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.as(HttpServerResponse.text("answered")))
      const { closeBegun, scope, url } = yield* started(new Map([["/hooks/a", waits]]))
      const answer = yield* Effect.fork(call(`${url}/hooks/a`, { method: "POST", body: "hello" }))
      yield* Deferred.await(handling).pipe(Effect.timeout(stallMs), Effect.orDie)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* closeBegun
      yield* Deferred.succeed(release, undefined)
      // The answer ends its connection, so that the close does not wait on it idle.
      const answered = yield* Fiber.join(answer)
      expect([answered.status, answered.text, answered.headers.get("connection")]).toEqual([200, "answered", "close"])
      yield* Fiber.join(closing).pipe(Effect.timeout(stallMs), Effect.orDie)
      // Closed: no new connection is taken.
      const refused = yield* Effect.either(Effect.tryPromise(() => fetch(`${url}/hooks/a`, { method: "POST" })))
      expect(refused._tag).toBe("Left")
    }))

  it.live("the server closes once an app's request in flight is answered, its connection ended too", () =>
    Effect.gen(function*() {
      const handling = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const app = Deferred.succeed(handling, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.as(HttpServerResponse.text("the page")))
      const { closeBegun, scope, url } = yield* started(new Map(), app)
      const answer = yield* Effect.fork(call(`${url}/runs`))
      yield* Deferred.await(handling).pipe(Effect.timeout(stallMs), Effect.orDie)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* closeBegun
      yield* Deferred.succeed(release, undefined)
      const answered = yield* Fiber.join(answer)
      expect([answered.status, answered.text, answered.headers.get("connection")]).toEqual([200, "the page", "close"])
      yield* Fiber.join(closing).pipe(Effect.timeout(stallMs), Effect.orDie)
    }))
})
