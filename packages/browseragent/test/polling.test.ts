import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { connection, executor, SESSION, step, fakeHttp, wireSession } from "./support.js"

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
      const fiber = yield* Effect.fork(executor.run(wait(), connection).pipe(Effect.provide(http.layer)))
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
      let step = 0
      const http = fakeHttp(() => ({ status: 200, body: wireSession({ status: "running", stepCount: ++step, lastStepSummary: `Step ${step}` }) }))
      const fiber = yield* Effect.fork(executor.run(wait(30), connection).pipe(Effect.provide(http.layer), Effect.flip))
      yield* TestClock.adjust("29 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("Timeout")
      expect(error.message).toMatch(/^the task did not end within 30s; the session was last running after \d+ steps \(Step \d+\)$/)
      expect(error.body).toMatchObject({ id: SESSION, status: "running" })
    }))

  it.effect("an idle session with a result (keepAlive) has ended", () =>
    Effect.gen(function*() {
      const http = fakeHttp((_, i) => ({ status: 200, body: wireSession({ status: i === 0 ? "running" : "idle", isTaskSuccessful: i === 0 ? null : true }) }))
      const fiber = yield* Effect.fork(executor.run(wait(), connection).pipe(Effect.provide(http.layer)))
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toMatchObject({ status: "idle", isTaskSuccessful: true })
      expect(http.sent).toHaveLength(2)
    }))
})
