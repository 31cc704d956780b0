import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as TestClock from "effect/TestClock"
import { createServer } from "node:net"
import { inspect } from "node:util"
import { Auth, Component, Connection, Executor, Property } from "../src/index.js"
import { createThing, fakeHttp, getThing } from "./support.js"

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
  actions: [getThing, createThing]
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
        Executor.make([queryAuth]).run(
          { label: "Get", name: "get", type: "queryauth/v1/getThing", parameters: { id: "a".repeat(24) } },
          { key: KEY, token: TOKEN }
        ).pipe(
          Effect.provide(http.layer),
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
      const error = yield* Executor.make([queryAuth]).run(
        { label: "Get", name: "get", type: "queryauth/v1/getThing", parameters: { id: "a".repeat(24) } },
        { key: KEY, token: TOKEN, baseUrl: `http://127.0.0.1:${port}/1` }
      ).pipe(Effect.provide(FetchHttpClient.layer), Effect.flip)
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
          { label: "Get", name: "get", type: "composed/v1/getThing", parameters: { id: "a".repeat(24) } },
          { key: KEY, token: TOKEN }
        ).pipe(Effect.provide(http.layer))
      )
      expect(http.sent[0]!.headers["authorization"]).toBe(`OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"`)
      expect(error.message).toBe("invalid token [redacted]")
    }))
})
