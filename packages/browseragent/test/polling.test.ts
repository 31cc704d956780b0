import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { connectedTo, connection, executor, SESSION, step, fakeHttp, wireSession } from "./support.js"

const wait = (timeoutSeconds?: number) =>
  step("createSession", {
    task: "Find the best-rated mouse",
    model: "modelfamilyB-5.4-mini",
    outputSchema: { format: "TEXT" },
    waitForCompletion: true,
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds })
  })

describe("createSession waitForCompletion (TestClock)", () => {
  it.effect("polls GET /sessions/{id} on a backoff (1 s, 2 s, 4 s …) until the task ends, and returns that session", () =>
    Effect.gen(function*() {
      const statuses = ["created", "idle", "running", "running", "stopped"]
      const http = fakeHttp((_, i) => ({
        status: 200,
        body: wireSession({
          status: statuses[i],
          isTaskSuccessful: statuses[i] === "stopped" ? true : null,
          output: statuses[i] === "stopped" ? "Logitech MX Master 3S" : null
        })
      }))
      const fiber = yield* Effect.fork(executor.run(wait()).pipe(Effect.provide(connectedTo(connection, http.layer))))
      yield* TestClock.adjust("1 minute")
      const session = yield* Fiber.join(fiber)
      expect(session).toMatchObject({ id: SESSION, status: "stopped", output: "Logitech MX Master 3S", model: "modelfamilyA-sonnet-4.6" })
      expect(http.sent.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
        "POST /api/v3/sessions",
        ...Array.from({ length: 4 }, () => `GET /api/v3/sessions/${SESSION}`)
      ])
      // An idle session with no result yet (before its first task runs) is not the end.
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 1000, 3000, 7000])
    }))

  it.effect("past the timeout, a Timeout that carries the last state seen", () =>
    Effect.gen(function*() {
      // The POST answers "created"; each poll sees one more step.
      const http = fakeHttp((_, i) => ({
        status: 200,
        body: i === 0
          ? wireSession({ status: "created", stepCount: 0, lastStepSummary: null })
          : wireSession({ status: "running", stepCount: i, lastStepSummary: `Step ${i}` })
      }))
      const fiber = yield* Effect.fork(executor.run(wait(30)).pipe(Effect.provide(connectedTo(connection, http.layer)), Effect.flip))
      yield* TestClock.adjust("29 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      // Polls at 0, 1, 3, 7, 15 and 25 s (the delay capped at 10 s): the sixth saw step 6.
      const polls = http.sent.length - 1
      expect(polls).toBe(6)
      expect(error).toMatchObject({
        _tag: "Timeout",
        message: `the task of session ${SESSION} did not end within 30s; the session was last running after 6 steps (Step 6)`,
        body: { status: "running", stepCount: 6 }
      })
    }))

  it.effect("a task dispatched to a session waits past the session's previous result", () =>
    Effect.gen(function*() {
      // The POST and the first poll still show the previous task's result; then it runs, then ends.
      const http = fakeHttp((_, i) => ({
        status: 200,
        body: i <= 1
          ? wireSession({ status: "idle", isTaskSuccessful: true, output: "previous result", stepCount: 3 })
          : i === 2
          ? wireSession({ status: "running", isTaskSuccessful: null, output: null, stepCount: 4 })
          : wireSession({ status: "idle", isTaskSuccessful: true, output: "new result", stepCount: 6 })
      }))
      const fiber = yield* Effect.fork(
        executor.run({ ...wait(), parameters: { ...wait().parameters, sessionId: SESSION } }).pipe(Effect.provide(connectedTo(connection, http.layer)))
      )
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toMatchObject({ status: "idle", output: "new result", stepCount: 6 })
      expect(http.sent).toHaveLength(4)
    }))

  it.effect("an idle session with a result (keepAlive) has ended", () =>
    Effect.gen(function*() {
      const http = fakeHttp((_, i) => ({ status: 200, body: wireSession({ status: i === 0 ? "running" : "idle", isTaskSuccessful: i === 0 ? null : true }) }))
      const fiber = yield* Effect.fork(executor.run(wait()).pipe(Effect.provide(connectedTo(connection, http.layer))))
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toMatchObject({ status: "idle", isTaskSuccessful: true })
      expect(http.sent).toHaveLength(2)
    }))
})
