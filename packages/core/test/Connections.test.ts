import { describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { Action, Auth, Component, Connection, Connections, Executor, Property, RateLimiter } from "../src/index.js"
import { connected, connectionValues, fakeHttp, fixture, KEY, TOKEN } from "./support.js"

const thing = JSON.stringify({ id: "t1", name: "n", count: 1 })
const getThing = (id = "a".repeat(24)) => ({ label: "Get", name: "get", type: "fixture/v1/getThing", parameters: { id } })

describe("Connections", () => {
  it.effect("opens a component's connection once per layer, however many steps ask at the same time", () =>
    Effect.gen(function*() {
      let authenticated = 0
      const counting = Component.make({
        ...fixture,
        actions: Object.values(fixture.actions).filter((a) => a.name !== "customAction"),
        triggers: [],
        connection: Connection.custom({
          title: "Counting",
          props: { key: Property.secret({ title: "Key", required: true }) },
          client: { defaultBaseUrl: "https://api.fixture.test/1" },
          authenticate: () => {
            authenticated++
            return { credentials: { transform: (client) => client, secrets: [] } }
          }
        })
      })
      const http = fakeHttp(() => ({ status: 200, body: thing }))
      const executor = Executor.make([counting])
      yield* Effect.all(Array.from({ length: 20 }, () => executor.run(getThing())), { concurrency: "unbounded" }).pipe(
        Effect.provide(connected({ fixture: { key: KEY } }, http.layer))
      )
      expect(authenticated).toBe(1)
      expect(http.sent.length).toBe(20)
    }))

  it.effect("a missing connection names the component and what to give; nothing is sent", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: thing }))
      const error = yield* Executor.make([fixture]).run(getThing()).pipe(
        Effect.provide(connected({}, http.layer)),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "InvalidInput" })
      expect(error.message).toBe("connections: fixture: no connection is given for fixture; it needs key, token")
      expect(http.sent).toEqual([])
    }))

  it.effect("a value named like an Object.prototype member is not a connection", () =>
    Effect.gen(function*() {
      const proto: Component.Component = { ...fixture, name: "constructor" }
      const error = yield* Effect.flip(
        Executor.make([proto]).run({ ...getThing(), type: "constructor/v1/getThing" }).pipe(Effect.provide(connected({})))
      )
      expect(error.message).toContain("no connection is given for constructor")
    }))

  it.effect("a failed opening is not kept: the next step opens it again", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: thing }))
      const executor = Executor.make([fixture])
      const values: Record<string, unknown> = {}
      yield* Effect.gen(function*() {
        expect((yield* Effect.flip(executor.run(getThing())))._tag).toBe("InvalidInput")
        values["fixture"] = connectionValues
        expect(yield* executor.run(getThing())).toEqual({ id: "t1", name: "n", count: 1 })
      }).pipe(Effect.provide(connected(values, http.layer)))
    }))
})

describe("Named connections", () => {
  const answer = () => ({ status: 200, body: thing })
  const named = (connection: string) => ({ ...getThing(), connection })
  const values = {
    fixture: connectionValues,
    work: { component: "fixture", key: KEY, token: "token-of-work" },
    home: { component: "fixture", key: KEY, token: "token-of-home" }
  }

  it.effect("a step runs with the connection it names, one without with its component's default", () =>
    Effect.gen(function*() {
      const http = fakeHttp(answer)
      const executor = Executor.make([fixture])
      yield* Effect.all([executor.run(named("work")), executor.run(named("home")), executor.run(getThing()), executor.run(named("work"))])
        .pipe(Effect.provide(connected(values, http.layer)))
      expect(http.sent.map((sent) => sent.headers["x-token"])).toEqual(["token-of-work", "token-of-home", TOKEN, "token-of-work"])
    }))

  it.effect("opens each named connection once, apart from the default", () =>
    Effect.gen(function*() {
      const opened: Array<string> = []
      const counting = Component.make({
        ...fixture,
        actions: Object.values(fixture.actions).filter((a) => a.name !== "customAction"),
        triggers: [],
        connection: Connection.custom({
          title: "Counting",
          props: { token: Property.secret({ title: "Token", required: true }) },
          client: { defaultBaseUrl: "https://api.fixture.test/1" },
          authenticate: (given) => {
            opened.push(Redacted.value(given.token))
            return { credentials: { transform: (client) => client, secrets: [] } }
          }
        })
      })
      const executor = Executor.make([counting])
      const steps = [named("work"), named("home"), getThing(), named("work"), named("home"), getThing()]
      yield* Effect.all(steps.map((step) => executor.run(step)), { concurrency: "unbounded" }).pipe(
        Effect.provide(connected({ fixture: { token: "t0" }, work: { component: "fixture", token: "t1" }, home: { component: "fixture", token: "t2" } }, fakeHttp(answer).layer))
      )
      expect([...opened].sort()).toEqual(["t0", "t1", "t2"])
    }))

  it.effect("a name that is not a connection, or one of another component, is refused before anything is sent", () =>
    Effect.gen(function*() {
      const http = fakeHttp(answer)
      const executor = Executor.make([fixture])
      const given = { ...values, other: { component: "somethingElse", key: KEY, token: TOKEN }, bare: { key: KEY, token: TOKEN } }
      const [missing, other, bare] = yield* Effect.all([named("nobody"), named("other"), named("bare")].map((step) => Effect.flip(executor.run(step))))
        .pipe(Effect.provide(connected(given, http.layer)))
      expect(missing.message).toBe("connections: nobody: there is no connection named \"nobody\"")
      expect(other.message).toBe("connections: other: the connection \"other\" is of somethingElse, not fixture")
      expect(bare.message).toBe("connections: bare: the connection \"bare\" does not say its component: give it \"component\": \"fixture\"")
      expect(http.sent).toEqual([])
    }))

  it("a connection's name is checked with the step", () => {
    const bad = Executor.make([fixture]).prepare(named("no spaces"))
    expect(Either.isLeft(bad) && bad.left.message).toContain("connection: must be a connection's name")
  })

  it.effect("withConnection makes a named connection its component's default", () =>
    Effect.gen(function*() {
      const http = fakeHttp(answer)
      const executor = Executor.make([fixture])
      yield* executor.run(getThing()).pipe(Connections.withConnection("home"), Effect.provide(connected(values, http.layer)))
      expect(http.sent.map((sent) => sent.headers["x-token"])).toEqual(["token-of-home"])
    }))

  it.effect("rate limits stay per credential: two tokens have a limit each, one token under two names shares one", () =>
    Effect.gen(function*() {
      const limited = Component.make({
        ...fixture,
        actions: Object.values(fixture.actions).filter((a) => a.name !== "customAction"),
        triggers: [],
        connection: Connection.custom({
          title: "One request per minute per token",
          props: { token: Property.secret({ title: "Token", required: true }) },
          client: { defaultBaseUrl: "https://api.fixture.test/1" },
          rateLimits: [{ scope: "token", limit: 1, interval: "1 minute" }],
          authenticate: (given) => ({ credentials: Auth.headers({ "X-Token": given.token }), rateLimitKeys: { token: given.token } })
        })
      })
      const http = fakeHttp(answer)
      const executor = Executor.make([limited])
      const layer = connected({
        a: { component: "fixture", token: "t-a" },
        b: { component: "fixture", token: "t-b" },
        alsoA: { component: "fixture", token: "t-a" }
      }, http.layer)
      yield* Effect.gen(function*() {
        yield* executor.run(named("a"))
        yield* executor.run(named("b"))
        // Two tokens, two limits: neither waited.
        expect(http.sent.map((sent) => sent.headers["x-token"])).toEqual(["t-a", "t-b"])
        const shared = yield* Effect.fork(executor.run(named("alsoA")))
        yield* TestClock.adjust("59 seconds")
        expect(http.sent.length).toBe(2)
        yield* TestClock.adjust("2 seconds")
        yield* Fiber.join(shared)
        expect(http.sent.map((sent) => sent.headers["x-token"])).toEqual(["t-a", "t-b", "t-a"])
      }).pipe(Effect.provide(layer), Effect.provideService(RateLimiter.RateLimiters, RateLimiter.make()))
    }))
})

describe("Executor.prepare and runPrepared", () => {
  const executor = Executor.make([fixture])
  it.effect("checks a step once, then runs it with the parameters given then", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) => ({ status: 200, body: JSON.stringify({ id: request.url.slice(-24), name: "n", count: 1 }) }))
      const prepared = executor.prepare(getThing("${earlier.id}"))
      expect(Either.isRight(prepared) && prepared.right.action.name).toBe("getThing")
      if (Either.isLeft(prepared)) return
      const output = yield* executor.runPrepared(prepared.right, { id: "b".repeat(24) }).pipe(
        Effect.provide(connected({ fixture: connectionValues }, http.layer))
      )
      expect(output).toEqual({ id: "b".repeat(24), name: "n", count: 1 })
      const bad = yield* Effect.flip(executor.runPrepared(prepared.right, { id: "x" }).pipe(Effect.provide(connected({}))))
      expect(bad.message).toBe("step \"get\" (fixture/v1/getThing): id: must be 24 hexadecimal digits")
    }))

  it.effect("a step whose parameters are all known is decoded once, however often it runs", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: JSON.stringify({ id: "c".repeat(24), name: "n", count: 1 }) }))
      const prepared = executor.prepare(getThing("c".repeat(24)))
      if (Either.isLeft(prepared)) return expect.fail(prepared.left.message)
      const decode = vi.spyOn(prepared.right.action, "decode")
      try {
        const decoded = executor.decodeParameters(prepared.right, prepared.right.step.parameters)
        if (Either.isLeft(decoded)) return expect.fail(decoded.left.message)
        for (let i = 0; i < 3; i++) {
          expect(yield* executor.runDecoded(decoded.right).pipe(Effect.provide(connected({ fixture: connectionValues }, http.layer))))
            .toEqual({ id: "c".repeat(24), name: "n", count: 1 })
        }
        expect(decode).toHaveBeenCalledTimes(1)
        const bad = executor.decodeParameters(prepared.right, { id: "x" })
        expect(Either.isLeft(bad) && bad.left.message).toBe("step \"get\" (fixture/v1/getThing): id: must be 24 hexadecimal digits")
      } finally {
        decode.mockRestore()
      }
    }))

  it("refuses a malformed step or an unknown type, naming it", () => {
    const unknown = executor.prepare({ ...getThing(), type: "fixture/v1/nothing" })
    expect(Either.isLeft(unknown) && unknown.left.message).toContain("fixture/v1 has no action \"nothing\"")
    const malformed = executor.prepare({ name: "get" })
    expect(Either.isLeft(malformed) && malformed.left._tag).toBe("InvalidInput")
  })
})

describe("A declared connection", () => {
  it.effect("types the action's context.connection as the connection's decoded values", () =>
    Effect.gen(function*() {
      const connection = Connection.apiKey({ title: "Key", header: "X-Key", client: { defaultBaseUrl: "https://a.test" } })
      const echo = Action.make({
        name: "whoami",
        title: "Who am I",
        description: "",
        impact: "read",
        props: {},
        connection,
        run: (_, context) => Effect.sync(() => void (seen = context.connection.baseUrl ?? "default"))
      })
      let seen = ""
      const component = Component.make({ name: "keyed", version: 1, title: "", description: "", category: "", connection, actions: [echo] })
      yield* Executor.make([component]).run({ label: "W", name: "w", type: "keyed/v1/whoami", parameters: {} }).pipe(
        Effect.provide(connected({ keyed: { apiKey: "k-123", baseUrl: "https://b.test" } }))
      )
      expect(seen).toBe("https://b.test")
    }))
})
