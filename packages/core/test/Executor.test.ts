import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import * as Schema from "effect/Schema"
import { Action, Component, Executor, RateLimiter, Registry, Step } from "../src/index.js"
import { connected, connectionValues, fakeHttp, fixture, KEY, TOKEN } from "./support.js"

const BASE = "https://api.fixture.test"
const executor = Executor.make([fixture])
const run = (step: unknown, connection: unknown = connectionValues) =>
  executor.run(step).pipe(Effect.provide(connected({ fixture: connection })))

const step = (type: string, parameters: Record<string, unknown>) => ({ label: "A step", name: "step1", type, parameters })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("Step.parseType", () => {
  it("parses <component>/v<version>/<action>", () => {
    expect(Step.parseType("boardtool/v1/createCard")).toEqual(
      Either.right({ component: "boardtool", version: 1, action: "createCard" })
    )
  })
  it.each(["boardtool/createCard", "boardtool/v0/x", "boardtool/1/x", "Boardtool/v1/x", "a/v1/b/c", ""])(
    "rejects %j",
    (type) => {
      const result = Step.parseType(type)
      expect(Either.isLeft(result) && result.left.issues[0]!.path).toBe("type")
    }
  )
})

describe("Registry", () => {
  const registry = Registry.make([fixture])
  const messageOf = (type: string) => {
    const result = registry.action(type)
    return Either.isLeft(result) ? result.left.message : "resolved"
  }
  it("resolves an action, including the custom action", () => {
    expect(Either.map(registry.action("fixture/v1/getThing"), (r) => r.definition.name)).toEqual(Either.right("getThing"))
    expect(Either.isRight(registry.action("fixture/v1/customAction"))).toBe(true)
  })
  it("names what exists when the component, version or action is unknown", () => {
    expect(messageOf("nope/v1/getThing")).toBe("type: unknown component \"nope\"; available: fixture/v1")
    expect(messageOf("fixture/v2/getThing")).toBe("type: fixture has no version v2; available: v1")
    expect(messageOf("fixture/v1/deleteThing")).toBe(
      "type: fixture/v1 has no action \"deleteThing\"; available: createThing, getThing, customAction"
    )
    expect(messageOf("fixture/v1/toString")).toContain("has no action \"toString\"")
  })
  it("refuses to register the same component version twice", () => {
    expect(() => Registry.make([fixture, fixture])).toThrow("fixture/v1 is registered twice")
  })
})

describe("Executor", () => {
  it.effect("runs an action: the exact wire request, and the decoded output", () =>
    Effect.gen(function*() {
      const scope = nock(BASE, { reqheaders: { "x-key": KEY, "x-token": TOKEN, accept: "application/json" } })
        .post("/1/things", {
          text: "hello",
          flag: true,
          count: 3,
          when: "2026-11-21T10:00:00Z",
          meta: { a: 1 },
          tags: ["t"],
          color: "blue"
        })
        .reply(200, { id: "t1", name: "hello", count: 3, extra: "ignored" })
      const output = yield* run(step("fixture/v1/createThing", {
        text: "hello",
        flag: true,
        count: 3,
        when: "2026-11-21T10:00:00Z",
        meta: { a: 1 },
        tags: ["t"],
        color: "blue"
      }))
      expect(output).toEqual({ id: "t1", name: "hello", count: 3 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("sends nothing when the parameters are invalid, and names the step and every bad field", () =>
    Effect.gen(function*() {
      const anywhere = nock(/.*/).get(/.*/).reply(200, {}).persist()
      const error = yield* Effect.flip(run(step("fixture/v1/getThing", { id: "not-hex", extra: 1 })))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toBe(
        "step \"step1\" (fixture/v1/getThing): extra: is not a known parameter; id: must be 24 hexadecimal digits"
      )
      expect(anywhere.isDone()).toBe(false)
    }))

  it.effect("rejects a malformed step with every problem named", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run({ name: "bad name", parameters: [], type: 3 }))
      expect(error._tag).toBe("InvalidInput")
      expect(error._tag === "InvalidInput" && error.issues.map((i) => i.path).sort()).toEqual(
        ["label", "name", "parameters", "type"]
      )
    }))

  it.effect("rejects an unknown type before anything is sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run(step("fixture/v1/nothing", {})))
      expect(error.message).toBe(
        "step \"step1\" (fixture/v1/nothing): type: fixture/v1 has no action \"nothing\"; available: createThing, getThing, customAction"
      )
    }))

  it.effect("a missing connection field is an InvalidInput naming it, never echoing secrets", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run(step("fixture/v1/getThing", { id: "a".repeat(24) }), { key: KEY }))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toBe("connection: token: is required")
      expect(JSON.stringify(error)).not.toContain(KEY)
    }))

  it.effect("the connection's baseUrl overrides the provider's", () =>
    Effect.gen(function*() {
      const scope = nock("http://127.0.0.1:9999").get("/sim/1/things/" + "b".repeat(24)).reply(200, {
        id: "x",
        name: "n",
        count: 0
      })
      const output = yield* run(
        step("fixture/v1/getThing", { id: "b".repeat(24) }),
        { ...connectionValues, baseUrl: "http://127.0.0.1:9999/sim/1" }
      )
      expect(output).toEqual({ id: "x", name: "n", count: 0 })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a provider's plain-text 400 becomes an InvalidInput with its text", () =>
    Effect.gen(function*() {
      nock(BASE).get("/1/things/" + "c".repeat(24)).reply(400, "invalid id", { "content-type": "text/plain" })
      const error = yield* Effect.flip(run(step("fixture/v1/getThing", { id: "c".repeat(24) })))
      expect(error).toMatchObject({ _tag: "InvalidInput", message: "invalid id", request: { method: "GET" } })
    }))

  it.effect("loads dynamic options, and an empty list while a dependency is missing", () =>
    Effect.gen(function*() {
      nock(BASE).get("/1/boards/b1/lists").reply(200, [{ id: "l1", name: "To do", count: 0 }, { id: "l2", name: "Done", count: 1 }])
      const options = yield* executor.options("fixture/v1/createThing", "listId", { boardId: "b1" }).pipe(Effect.provide(connected({ fixture: connectionValues })))
      expect(options).toEqual([{ label: "To do", value: "l1" }, { label: "Done", value: "l2" }])
      const empty = yield* executor.options("fixture/v1/createThing", "listId", {}).pipe(Effect.provide(connected({ fixture: connectionValues })))
      expect(empty).toEqual([])
      const error = yield* Effect.flip(
        executor.options("fixture/v1/createThing", "text", {}).pipe(Effect.provide(connected({ fixture: connectionValues })))
      )
      expect(error.message).toContain("has no property \"text\" with dynamic options; available: listId")
      // A dependency is checked like any parameter before it is sent.
      const bad = yield* Effect.flip(
        executor.options("fixture/v1/createThing", "listId", { boardId: 42 }).pipe(Effect.provide(connected({ fixture: connectionValues })))
      )
      expect(bad.message).toBe("options of listId: boardId: must be a string")
    }))
})

describe("Executor output", () => {
  const Out = Schema.Struct({ id: Schema.String })
  const component = (result: unknown) =>
    Component.make({
      name: "raw",
      version: 1,
      title: "Raw",
      description: "",
      category: "Testing",
      connection: fixture.connection,
      actions: [Action.make({
        name: "give",
        title: "Give",
        description: "",
        impact: "read",
        props: {},
        output: Out,
        run: () => Effect.succeed(result as typeof Out.Type)
      })]
    })
  const give = (result: unknown) =>
    Executor.make([component(result)]).run({ label: "G", name: "g", type: "raw/v1/give", parameters: {} })
      .pipe(Effect.provide(connected({ raw: connectionValues })))

  it.effect("keeps only the declared fields, and rejects an output that does not match", () =>
    Effect.gen(function*() {
      expect(yield* give({ id: "a", internal: "not for the workflow" })).toEqual({ id: "a" })
      const error = yield* Effect.flip(give({ id: 1 }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.message).toContain("raw/v1/give produced an output that does not match its schema")
    }))
})

describe("Component.withRateLimits", () => {
  const reads = (component: Component.Component) =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const http = fakeHttp(() => ({ status: 200, body: JSON.stringify({ id: "abc", name: "A", count: 1 }) }))
      const readThing = step("fixture/v1/getThing", { id: "5f1e0c0d2b3a4c5d6e7f8091" })
      const fiber = yield* Effect.fork(
        Effect.forEach([1, 2, 3], () => Executor.make([component]).run(readThing), { concurrency: "unbounded" }).pipe(
          Effect.provide(connected({ fixture: connectionValues }, http.layer)),
          Effect.provideService(RateLimiter.RateLimiters, RateLimiter.make())
        )
      )
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      // Authenticated by the connection, whatever its limits.
      expect(http.sent.map((s) => s.headers["x-key"])).toEqual([KEY, KEY, KEY])
      return http.sent.map((s) => s.at - start)
    })

  it.effect("paces by the limits it is given, keeping the connection's auth and keys", () =>
    Effect.gen(function*() {
      // The fixture's own limit (100 per 10 s) lets three start at once.
      expect(yield* reads(fixture)).toEqual([0, 0, 0])
      // One per 10 s (and 5 ms) after each answer (here at once), per token: the same credentials count.
      expect(yield* reads(Component.withRateLimits(fixture, [{ scope: "token", limit: 1, interval: "10 seconds" }])))
        .toEqual([0, 10_005, 20_010])
    }))

  it.effect("a limit given twice is one limit: a request takes one token of it, and no window sees more than `limit` start", () =>
    Effect.gen(function*() {
      const limit = { scope: "token", limit: 3, interval: "10 seconds" } as const
      // The same credentials' bucket, named twice by one connection and once by another.
      const twice = Executor.make([Component.withRateLimits(fixture, [limit, limit])])
      const once = Executor.make([Component.withRateLimits(fixture, [limit])])
      const http = fakeHttp(() => ({ status: 200, body: JSON.stringify({ id: "abc", name: "A", count: 1 }) }))
      const readThing = step("fixture/v1/getThing", { id: "5f1e0c0d2b3a4c5d6e7f8091" })
      const fiber = yield* Effect.fork(
        Effect.forEach([twice, twice, once, once, once, once, once, once], (executor) => executor.run(readThing), { concurrency: "unbounded" }).pipe(
          Effect.provide(connected({ fixture: connectionValues }, http.layer)),
          Effect.provideService(RateLimiter.RateLimiters, RateLimiter.make())
        )
      )
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      const times = http.sent.map((s) => s.at).sort((a, b) => a - b)
      // Three at once, then three an interval (and the margin) after their answers, and so on.
      // (So no window of 10 s holds more than three.)
      expect(times).toEqual([0, 0, 0, 10_005, 10_005, 10_005, 20_010, 20_010])
    }))

  it.effect("with none, there is no limiter", () =>
    Effect.gen(function*() {
      const tight = Component.withRateLimits(fixture, [{ scope: "token", limit: 1, interval: "10 seconds" }])
      expect(yield* reads(Component.withRateLimits(tight, []))).toEqual([0, 0, 0])
    }))
})
