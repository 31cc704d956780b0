/**
 * A ProviderClient's time limit with each HttpClient the project supports: ours (deadline-aware,
 * aborted by core's watchdog), @effect/platform's fetch client and @effect/platform-node's
 * undici client (both limited by interruption, which they turn into an abort).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createServer, type Server } from "node:http"
import { Auth, ProviderClient, RateLimiter, RequestDeadline } from "@x/core"
import { UndiciHttpClient } from "../src/index.js"

let server: Server
let origin = ""
/** Requests the server saw aborted: their connection closed before it answered. */
const aborted: Array<string> = []
/** The requests each connection served, and those served by connections since closed. */
const served = new WeakMap<object, Array<string>>()
const servedByClosed: Array<string> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    served.get(req.socket)?.push(req.url!)
    req.on("end", () => {
      if (req.url!.includes("/hang")) {
        res.on("close", () => {
          if (!res.writableFinished) aborted.push(req.url!)
        })
        return
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ url: req.url }))
    })
  })
  server.on("connection", (socket) => {
    served.set(socket, [])
    socket.on("close", () => servedByClosed.push(...served.get(socket)!))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
)

const Echo = Schema.Struct({ url: Schema.String })

const clients: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>, boolean]> = [
  ["@x/http-undici", UndiciHttpClient.layer, true],
  ["FetchHttpClient", FetchHttpClient.layer, false],
  ["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici, false]
]
// Static headers (no transform) and query credentials (an HttpClient transform between the
// limit and the client), the two ways credentials reach a request.
const credentials = {
  bearer: () => Auth.bearer(Redacted.make("secret-token")),
  query: () => Auth.query({ key: Redacted.make("secret-key") })
}

for (const [name, layer, deadlineAware] of clients) {
  describe(`time limits with ${name}`, () => {
    const withProvider = <A, E>(
      auth: keyof typeof credentials,
      f: (client: ProviderClient.ProviderClient, http: HttpClient.HttpClient) => Effect.Effect<A, E>,
      timeout: Duration.DurationInput = "300 millis"
    ) =>
      Effect.flatMap(HttpClient.HttpClient, (http) =>
        f(
          ProviderClient.makeWith(http, RateLimiter.make(), {
            baseUrl: `${origin}/v1`,
            credentials: credentials[auth](),
            timeout,
            retry: { maxRetries: 0 }
          }),
          http
        )).pipe(Effect.provide(layer), Effect.withTracerEnabled(false))

    it.live(`is ${deadlineAware ? "" : "not "}deadline-aware`, () =>
      Effect.gen(function*() {
        const http = yield* HttpClient.HttpClient
        expect(RequestDeadline.isDeadlineAware(http)).toBe(deadlineAware)
      }).pipe(Effect.provide(layer)))

    for (const auth of ["bearer", "query"] as const) {
      it.live(`a request that gets no answer fails with Timeout at its limit, aborted on the wire (${auth})`, () =>
        withProvider(auth, (client) =>
          Effect.gen(function*() {
            const path = `/hang-${name}-${auth}`
            const started = Date.now()
            const error = yield* Effect.flip(client.json({ method: "GET", path }, Echo))
            const elapsed = Date.now() - started
            expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 300ms" })
            expect(elapsed).toBeGreaterThanOrEqual(290)
            // Ended by its limit, not by the server (which never answers): a bound on a stall,
            // generous for a busy machine, far below the test's own time limit.
            expect(elapsed).toBeLessThan(10_000)
            // The server sees the connection closed before it answered.
            yield* Effect.promise(() => waitFor(() => aborted.some((url) => url.startsWith(`/v1${path}`))))
          })))

      // A limit of 2 s, so that a busy machine's answer from loopback still comes within it.
      it.live(`a request that completes is never aborted (${auth})`, () =>
        withProvider(auth, (client) =>
          Effect.gen(function*() {
            const paths = [`/done-${name}-${auth}-1`, `/done-${name}-${auth}-2`]
            for (const path of paths) {
              expect((yield* client.json({ method: "GET", path }, Echo)).url).toMatch(new RegExp(`^/v1${path}`))
            }
            // Past the limit: an abort after completion would close the kept-alive connection.
            yield* Effect.sleep("2300 millis")
            expect(servedByClosed.filter((url) => paths.some((path) => url.startsWith(`/v1${path}`)))).toEqual([])
          }), "2 seconds"))
    }
  })
}

const waitFor = async (condition: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error("the server never saw the request aborted")
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
