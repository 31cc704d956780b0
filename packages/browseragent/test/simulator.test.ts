import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 40, stepsPerTask: 3 })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const schema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" }, tags: { type: "array", items: { type: "string" } } } }

describe("browseragent against the simulator", () => {
  it.live("create with keepAlive → idle → a second task in the same session → stopped", () =>
    Effect.gen(function*() {
      // A simulator of its own whose clock is held while the task is refused: the session is
      // surely still busy then, however loaded the machine is.
      let held: number | undefined = Date.now()
      const slow = yield* Effect.acquireRelease(
        Effect.promise(() => Simulator.start({ stepMs: 300, stepsPerTask: 3, now: () => held ?? Date.now() })),
        (s) => Effect.promise(() => s.close())
      )
      const { run } = kit.connected(() => simulatorConnection(slow), UndiciHttpClient.layer)
      const created = (yield* run("createSession", {
        task: "Find the best-rated wireless mouse",
        model: "modelfamilyA-opus-4.6",
        outputSchema: { format: "JSON", schema: JSON.stringify(schema) },
        keepAlive: true
      })) as { id: string; status: string; model: string; mailboxEmail: string | null; liveUrl: string | null }
      expect(created).toMatchObject({ status: "created", model: "modelfamilyA-opus-4.6" })
      expect(created.mailboxEmail).toMatch(/@agentmail\.to$/)
      expect(created.liveUrl).toContain(created.id)

      // A task sent to a session that is still busy is refused with the provider's detail.
      const busy = yield* Effect.flip(run("createSession", { task: "Too early", model: "modelfamilyA-opus-4.6", outputSchema: { format: "TEXT" }, sessionId: created.id }))
      expect(busy).toMatchObject({ _tag: "InvalidInput" })
      expect(busy.message).toMatch(new RegExp(`^Session ${created.id} is not idle \\(status: (created|starting|running)\\)`))
      held = undefined

      const idle = yield* run("getSession", { sessionId: created.id }).pipe(
        // `idle` also names a moment before the first task starts: wait for the task's result.
        Effect.filterOrFail(
          (session) => (session as { status: string; isTaskSuccessful: boolean | null }).status === "idle" && (session as { isTaskSuccessful: boolean | null }).isTaskSuccessful !== null,
          (session) => new Error(`the task is not done yet: ${JSON.stringify(session)}`)
        ),
        Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 200 })
      )
      expect(idle).toMatchObject({
        status: "idle",
        isTaskSuccessful: true,
        stepCount: 3,
        output: { name: "Example name", price: 19.99, tags: ["Example tags"] },
        outputSchema: schema
      })
      expect((idle as { totalCostUsd: string }).totalCostUsd).toMatch(/^\d+(\.\d+)?$/)

      const second = yield* run("createSession", {
        task: "Now its price history",
        model: "modelfamilyA-opus-4.6",
        outputSchema: { format: "TEXT" },
        sessionId: created.id,
        waitForCompletion: true,
        timeoutSeconds: 30
      })
      expect(second).toMatchObject({ id: created.id, status: "stopped", isTaskSuccessful: true, output: "Done: Now its price history", stepCount: 6 })
      expect(Number((second as { llmCostUsd: string }).llmCostUsd)).toBeGreaterThan(Number((idle as { llmCostUsd: string }).llmCostUsd))
    }).pipe(Effect.scoped))

  it.live("waiting for a new session's task returns it stopped, with its result", () =>
    Effect.gen(function*() {
      const done = yield* run("createSession", {
        task: "Summarise the front page",
        model: "modelfamilyB-5.4-mini",
        outputSchema: { format: "TEXT" },
        waitForCompletion: true,
        timeoutSeconds: 30
      })
      expect(done).toMatchObject({ status: "stopped", isTaskSuccessful: true, output: "Done: Summarise the front page", model: "modelfamilyB-5.4-mini" })
    }))

  it.live("switchable failures: 402 insufficient credits, 429 too many sessions (no session made by the retries), a task ending in error; 404", () =>
    Effect.gen(function*() {
      const create = run("createSession", { task: "x", model: "modelfamilyB-5.4-mini", outputSchema: { format: "TEXT" } })
      sim.failures.insufficientCredits = true
      expect(yield* Effect.flip(create)).toMatchObject({ _tag: "PaymentRequired", message: "Insufficient credits" })
      sim.failures.insufficientCredits = false
      sim.failures.maxConcurrentSessions = 0
      const before = sim.sessions.size
      const tooMany = yield* Effect.flip(create)
      expect(tooMany).toMatchObject({ _tag: "RateLimited" })
      expect(tooMany.message).toContain("Too many concurrent active sessions")
      expect(sim.sessions.size).toBe(before)
      sim.failures.maxConcurrentSessions = 25
      sim.failures.endWith = "error"
      const failed = yield* run("createSession", { task: "x", model: "modelfamilyB-5.4-mini", outputSchema: { format: "TEXT" }, waitForCompletion: true })
      expect(failed).toMatchObject({ status: "error", isTaskSuccessful: false, output: null })
      sim.failures.endWith = undefined
      const missing = yield* Effect.flip(run("getSession", { sessionId: "00000000-0000-4000-8000-000000000000" }))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "Session not found" })
      const nowhere = yield* Effect.flip(run("createSession", {
        task: "x",
        model: "modelfamilyB-5.4-mini",
        outputSchema: { format: "TEXT" },
        sessionId: "00000000-0000-4000-8000-000000000000"
      }))
      expect(nowhere).toMatchObject({ _tag: "NotFound", message: "Session not found" })
    }).pipe(Effect.ensuring(Effect.sync(() => {
      sim.failures.insufficientCredits = false
      sim.failures.maxConcurrentSessions = 25
      sim.failures.endWith = undefined
    }))))

  it.live("the sessions are the options, across pages", () =>
    Effect.gen(function*() {
      const many = yield* Effect.promise(() => Simulator.start())
      many.failures.maxConcurrentSessions = 1000
      yield* Effect.promise(() =>
        Promise.all(Array.from({ length: 130 }, (_, i) =>
          fetch(`${many.baseUrl}/sessions`, {
            method: "POST",
            headers: { "x-browser-use-api-key": many.apiKey, "content-type": "application/json" },
            body: JSON.stringify({ task: `Task ${i}`, model: "gpt-5.4-mini" })
          })))
      )
      const options = yield* kit.connected(() => simulatorConnection(many), UndiciHttpClient.layer).options("getSession", "sessionId", {}).pipe(
        Effect.ensuring(Effect.promise(() => many.close()))
      )
      expect(options).toHaveLength(130)
      expect(new Set(options.map((o) => o.value)).size).toBe(130)
      expect(options.every((o) => many.sessions.has(o.value))).toBe(true)
    }))

  it("sample() follows the schemas generators write", () => {
    expect(Simulator.sample({
      $defs: { Price: { type: "number", minimum: 0, maximum: 10 } },
      properties: {
        name: { type: "string" },
        price: { $ref: "#/$defs/Price" },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        contact: { anyOf: [{ type: "null" }, { type: "string", format: "email" }] },
        kind: { enum: ["a", "b"] },
        count: { type: "integer", maximum: 5 }
      }
    })).toEqual({
      name: "Example name",
      price: 9.5,
      tags: ["Example tags", "Example tags"],
      contact: "contact@example.com",
      kind: "a",
      count: 4
    })
  })
})
