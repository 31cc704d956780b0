import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Auth, Bulk, ConnectorError, ProviderClient, RateLimiter } from "../src/index.js"
import { TestHttpClient } from "../src/testing.js"

const ids = (n: number) => Array.from({ length: n }, (_, i) => `item-${i}`)

/** Runs an effect that sleeps on TestClock to its end. */
const runToEnd = <A>(effect: Effect.Effect<A>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(effect)
    yield* TestClock.adjust("1 hour")
    return yield* Fiber.join(fiber)
  })

const Thing = Schema.Struct({ id: Schema.String, closed: Schema.Boolean })

describe("Bulk", () => {
  it.effect("reports results in input order, whatever order the items finish in", () =>
    Effect.gen(function*() {
      const items = [{ id: "a", ms: 300 }, { id: "b", ms: 100 }, { id: "c", ms: 200 }, { id: "d", ms: 0 }]
      const finished: Array<string> = []
      const report = yield* runToEnd(Bulk.forEach(
        items,
        (item) => Effect.as(Effect.zipRight(Effect.sleep(item.ms), Effect.sync(() => finished.push(item.id))), item.ms),
        { id: (item) => item.id, concurrency: 4 }
      ))
      expect(finished).toEqual(["d", "b", "c", "a"])
      expect(report).toEqual({
        succeeded: 4,
        failed: 0,
        results: [
          { id: "a", ok: true, output: 300 },
          { id: "b", ok: true, output: 100 },
          { id: "c", ok: true, output: 200 },
          { id: "d", ok: true, output: 0 }
        ]
      })
    }))

  it.effect("keeps at most `concurrency` items in flight, and starts the next as one ends", () =>
    Effect.gen(function*() {
      let inFlight = 0
      let most = 0
      const started: Array<number> = []
      const fiber = yield* Effect.fork(Bulk.forEach(ids(10), () =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            most = Math.max(most, ++inFlight)
            started.push(inFlight)
          }),
          () => Effect.sleep("1 second"),
          () => Effect.sync(() => inFlight--)
        ), { id: (id) => id, concurrency: 3 }))
      yield* TestClock.adjust("0 millis")
      expect(inFlight).toBe(3)
      yield* TestClock.adjust("1 second")
      expect(started.length).toBe(6)
      yield* TestClock.adjust("3 seconds")
      const report = yield* Fiber.join(fiber)
      expect(most).toBe(3)
      expect(report.succeeded).toBe(10)
    }))

  it.effect("a failing item does not stop the others; its result names its error, and the report which items succeeded", () =>
    Effect.gen(function*() {
      const attempted: Array<string> = []
      const report = yield* Bulk.forEach(ids(5), (id) =>
        Effect.zipRight(
          Effect.sync(() => attempted.push(id)),
          id === "item-1" || id === "item-3"
            ? Effect.fail(new ConnectorError.NotFound({ message: `${id} not found`, status: 404 }))
            : Effect.succeed(id.toUpperCase())
        ), { id: (id) => id, concurrency: 1 })
      expect(attempted).toEqual(ids(5))
      expect(report.succeeded).toBe(3)
      expect(report.failed).toBe(2)
      expect(report.results).toEqual([
        { id: "item-0", ok: true, output: "ITEM-0" },
        { id: "item-1", ok: false, error: { _tag: "NotFound", message: "item-1 not found" } },
        { id: "item-2", ok: true, output: "ITEM-2" },
        { id: "item-3", ok: false, error: { _tag: "NotFound", message: "item-3 not found" } },
        { id: "item-4", ok: true, output: "ITEM-4" }
      ])
      // Only the tag and message are reported: no status, request or cause.
      expect(Object.keys((report.results[1] as { error: object }).error)).toEqual(["_tag", "message"])
    }))

  it.effect("reads a generator once, and an empty input reports nothing", () =>
    Effect.gen(function*() {
      function* three() {
        yield "x"
        yield "y"
        yield "z"
      }
      const report = yield* Bulk.forEach(three(), (id) => Effect.succeed(id), { id: (id) => id })
      expect(report.results.map((r) => r.id)).toEqual(["x", "y", "z"])
      expect(yield* Bulk.forEach([], () => Effect.void, { id: String })).toEqual({ succeeded: 0, failed: 0, results: [] })
    }))

  it.effect("through a provider client, all items run at once yet start within the credential's rate limit", () =>
    Effect.gen(function*() {
      const http = TestHttpClient.make((request) => {
        const url = new URL(request.url)
        const id = url.pathname.split("/").at(-1)
        return id === "item-4" || url.searchParams.get("closed") !== "true"
          ? { status: 404, body: "The requested resource was not found." }
          : { status: 200, body: { id, closed: true } }
      })
      const client = ProviderClient.makeWith(http.client, RateLimiter.make(), {
        baseUrl: "https://api.example.test/1",
        credentials: Auth.none,
        rateLimits: [{ scope: "token", credential: "t-1", limit: 3, interval: "1 second" }]
      })
      const report = yield* runToEnd(Bulk.forEach(
        ids(8),
        (id) => client.json({ method: "PUT", path: `/things/${id}`, query: { closed: true } }, Thing),
        { id: (id) => id, concurrency: 8 }
      ))
      // 3 per second (each token back one interval and 5 ms after its request's answer, here at once).
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 0, 1005, 1005, 1005, 2010, 2010])
      for (let i = 3; i < http.sent.length; i++) expect(http.sent[i]!.at - http.sent[i - 3]!.at).toBeGreaterThanOrEqual(1000)
      expect(report.succeeded).toBe(7)
      expect(report.failed).toBe(1)
      expect(report.results[4]).toEqual({
        id: "item-4",
        ok: false,
        error: { _tag: "NotFound", message: "The requested resource was not found." }
      })
      expect(report.results.filter((r) => r.ok).map((r) => r.id)).toEqual(["item-0", "item-1", "item-2", "item-3", "item-5", "item-6", "item-7"])
    }))

  it("ResultSchema encodes a success with its declared output fields only, and a failure with its error", () => {
    const encode = Schema.encodeUnknownSync(Schema.Array(Bulk.ResultSchema(Thing)))
    expect(encode([
      { id: "a", ok: true, output: { id: "a", closed: true, extra: 1 } },
      { id: "b", ok: false, error: { _tag: "NotFound", message: "gone" } }
    ])).toEqual([
      { id: "a", ok: true, output: { id: "a", closed: true } },
      { id: "b", ok: false, error: { _tag: "NotFound", message: "gone" } }
    ])
  })
})
