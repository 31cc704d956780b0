/**
 * V4's runs and session queue end to end: the executor against the simulator, which answers V3
 * and V4 on one server (the connection gives V3's base URL; the V4 actions find V4 beside it).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

/** Runs take 400 ms: runAndWait waits for them on real time. */
let sim: Simulator.Simulator
/** Runs take 4 minutes on a clock the tests move (`skew`): what happens while a run goes on, and after. */
let slow: Simulator.Simulator
let skew = 0
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 100 })
  slow = await Simulator.start({ stepMs: 60_000, now: () => Date.now() + skew })
})
afterAll(async () => {
  await sim.close()
  await slow.close()
})

const { run } = kit.connected(() => simulatorConnection(sim))
const { run: runSlow } = kit.connected(() => simulatorConnection(slow))
/** Moves the slow simulator's clock 10 minutes on: past the end of any run under way, and of the one queued after it. */
const later = () => Effect.sync(() => (skew += 10 * 60_000))
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sim.v4BaseUrl}${path}`, {
    method,
    headers: { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as any }
}
const schema = { type: "object", properties: { title: { type: "string" }, price: { type: "number", minimum: 0 } }, required: ["title", "price"] }

describe("V4 runs on the simulator", () => {
  it.live("runAndWait: the run goes to its end; its structured output, cost; its events accumulated, read by page", () =>
    Effect.gen(function*() {
      const result = (yield* run("runAndWait", { task: "Price of the MX Master", model: "modelfamilyB-5.5", outputSchema: schema, judge: true })) as any
      expect(result).toMatchObject({
        status: "completed",
        output: { title: "Example title", price: 19.99 },
        error: null,
        cost: { totalUsd: "0.0459", inputTokens: 4560, outputTokens: 630 },
        run: { model: "modelfamilyB-5.5", judgement: { verdict: "pass" } }
      })
      const events = (yield* run("listRunEvents", { runId: result.runId })) as { events: Array<{ id: number; type: string }> }
      expect(events.events.map((e) => e.type)).toEqual(["run.created", "run.started", "run.step", "run.step", "run.step", "run.completed"])
      expect(events.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6])
      // Paged as the document says: `after` an id, `nextAfter`, `hasMore`.
      const page = yield* Effect.promise(() => api("GET", `/runs/${result.runId}/events?after=2&limit=2`))
      expect(page.body).toMatchObject({ events: [{ id: 3 }, { id: 4 }], nextAfter: 4, hasMore: true })
      expect(yield* run("getRunStatus", { runId: result.runId })).toEqual({ status: "completed" })
    }))

  it.live("createRun, then cancelRun: the run ends cancelled, once (a second cancel answers it as it is)", () =>
    Effect.gen(function*() {
      const created = (yield* runSlow("createRun", { task: "Read the news" })) as { id: string; status: string; sessionId: string; workspaceId: string }
      expect(created.status).toBe("queued")
      expect(slow.workspaces.has(created.workspaceId)).toBe(true)
      const cancelled = (yield* runSlow("cancelRun", { runId: created.id })) as { status: string; result: string | null }
      expect(cancelled).toMatchObject({ status: "cancelled", result: null })
      yield* later()
      expect(yield* runSlow("getRun", { runId: created.id })).toMatchObject({ status: "cancelled", model: "modelfamilyG-m3" })
      expect(yield* runSlow("cancelRun", { runId: created.id })).toMatchObject({ status: "cancelled" })
      const events = (yield* runSlow("listRunEvents", { runId: created.id })) as { events: Array<{ type: string }> }
      expect(events.events.map((e) => e.type)).toEqual(["run.created", "run.cancelled"])
    }))

  it.live("attachments: the uploaded files a run names are listed; the others come back as missing", () =>
    Effect.gen(function*() {
      const file = sim.runs.upload("data.csv", "text/csv", 12)
      const missing = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
      const created = (yield* run("createRun", { task: "Sum the column", attachedFileIds: [file, missing] })) as { id: string; missingFileIds: Array<string> }
      expect(created.missingFileIds).toEqual([missing])
      expect(yield* run("listRunAttachments", { runId: created.id })).toEqual({
        attachments: [{ id: file, name: "data.csv", contentType: "text/csv", sizeBytes: 12, status: "uploaded" }]
      })
    }))

  it.live("the queue: a message to a busy session waits, can be removed, and the next runs after the active run", () =>
    Effect.gen(function*() {
      const first = (yield* runSlow("createRun", { task: "First turn" })) as { id: string; sessionId: string }
      // A follow-up run on a busy session is refused.
      const busy = yield* Effect.flip(runSlow("createRun", { task: "Too soon", sessionId: first.sessionId }))
      expect(busy).toMatchObject({ _tag: "Conflict", message: expect.stringContaining("already has an active run") })
      const kept = (yield* runSlow("sendSessionMessage", { sessionId: first.sessionId, text: "Second turn" })) as { id: number; status: string; runId: null }
      const dropped = (yield* runSlow("sendSessionMessage", { sessionId: first.sessionId, text: "Never mind" })) as { id: number }
      expect(kept).toMatchObject({ status: "pending", runId: null })
      expect(((yield* runSlow("listSessionQueue", { sessionId: first.sessionId })) as { messages: Array<{ id: number }> }).messages.map((m) => m.id))
        .toEqual([kept.id, dropped.id])
      expect(yield* runSlow("removeQueuedMessage", { sessionId: first.sessionId, messageId: dropped.id })).toMatchObject({ id: dropped.id, status: "cancelled" })
      expect(yield* Effect.flip(runSlow("removeQueuedMessage", { sessionId: first.sessionId, messageId: dropped.id }))).toMatchObject({ _tag: "Conflict" })
      yield* later()
      // The first run ended, the kept message ran as the session's next turn.
      const runs = (yield* runSlow("listRuns", { sessionId: first.sessionId })) as { runs: Array<{ task: string; status: string }> }
      expect(runs.runs.map((r) => [r.task, r.status])).toEqual([["Second turn", "completed"], ["First turn", "completed"]])
      expect(yield* runSlow("listSessionQueue", { sessionId: first.sessionId })).toEqual({ messages: [] })
      const sessions = (yield* runSlow("listRunSessions", {})) as { sessions: Array<{ sessionId: string; task: string }> }
      expect(sessions.sessions.find((s) => s.sessionId === first.sessionId)).toMatchObject({ task: "Second turn" })
    }))

  it.live("an interrupting message cancels the active run and runs now", () =>
    Effect.gen(function*() {
      const first = (yield* runSlow("createRun", { task: "Long task" })) as { id: string; sessionId: string }
      const message = (yield* runSlow("sendSessionMessage", { sessionId: first.sessionId, text: "Stop, do this", interrupt: true })) as { status: string; runId: string }
      expect(message.status).toBe("consumed")
      expect(yield* runSlow("getRunStatus", { runId: first.id })).toEqual({ status: "cancelled" })
      expect(yield* runSlow("getRun", { runId: message.runId })).toMatchObject({ task: "Stop, do this", sessionId: first.sessionId })
    }))
})

describe("the simulator answers V4 as its document says", () => {
  it.live("422 with pydantic's list, 404, 400 for a malformed cursor, 403 on a Zero Data Retention project", () =>
    Effect.gen(function*() {
      const invalid = yield* Effect.promise(() => api("POST", "/runs", { task: "", model: "gpt-4", extra: 1 }))
      expect(invalid.status).toBe(422)
      expect(invalid.body.detail).toEqual(expect.arrayContaining([
        { loc: ["body", "extra"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
        { loc: ["body", "task"], msg: "String should have at least 1 character", type: "string_too_short" },
        expect.objectContaining({ loc: ["body", "model"], type: "enum" })
      ]))
      expect(yield* Effect.promise(() => api("GET", "/runs/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"))).toEqual({ status: 404, body: { detail: "Run not found" } })
      expect(yield* Effect.promise(() => api("GET", "/runs?cursor=nope"))).toEqual({ status: 400, body: { detail: "Malformed pagination cursor." } })
      expect((yield* Effect.promise(() => api("GET", "/sessions?limit=101"))).status).toBe(422)
      sim.failures.zeroDataRetention = true
      try {
        expect((yield* Effect.promise(() => api("GET", "/runs"))).status).toBe(403)
      } finally {
        sim.failures.zeroDataRetention = false
      }
    }))

  it.live("listRuns walks the keyset pages to the end, newest first", () =>
    Effect.gen(function*() {
      for (const task of ["one", "two", "three"]) yield* run("createRun", { task: `Paged ${task}` })
      const first = yield* Effect.promise(() => api("GET", "/runs?limit=2"))
      expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) })
      const all = (yield* run("listRuns", {})) as { runs: Array<{ id: string }> }
      expect(new Set(all.runs.map((r) => r.id)).size).toBe(sim.runs.runs.size)
    }))
})
