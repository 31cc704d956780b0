import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { Component, type ConnectorError, Executor, Polling } from "../src/index.js"
import { connected, connectionValues, fakeHttp, fixture, type Handler } from "./support.js"

const executor = Executor.make([fixture])
const step = { label: "Changed", name: "changed", type: "fixture/v1/thingsChanged", parameters: { listId: "l1" } }
const thing = (id: string, count: number) => ({ id, name: `thing ${id}`, count })

/** The `since` of each request sent, in order. */
const sinceOf = (http: ReturnType<typeof fakeHttp>) => http.sent.map((s) => new URL(s.url).searchParams.get("since"))

const polling = (handler: Handler) => {
  const http = fakeHttp(handler)
  const polls: Array<Polling.Poll> = []
  const failures: Array<string> = []
  const layer = connected({ fixture: connectionValues }, http.layer)
  return { http, polls, failures, layer }
}

describe("Executor.poll", () => {
  it.effect("the first poll (no cursor) sets the baseline: its events are dropped, its cursor kept", () =>
    Effect.gen(function*() {
      const { http, layer } = polling(() => ({ status: 200, body: [thing("a", 3), thing("b", 5)] }))
      const baseline = yield* executor.poll(step, undefined).pipe(Effect.provide(layer))
      expect(baseline).toEqual({ events: [], cursor: { since: 5 } })
      const next = yield* executor.poll(step, baseline.cursor).pipe(Effect.provide(layer))
      expect(next.events.map((e) => e.id)).toEqual(["a:3", "b:5"])
      expect(sinceOf(http)).toEqual(["0", "5"])
    }))

  it.effect("a stored cursor that does not decode is an InvalidInput naming the field; nothing is sent", () =>
    Effect.gen(function*() {
      const { http, layer } = polling(() => ({ status: 200, body: [] }))
      const error = yield* Effect.flip(executor.poll(step, { since: "soon" }).pipe(Effect.provide(layer)))
      expect(error._tag).toBe("InvalidInput")
      expect((error as ConnectorError.InvalidInput).issues[0]!.path).toBe("cursor.since")
      expect(http.sent).toEqual([])
    }))

  it.effect("a dynamic-webhook trigger cannot be polled", () =>
    Effect.gen(function*() {
      const { layer } = polling(() => ({ status: 200, body: [] }))
      const error = yield* Effect.flip(
        executor.poll({ ...step, type: "fixture/v1/newThing" }, undefined).pipe(Effect.provide(layer))
      )
      expect(error.message).toContain("fixture/v1/newThing is a dynamic webhook trigger")
    }))
})

describe("Polling.run", () => {
  it.effect("polls at once (the baseline), then once per declared interval, each from the cursor kept", () =>
    Effect.gen(function*() {
      let count = 1
      const { failures, http, layer, polls } = polling(() => ({ status: 200, body: [thing("a", count++)] }))
      const fiber = yield* Effect.fork(Polling.run(executor, step, {
        cursor: undefined,
        onPoll: (poll) => Effect.sync(() => void polls.push(poll)),
        onFailure: (error) => Effect.sync(() => void failures.push(error._tag))
      }).pipe(Effect.provide(layer)))
      yield* TestClock.adjust("1 millis")
      expect(polls).toEqual([{ events: [], cursor: { since: 1 }, baseline: true }])
      // Nothing more until the interval (1 minute) has passed.
      yield* TestClock.adjust("59 seconds")
      expect(http.sent.length).toBe(1)
      yield* TestClock.adjust("1 second")
      expect(polls[1]).toEqual({ events: [{ id: "a:2", output: thing("a", 2) }], cursor: { since: 2 }, baseline: false })
      yield* TestClock.adjust("1 minute")
      expect(sinceOf(http)).toEqual(["0", "1", "2"])
      expect(failures).toEqual([])
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("a failed poll, or one not kept, leaves the cursor where it was; polling goes on", () =>
    Effect.gen(function*() {
      const { failures, http, layer, polls } = polling((_, i) =>
        i === 1 ? { status: 404, body: "gone" } : { status: 200, body: [thing("a", 7)] }
      )
      let refuse = true
      const fiber = yield* Effect.fork(Polling.run(executor, step, {
        cursor: { since: 4 },
        interval: "10 seconds",
        onPoll: (poll) =>
          refuse
            ? Effect.fail("disk full" as const).pipe(Effect.ensuring(Effect.sync(() => void (refuse = false))))
            : Effect.sync(() => void polls.push(poll)),
        onFailure: (error) => Effect.sync(() => void failures.push(typeof error === "string" ? error : error._tag))
      }).pipe(Effect.provide(layer)))
      yield* TestClock.adjust("1 millis")
      yield* TestClock.adjust("10 seconds")
      yield* TestClock.adjust("10 seconds")
      expect(failures).toEqual(["disk full", "NotFound"])
      // The stored cursor until a poll was kept; the same event again, not lost.
      expect(sinceOf(http)).toEqual(["4", "4", "4"])
      expect(polls).toEqual([{ events: [{ id: "a:7", output: thing("a", 7) }], cursor: { since: 7 }, baseline: false }])
      yield* TestClock.adjust("10 seconds")
      expect(sinceOf(http)).toEqual(["4", "4", "4", "7"])
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("refuses a step that is not a polling trigger, and an interval that is not positive", () =>
    Effect.gen(function*() {
      const { layer } = polling(() => ({ status: 200, body: [] }))
      const options = { cursor: undefined, onPoll: () => Effect.void, onFailure: () => Effect.void }
      const webhook = yield* Effect.flip(Polling.run(executor, { ...step, type: "fixture/v1/newThing" }, options).pipe(Effect.provide(layer)))
      expect(webhook.message).toContain("fixture/v1/newThing is not a polling trigger")
      const zero = yield* Effect.flip(Polling.run(executor, step, { ...options, interval: "0 millis" }).pipe(Effect.provide(layer)))
      expect(zero.message).toContain("the polling interval must be positive")
    }))
})

describe("Executor.sample", () => {
  it.effect("returns the trigger's sample events, encoded like real ones; a trigger without samples says so", () =>
    Effect.gen(function*() {
      const { http, layer } = polling(() => ({ status: 200, body: [thing("a", 1), thing("b", 2)] }))
      const events = yield* executor.sample(step).pipe(Effect.provide(layer))
      expect(events).toEqual([{ id: "a", output: thing("a", 1) }, { id: "b", output: thing("b", 2) }])
      expect(new URL(http.sent[0]!.url).searchParams.has("since")).toBe(false)
      const none = yield* Effect.flip(executor.sample({ ...step, type: "fixture/v1/newThing" }).pipe(Effect.provide(layer)))
      expect(none.message).toContain("fixture/v1/newThing offers no sample data")
    }))

  it("describe says which triggers sample, and a polling trigger's interval", () => {
    const triggers = Component.describe(fixture).triggers
    expect(triggers.map((t) => [t.name, t.sample, "intervalMillis" in t ? t.intervalMillis : undefined])).toEqual([
      ["newThing", false, undefined],
      ["thingsChanged", true, 60_000]
    ])
  })
})
