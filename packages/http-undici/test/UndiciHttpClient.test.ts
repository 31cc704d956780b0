import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { createServer, type IncomingMessage, type Server } from "node:http"
import { Auth, BufferedSend, ProviderClient, RateLimiter } from "@x/core"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Either from "effect/Either"
import { Agent } from "undici"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { UndiciHttpClient } from "../src/index.js"

let server: Server
let origin = ""
/** Requests to `/hang` the server has (it never answers them), and those it saw aborted. */
const hanging: Array<string> = []
const aborted: Array<string> = []
/**
 * Resolves once `done` holds (checked every 10 ms): a wait for what the server saw, however busy
 * the machine; after 9,000 looks (90 s at the least, within the suite's 120 s test timeout) it
 * fails, saying what it waited for.
 */
const until = (done: () => boolean) =>
  Effect.promise(async () => {
    for (let looks = 0; !done(); looks++) {
      if (looks >= 9_000) throw new Error(`never seen: ${done.toString()}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })
const sockets = new Map<object, number>()

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      if (req.url!.endsWith("/hang")) {
        hanging.push(req.url!)
        res.on("close", () => aborted.push(req.url!))
        return
      }
      if (req.url === "/cookies") {
        res.writeHead(200, { "set-cookie": ["a=1; Path=/", "b=2"], "content-type": "text/plain" })
        return res.end("ok")
      }
      if (req.url === "/form") {
        res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" })
        return res.end("x=1&y=two")
      }
      res.writeHead(201, { "content-type": "application/json", "x-custom": "yes" })
      let socket = sockets.get(req.socket)
      if (socket === undefined) sockets.set(req.socket, socket = sockets.size)
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers["authorization"] ?? null, body, socket }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const withClient = <A, E>(f: (client: HttpClient.HttpClient) => Effect.Effect<A, E>) =>
  Effect.flatMap(HttpClient.HttpClient, f).pipe(Effect.provide(UndiciHttpClient.layer))

describe("UndiciHttpClient", () => {
  it.live("sends method, path, query, headers and a JSON body; reads status, headers and JSON", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const request = HttpClientRequest.post(`${origin}/things`, {
          urlParams: { q: "a b" },
          headers: { authorization: "Bearer t" }
        }).pipe(HttpClientRequest.bodyUnsafeJson({ n: 1 }))
        const response = yield* client.execute(request)
        expect(response.status).toBe(201)
        expect(response.headers["x-custom"]).toBe("yes")
        expect(yield* response.json).toMatchObject({ method: "POST", url: "/things?q=a+b", auth: "Bearer t", body: "{\"n\":1}" })
        // The body is read once and kept: text after json works.
        expect(JSON.parse(yield* response.text)).toMatchObject({ method: "POST" })
      })
    ))

  it.live("reads bytes, streams, url-encoded bodies, form data and cookies", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const bytes = yield* Effect.flatMap(client.get(`${origin}/b`), (r) => r.arrayBuffer)
        expect(JSON.parse(Buffer.from(bytes).toString("utf8"))).toMatchObject({ url: "/b" })
        const chunks = yield* Effect.flatMap(client.get(`${origin}/s`), (r) => Stream.runCollect(r.stream))
        expect(Buffer.concat(Chunk.toArray(chunks)).toString("utf8")).toContain("\"/s\"")
        const params = yield* Effect.flatMap(client.get(`${origin}/form`), (r) => r.urlParamsBody)
        expect(params).toEqual([["x", "1"], ["y", "two"]])
        const form = yield* Effect.flatMap(client.get(`${origin}/form`), (r) => r.formData)
        expect(form.get("y")).toBe("two")
        const response = yield* client.get(`${origin}/cookies`)
        expect(Object.keys(response.cookies.cookies).sort()).toEqual(["a", "b"])
        expect(yield* response.text).toBe("ok")
      })
    ))

  it.live("encodes and normalises a path the way URL does (spaces, non-ASCII, dot segments)", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const body = yield* Effect.flatMap(client.get(`${origin}/v1/a b/é/../x?q=1`), (r) => r.json)
        expect(body).toMatchObject({ url: "/v1/a%20b/x?q=1" })
        const plain = yield* Effect.flatMap(client.get(`${origin}/v1/cards/abc?x=%20`), (r) => r.json)
        expect(plain).toMatchObject({ url: "/v1/cards/abc?x=%20" })
      }).pipe(Effect.withTracerEnabled(false))
    ))

  it.live("a refused connection is a Transport RequestError whose cause carries ECONNREFUSED", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const port = yield* Effect.promise(() =>
          new Promise<number>((resolve) => {
            const probe = createServer().listen(0, "127.0.0.1", () => {
              const { port } = probe.address() as { port: number }
              probe.close(() => resolve(port))
            })
          })
        )
        const error = yield* Effect.flip(client.get(`http://127.0.0.1:${port}/x`))
        expect(error._tag).toBe("RequestError")
        expect(error._tag === "RequestError" && error.reason).toBe("Transport")
        expect((error.cause as { code?: string }).code).toBe("ECONNREFUSED")
      })
    ))

  it.live("interrupting a request aborts it on the wire", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const before = hanging.length
        const fiber = yield* Effect.fork(client.get(`${origin}/hang`))
        yield* until(() => hanging.length > before)
        yield* Fiber.interrupt(fiber)
        yield* until(() => aborted.includes("/hang"))
      })
    ))
})

describe("UndiciHttpClient's BufferedSend", () => {
  type Result = Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>
  /** The request sent through the client's callback on the current fiber: its result, each time `done` was called, and its abort. */
  const viaCallback = (client: HttpClient.HttpClient, request: HttpClientRequest.HttpClientRequest) =>
    Effect.withFiberRuntime<{ readonly results: Array<Result>; readonly abort: () => void }>((fiber) => {
      if (!BufferedSend.isBufferedSend(client)) throw new Error("not a BufferedSend")
      const results: Array<Result> = []
      const abort = client[BufferedSend.TypeId](request, fiber, (result) => results.push(result))
      return Effect.succeed({ results, abort })
    })
  const answered = (sent: { readonly results: Array<Result> }) => until(() => sent.results.length > 0).pipe(Effect.as(sent.results))

  it.live("sends what execute sends, and calls back once with the same response, read whole", () =>
    Effect.gen(function*() {
      const agent = new Agent()
      const client = UndiciHttpClient.make(agent)
      const requests = [
        HttpClientRequest.post(`${origin}/things`, { urlParams: { q: "a b" }, headers: { authorization: "Bearer t" } }).pipe(
          HttpClientRequest.bodyUnsafeJson({ n: 1 })
        ),
        // Through URL: a path to encode and normalise.
        HttpClientRequest.get(`${origin}/v1/a b/é/../x?q=1`)
      ]
      for (const request of requests) {
        const executed = yield* client.execute(request)
        const results = yield* answered(yield* viaCallback(client, request))
        expect(results).toHaveLength(1)
        const called = Either.getOrThrow(results[0]!)
        expect(called.status).toBe(executed.status)
        expect(called.headers["x-custom"]).toBe("yes")
        const [fromExecute, fromCallback] = [yield* executed.json, yield* called.json] as Array<Record<string, unknown>>
        expect({ ...fromCallback, socket: 0 }).toEqual({ ...fromExecute, socket: 0 })
      }
      yield* Effect.promise(() => agent.close())
    }))

  it.live("a URL that is not one fails at once with InvalidUrl; a refused connection with Transport", () =>
    Effect.gen(function*() {
      const agent = new Agent()
      const client = UndiciHttpClient.make(agent)
      const invalid = yield* viaCallback(client, HttpClientRequest.get("not a url"))
      expect(invalid.results).toHaveLength(1)
      expect(Either.isLeft(invalid.results[0]!) && invalid.results[0].left.reason).toBe("InvalidUrl")
      const port = yield* Effect.promise(() =>
        new Promise<number>((resolve) => {
          const probe = createServer().listen(0, "127.0.0.1", () => {
            const { port } = probe.address() as { port: number }
            probe.close(() => resolve(port))
          })
        })
      )
      const refused = yield* answered(yield* viaCallback(client, HttpClientRequest.get(`http://127.0.0.1:${port}/x`)))
      expect(Either.isLeft(refused[0]!) && refused[0].left.reason).toBe("Transport")
      yield* Effect.promise(() => agent.close())
    }))

  it.live("its abort ends the request on the wire, and the callback is called once, with a failure", () =>
    Effect.gen(function*() {
      const agent = new Agent()
      const client = UndiciHttpClient.make(agent)
      const before = hanging.length
      const abortedBefore = aborted.filter((url) => url === "/callback/hang").length
      const sent = yield* viaCallback(client, HttpClientRequest.get(`${origin}/callback/hang`))
      yield* until(() => hanging.length > before)
      sent.abort()
      sent.abort()
      yield* until(() => aborted.filter((url) => url === "/callback/hang").length > abortedBefore)
      const results = yield* answered(sent)
      expect(results).toHaveLength(1)
      expect(Either.isLeft(results[0]!) && results[0].left.reason).toBe("Transport")
      yield* Effect.promise(() => agent.close())
    }))
})

describe("UndiciHttpClient with @x/core's ProviderClient", () => {
  const Thing = Schema.Struct({ method: Schema.String, url: Schema.String, socket: Schema.Number })
  const clientOf = (http: HttpClient.HttpClient) =>
    ProviderClient.makeWith(http, RateLimiter.make(), {
      baseUrl: `${origin}/v1`,
      credentials: Auth.bearer(Redacted.make("secret-token")),
      timeout: "300 millis",
      retry: { maxRetries: 0 }
    })

  for (const tracing of [false, true]) {
    it.live(`a time limit aborts the request on the wire (tracer ${tracing ? "on" : "off"})`, () =>
      withClient((http) =>
        Effect.gen(function*() {
          const before = aborted.length
          const error = yield* Effect.flip(clientOf(http).json({ method: "GET", path: "/hang" }, Thing))
          expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 300ms" })
          // The server sees the abort a moment later (longer on a busy machine).
          yield* until(() => aborted.length >= before + 1)
          expect(aborted.length).toBe(before + 1)
        }).pipe(Effect.withTracerEnabled(tracing))
      ))

    it.live(`interrupting a request under a time limit aborts it on the wire at once (tracer ${tracing ? "on" : "off"})`, () =>
      withClient((http) =>
        Effect.gen(function*() {
          const before = hanging.length
          const abortedBefore = aborted.filter((url) => url === "/v1/interrupted/hang").length
          const client = ProviderClient.makeWith(http, RateLimiter.make(), {
            baseUrl: `${origin}/v1`,
            credentials: Auth.bearer(Redacted.make("secret-token")),
            // Far beyond the test's own timeout: only the interruption can abort it.
            timeout: "1 hour",
            retry: { maxRetries: 0 }
          })
          const fiber = yield* Effect.fork(client.json({ method: "GET", path: "/interrupted/hang" }, Thing))
          yield* until(() => hanging.length > before)
          yield* Fiber.interrupt(fiber)
          // The interruption aborted it (through its deadline).
          yield* until(() => aborted.filter((url) => url === "/v1/interrupted/hang").length > abortedBefore)
        }).pipe(Effect.withTracerEnabled(tracing))
      ))
  }

  it.live("a time limit and an interruption abort a request sent through the callback, on the wire", () =>
    Effect.gen(function*() {
      const agent = new Agent()
      const http = UndiciHttpClient.make(agent)
      // Each request sent through the callback, counted.
      const send = http[BufferedSend.TypeId]
      let callbacks = 0
      BufferedSend.bufferedSend(http, (request, fiber, done) => {
        callbacks++
        return send(request, fiber, done)
      })
      const limited = clientOf(http)
      // Its own limit: a first connection on a busy machine may take longer than 300 ms.
      yield* limited.json({ method: "GET", path: "/warm", timeout: "1 minute" }, Thing)
      const before = aborted.length
      const error = yield* Effect.flip(limited.json({ method: "GET", path: "/limited/hang" }, Thing))
      expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 300ms" })
      yield* until(() => aborted.length >= before + 1)
      expect(callbacks).toBe(2)
      // Far beyond the test's own timeout: only the interruption can abort it.
      const patient = ProviderClient.makeWith(http, RateLimiter.make(), {
        baseUrl: `${origin}/v1`,
        credentials: Auth.bearer(Redacted.make("secret-token")),
        timeout: "1 hour",
        retry: { maxRetries: 0 }
      })
      yield* patient.json({ method: "GET", path: "/warm" }, Thing)
      const hangingBefore = hanging.length
      const fiber = yield* Effect.fork(patient.json({ method: "GET", path: "/interrupted-callback/hang" }, Thing))
      yield* until(() => hanging.length > hangingBefore)
      expect(callbacks).toBe(4)
      yield* Fiber.interrupt(fiber)
      yield* until(() => aborted.includes("/v1/interrupted-callback/hang"))
      yield* Effect.promise(() => agent.close())
    }).pipe(Effect.withTracerEnabled(false)))

  it.live("a request within its time limit succeeds, and the connection is reused", () =>
    withClient((http) =>
      Effect.gen(function*() {
        const client = clientOf(http)
        const first = yield* client.json({ method: "GET", path: "/a" }, Thing)
        const second = yield* client.json({ method: "GET", path: "/b", query: { x: "1 2" } }, Thing)
        expect(first).toMatchObject({ method: "GET", url: "/v1/a" })
        expect(second).toMatchObject({ url: "/v1/b?x=1+2" })
        // Keep-alive: sequential requests share a connection or two (undici may open a second
        // while the first is being released), not one each.
        const more = yield* Effect.forEach([1, 2, 3, 4, 5, 6], () => client.json({ method: "GET", path: "/c" }, Thing))
        expect(new Set([first, second, ...more].map((r) => r.socket)).size).toBeLessThanOrEqual(2)
      }).pipe(Effect.withTracerEnabled(false))
    ))
})
