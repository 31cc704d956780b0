/**
 * Connection tests: the request a connection declares, run through its own client by the
 * executor and the typed clients, its failures typed: refused (401/403), unreachable (5xx after
 * the retries, no answer), invalid values (nothing sent), no test declared.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Auth, Client, Component, Connection, Connections, ConnectionTest, Executor, Property } from "../src/index.js"
import { fakeHttp, fixture, type Handler, KEY, TOKEN } from "./support.js"

const Me = Schema.Struct({ id: Schema.String, fullName: Schema.String })

const tested = Component.make({
  name: "tested",
  version: 1,
  title: "Tested",
  description: "A component whose connection declares its test.",
  category: "Testing",
  connection: Connection.custom({
    title: "Key and token",
    props: {
      key: Property.secret({ title: "Key", required: true, minLength: 1 }),
      token: Property.secret({ title: "Token", required: true, minLength: 1 })
    },
    client: { defaultBaseUrl: "https://api.tested.test/1", retry: { maxRetries: 2, baseDelay: "100 millis" } },
    authenticate: (values) => ({ credentials: Auth.headers({ "X-Key": values.key, "X-Token": values.token }) }),
    test: ConnectionTest.make({
      request: { method: "GET", path: "/members/me", query: { fields: "fullName" } },
      answer: Me,
      identify: (me) => ({ account: me.fullName }),
      whenRefused: "create a new token at https://tested.test/tokens"
    })
  }),
  actions: []
})

const values = { key: KEY, token: TOKEN }

/** The executor's test of `component` over an in-memory HttpClient answering with `handler`. */
const testWith = (handler: Handler, component: Component.Component = tested, given: unknown = values) => {
  const http = fakeHttp(handler)
  const executor = Executor.make([component])
  const run = executor.testConnection(component).pipe(
    Effect.provide(Connections.layer({ [component.name]: given }).pipe(Layer.provide(http.layer)))
  )
  return { run, sent: http.sent }
}

describe("ConnectionTest", () => {
  it.effect("sends the declared request with the connection's credentials, and says who they belong to", () =>
    Effect.gen(function*() {
      const { run, sent } = testWith(() => ({ status: 200, body: { id: "m1", fullName: "Ada Lovelace" } }))
      const result = yield* run
      expect(result).toMatchObject({
        connection: "tested",
        request: { method: "GET", path: "/members/me" },
        account: "Ada Lovelace",
        missingScopes: [],
        message: "connection tested: the credentials work (Ada Lovelace)"
      })
      expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(["GET https://api.tested.test/1/members/me?fields=fullName"])
      expect(sent[0]!.headers["x-token"]).toBe(TOKEN)
    }))

  it.effect("a named connection is tested with its own credentials, and named by its name", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) =>
        request.headers["x-token"] === "work-token"
          ? { status: 200, body: { id: "m2", fullName: "Grace Hopper" } }
          : { status: 401, body: "invalid token", headers: { "content-type": "text/plain" } }
      )
      const layer = Connections.layer({ tested: values, work: { component: "tested", key: KEY, token: "work-token" } }).pipe(Layer.provide(http.layer))
      const executor = Executor.make([tested])
      const result = yield* executor.testConnection(tested, "work").pipe(Effect.provide(layer))
      expect(result).toMatchObject({ connection: "work", account: "Grace Hopper", message: "connection work: the credentials work (Grace Hopper)" })
      const refused = yield* Effect.flip(executor.testConnection(tested).pipe(Effect.provide(layer)))
      expect(refused).toMatchObject({ connection: "tested", reason: "refused" })
      const missing = yield* Effect.flip(executor.testConnection(tested, "home").pipe(Effect.provide(layer)))
      expect(missing).toMatchObject({ connection: "home", reason: "invalid" })
      expect(missing.message).toContain("there is no connection named \"home\"")
    }))

  it.effect("a 401 is refused: naming the connection, the provider's answer and what to do; never retried, never the secret", () =>
    Effect.gen(function*() {
      const { run, sent } = testWith(() => ({ status: 401, body: `invalid token ${TOKEN}`, headers: { "content-type": "text/plain" } }))
      const error = yield* Effect.flip(run)
      expect(error).toBeInstanceOf(ConnectionTest.ConnectionTestFailed)
      expect(error).toMatchObject({
        _tag: "ConnectionTestFailed",
        connection: "tested",
        reason: "refused",
        status: 401,
        request: { method: "GET", path: "/members/me" },
        remedy: "create a new token at https://tested.test/tokens"
      })
      expect(error.message).toMatch(/^connection tested: https:\/\/api\.tested\.test\/1 refused the credentials \(GET \/members\/me: 401 invalid token/)
      expect(error.message).toContain("create a new token at https://tested.test/tokens")
      expect(JSON.stringify(error)).not.toContain(TOKEN)
      expect(error.message).not.toContain(TOKEN)
      expect(sent).toHaveLength(1)
    }))

  it.effect("a 403 is refused too", () =>
    Effect.gen(function*() {
      const { run } = testWith(() => ({ status: 403, body: { message: "forbidden" } }))
      expect(yield* Effect.flip(run)).toMatchObject({ reason: "refused", status: 403 })
    }))

  it.effect("a 500 is retried as any read is, then unreachable: the provider, not the credentials", () =>
    Effect.gen(function*() {
      const { run, sent } = testWith(() => ({ status: 500, body: { message: "boom" } }))
      const fiber = yield* Effect.fork(Effect.flip(run))
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ reason: "unreachable", status: 500, connection: "tested" })
      expect(error.message).toContain("https://api.tested.test/1 could not be reached (GET /members/me: 500 boom)")
      expect(sent).toHaveLength(3)
    }))

  it.effect("no answer at all (the connection refused) is unreachable, without a status", () =>
    Effect.gen(function*() {
      const { run } = testWith(() => "refused")
      const fiber = yield* Effect.fork(Effect.flip(run))
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ reason: "unreachable", status: undefined })
      expect(error.remedy).toContain("check that https://api.tested.test/1 is reachable")
    }))

  it.effect("a 404 (a base URL that is not the provider's API) is unexpected", () =>
    Effect.gen(function*() {
      const { run } = testWith(() => ({ status: 404, body: "no such route" }))
      const error = yield* Effect.flip(run)
      expect(error).toMatchObject({ reason: "unexpected", status: 404 })
      expect(error.remedy).toBe("check that the connection's base URL (https://api.tested.test/1) is the provider's API")
    }))

  it.effect("missing values are invalid, and nothing is sent", () =>
    Effect.gen(function*() {
      const { run, sent } = testWith(() => ({ status: 200, body: {} }), tested, { key: KEY })
      const error = yield* Effect.flip(run)
      expect(error).toMatchObject({ reason: "invalid", connection: "tested" })
      expect(error.message).toContain("token")
      expect(sent).toEqual([])
    }))

  it.effect("a component that declares no test says so, and sends nothing", () =>
    Effect.gen(function*() {
      const { run, sent } = testWith(() => ({ status: 200, body: {} }), fixture)
      expect(yield* Effect.flip(run)).toMatchObject({ reason: "undeclared", connection: "fixture" })
      expect(sent).toEqual([])
    }))

  it("the connection's description names its test request", () => {
    expect(Connection.describe(tested.connection).test).toBe("GET /members/me")
    expect(Connection.describe(fixture.connection).test).toBeUndefined()
  })
})

describe("ConnectionTest: the typed clients", () => {
  const Tested = Client.make(tested)

  it("the Promise client's testConnection resolves to the result, and rejects with ConnectionTestFailed itself", async () => {
    const ok = Tested.client(values, { httpClient: fakeHttp(() => ({ status: 200, body: { id: "m1", fullName: "Ada" } })).layer })
    expect(await ok.testConnection()).toMatchObject({ connection: "tested", account: "Ada" })
    await ok.close()
    const refused = Tested.client(values, { httpClient: fakeHttp(() => ({ status: 401, body: "invalid token" })).layer })
    const failure = await refused.testConnection().catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ConnectionTest.ConnectionTestFailed)
    expect(failure).toMatchObject({ reason: "refused", connection: "tested" })
    await refused.close()
  })

  it.effect("the Effect client's testConnection fails with the typed error", () =>
    Effect.gen(function*() {
      const client = yield* Tested.effect(values)
      const error = yield* Effect.flip(client.testConnection())
      expect(error).toMatchObject({ _tag: "ConnectionTestFailed", reason: "refused", status: 401 })
    }).pipe(Effect.scoped, Effect.provide(fakeHttp(() => ({ status: 401, body: "invalid token" })).layer)))

  it("refuses a component with an action named testConnection", () => {
    const clashing = { ...tested, actions: { testConnection: {} } } as unknown as Component.Component
    expect(() => Client.make(clashing)).toThrow(/testConnection/)
  })
})
