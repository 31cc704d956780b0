import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as TestClock from "effect/TestClock"
import { createServer } from "node:net"
import { inspect } from "node:util"
import * as Redacted from "effect/Redacted"
import { Auth, Component, Connection, Executor, Property } from "../src/index.js"
import { connected, createThing, fakeHttp, getThing, meStep, oauthComponent } from "./support.js"

const KEY = "KEY-abcdef0123456789"
const TOKEN = "TOKEN-0123456789abcdef"

// A connection that sends its credentials in the query string, the riskiest place.
const queryAuth = Component.make({
  name: "queryauth",
  version: 1,
  title: "Query auth",
  description: "",
  category: "Testing",
  connection: Connection.custom({
    title: "Key and token",
    props: {
      key: Property.secret({ title: "Key", required: true }),
      token: Property.secret({ title: "Token", required: true })
    },
    client: { defaultBaseUrl: "https://api.example.test/1", retry: { maxRetries: 2 } },
    authenticate: (values) => ({ credentials: Auth.query({ key: values.key, token: values.token }) })
  }),
  actions: [getThing, createThing],
  customAction: true
})

describe("Redaction", () => {
  it.effect("no secret in any error, log line or description, even when the provider echoes it", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const logger = Logger.make(({ message, annotations, logLevel }) => {
        lines.push(`${logLevel.label} ${inspect(message, { depth: 5 })} ${inspect(annotations, { depth: 5 })}`)
      })
      const http = fakeHttp((request, i) => {
        expect(request.url).toContain(`token=${TOKEN}`)
        return i < 2
          ? { status: 503, body: `overloaded for ${request.url}` }
          : { status: 401, body: JSON.stringify({ message: `invalid token ${TOKEN} for key ${KEY}` }) }
      })
      const fiber = yield* Effect.fork(
        Executor.make([queryAuth]).run({ label: "Get", name: "get", type: "queryauth/v1/getThing", parameters: { id: "a".repeat(24) } }).pipe(Effect.provide(connected({ queryauth: { key: KEY, token: TOKEN } }, http.layer)),
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.All),
          Effect.flip
        )
      )
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(http.sent).toHaveLength(3)
      expect(error).toMatchObject({ _tag: "AuthenticationFailed", message: "invalid token [redacted] for key [redacted]" })
      expect(lines.some((line) => line.includes("retrying GET /things/"))).toBe(true)
      const everything = [
        ...lines,
        String(error),
        inspect(error, { depth: 10 }),
        JSON.stringify(error),
        JSON.stringify(Component.describe(queryAuth))
      ].join("\n")
      expect(everything).not.toContain(TOKEN)
      expect(everything).not.toContain(KEY)
    }))

  it.live("a transport failure's message names the host only, never the URL with its query", () =>
    Effect.gen(function*() {
      // A port that was just free on loopback: a real ECONNREFUSED from fetch.
      const port = yield* Effect.promise(() => freePort())
      const error = yield* Executor.make([queryAuth]).run({ label: "Get", name: "get", type: "queryauth/v1/getThing", parameters: { id: "a".repeat(24) } }).pipe(
        Effect.provide(connected({ queryauth: { key: KEY, token: TOKEN, baseUrl: `http://127.0.0.1:${port}/1` } })),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "UpstreamUnavailable", message: `could not connect to 127.0.0.1:${port} (ECONNREFUSED)` })
      expect(inspect(error, { depth: 10 })).not.toContain(TOKEN)
    }))
})

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

describe("Redaction of composed credentials", () => {
  it.effect("secret fields composed into one header are still scrubbed from provider messages", () =>
    Effect.gen(function*() {
      const composed = Component.make({
        name: "composed",
        version: 1,
        title: "Composed",
        description: "",
        category: "Testing",
        connection: Connection.custom({
          title: "OAuth 1 header",
          props: { key: Property.secret({ title: "Key", required: true }), token: Property.secret({ title: "Token", required: true }) },
          client: { defaultBaseUrl: "https://api.example.test/1" },
          authenticate: (values) => ({
            credentials: Auth.headers({
              Authorization: `OAuth oauth_consumer_key="${Auth.reveal(values.key)}", oauth_token="${Auth.reveal(values.token)}"`
            })
          })
        }),
        actions: [getThing]
      })
      const http = fakeHttp(() => ({ status: 401, body: `invalid token ${TOKEN}` }))
      const error = yield* Effect.flip(
        Executor.make([composed]).run(
          { label: "Get", name: "get", type: "composed/v1/getThing", parameters: { id: "a".repeat(24) } }).pipe(Effect.provide(connected({ composed: { key: KEY, token: TOKEN } }, http.layer)))
      )
      expect(http.sent[0]!.headers["authorization"]).toBe(`OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"`)
      expect(error.message).toBe("invalid token [redacted]")
    }))
})

describe("Redaction and time limits with OAuth2 refreshes", () => {
  const { component: oauthy } = oauthComponent(
    { authorizeUrl: "https://auth.test/authorize", tokenUrl: "https://api.test/token", scopes: [] },
    { defaultBaseUrl: "https://api.test/v2", timeout: "5 seconds", retry: { maxRetries: 0 } }
  )
  const expired = { clientId: "c", clientSecret: "client-secret-1", accessToken: "OLDACCESS-1", refreshToken: "REFRESH-1", expiresAt: 0 }
  const fresh = JSON.stringify({ access_token: "NEWACCESS-123456", expires_in: 3600 })

  it.effect("a request that refreshes its token first still has its time limit", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) => request.url.endsWith("/token") ? { status: 200, body: fresh } : "hang")
      const fiber = yield* Effect.fork(
        Executor.make([oauthy]).run(meStep).pipe(Effect.provide(connected({ oauthy: expired }, http.layer)), Effect.flip)
      )
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 5s", request: { method: "GET", path: "/me" } })
      expect(http.sent.map((s) => `${s.method} ${s.url}`)).toEqual(["POST https://api.test/token", "GET https://api.test/v2/me"])
      expect(http.sent[1]!.headers["authorization"]).toBe("Bearer NEWACCESS-123456")
    }))

  it.effect("a token obtained by a refresh is scrubbed like the others", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) =>
        request.url.endsWith("/token")
          ? { status: 200, body: fresh }
          : { status: 400, body: JSON.stringify({ message: "bad token Bearer NEWACCESS-123456", echo: ["NEWACCESS-123456"] }) }
      )
      const error = yield* Executor.make([oauthy]).run(meStep).pipe(Effect.provide(connected({ oauthy: expired }, http.layer)), Effect.flip)
      expect(error.message).toBe("bad token Bearer [redacted]")
      expect(JSON.stringify(error.body)).not.toContain("NEWACCESS")
    }))

  it.effect("an optional connection value given as undefined counts as absent", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: JSON.stringify({ id: "u1" }) }))
      const output = yield* Executor.make([oauthy]).run(meStep).pipe(Effect.provide(connected({ oauthy: {
        clientId: "c",
        clientSecret: "s",
        accessToken: "a-token",
        refreshToken: undefined,
        expiresAt: undefined
      } }, http.layer)))
      expect(output).toEqual({ id: "u1" })
    }))
})

describe("Redaction of paths, decoding details and bodies", () => {
  it.effect("a credential in the path, in a mismatching body or inside a number is handled", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) =>
        request.url.includes("/tokens/")
          ? { status: 404, body: "not found" }
          : request.url.includes("/things/")
          ? { status: 200, body: JSON.stringify({ id: TOKEN, name: 1, count: 1 }) }
          : { status: 409, body: JSON.stringify({ id: 9123456789, note: `key ${KEY}` }) }
      )
      const run = (type: string, parameters: Record<string, unknown>) =>
        Executor.make([queryAuth]).run({ label: "S", name: "s", type, parameters }).pipe(Effect.provide(connected({ queryauth: { key: KEY, token: TOKEN } }, http.layer)),
          Effect.flip
        )
      const inPath = yield* run("queryauth/v1/customAction", { method: "GET", path: `/tokens/${TOKEN}/webhooks` })
      expect(inPath.request).toEqual({ method: "GET", path: "/tokens/[redacted]/webhooks" })
      const mismatch = yield* run("queryauth/v1/getThing", { id: "a".repeat(24) })
      expect(mismatch._tag).toBe("UnexpectedResponse")
      expect(mismatch.message).toBe("the response does not match the expected shape: name: Expected string, actual 1")
      const conflict = yield* run("queryauth/v1/customAction", { method: "POST", path: "/x", body: {} })
      expect(conflict.body).toEqual({ id: 9123456789, note: "key [redacted]" })
      expect(inspect([inPath, mismatch, conflict], { depth: 10 })).not.toContain(TOKEN)
    }))

  it("scrubs longer secrets first, and their URL-encoded form", () => {
    const secrets = [Redacted.make("abcd"), Redacted.make("abcdefgh"), Redacted.make("p@ss word!")]
    expect(Auth.scrub(secrets, "x abcdefgh y abcd z p%40ss%20word! w")).toBe("x [redacted] y [redacted] z [redacted] w")
    expect(Auth.scrubValue(secrets, { "abcd": ["abcdefgh", 12345678, null] })).toEqual({ "[redacted]": ["[redacted]", 12345678, null] })
  })
})
