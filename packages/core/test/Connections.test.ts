import { describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Action, Component, Connection, Executor, Property } from "../src/index.js"
import { connected, connectionValues, fakeHttp, fixture, KEY } from "./support.js"

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
