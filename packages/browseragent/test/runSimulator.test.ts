/** Run-and-wait, stop and the finished sessions, end to end: the executor against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { executor, kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 100 })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim))
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as any }
}
const schema = { type: "object", properties: { title: { type: "string" }, price: { type: "number", minimum: 0 } }, required: ["title", "price"] }
const finished = { label: "Finished", name: "finished", type: "browseragent/v1/sessionFinished", parameters: {} }

describe("run-and-wait on the simulator", () => {
  it.live("runTask: the task runs to its end; its structured output, cost; no workspace, no files", () =>
    Effect.gen(function*() {
      const result = (yield* run("runTask", { task: "Price of the MX Master", model: "modelfamilyB-5.4-mini", outputSchema: schema })) as any
      expect(result).toMatchObject({ status: "stopped", isTaskSuccessful: true, output: { title: "Example title", price: 19.99 }, files: [] })
      expect(result.cost).toEqual({ totalUsd: "0.0459", llmUsd: "0.0369", proxyUsd: "0.003", browserUsd: "0.006", inputTokens: 4560, outputTokens: 630 })
      expect(sim.view(result.sessionId)).toMatchObject({ status: "stopped", stepCount: 3 })
    }))

  it.live("runTask in a kept-alive session with a workspace: the workspace's files come with the result", () =>
    Effect.gen(function*() {
      const workspace = (yield* run("createWorkspace", { name: "Results" })) as { id: string }
      yield* run("uploadWorkspaceFile", { workspaceId: workspace.id, file: { base64: Buffer.from("a,b\n").toString("base64"), name: "prices.csv" } })
      const session = yield* Effect.promise(() => api("POST", "/sessions", { workspaceId: workspace.id, keepAlive: true }))
      expect(session.status).toBe(200)
      const result = (yield* run("runTask", { task: "Compare prices", model: "modelfamilyB-5.4-mini", sessionId: session.body.id, keepAlive: true })) as any
      expect(result).toMatchObject({ sessionId: session.body.id, status: "idle", isTaskSuccessful: true, output: "Done: Compare prices" })
      expect(result.files).toEqual([{ path: "prices.csv", size: 4, lastModified: expect.any(String) }])
    }))

  it.live("runTask past its timeout: a Timeout naming the session and its status, and the session stopped on the simulator", () =>
    Effect.gen(function*() {
      const slow = yield* Effect.promise(() => Simulator.start({ stepMs: 1500 }))
      try {
        const error = yield* Effect.flip(kit.run("runTask", { task: "A long task", model: "modelfamilyB-5.4-mini", timeoutSeconds: 1 }, simulatorConnection(slow)))
        const [id] = [...slow.sessions.keys()]
        expect(error).toMatchObject({ _tag: "Timeout", message: expect.stringMatching(new RegExp(`^the task of session ${id} did not end within 1s; the session was last (created|idle|running) .*; the session was stopped$`)) })
        expect(slow.view(id!)).toMatchObject({ status: "stopped", isTaskSuccessful: false, output: null })
      } finally {
        yield* Effect.promise(() => slow.close())
      }
    }))

  it.live("stopSession: the task only (the session idle, takes the next task), then the whole session (stopped, takes none)", () =>
    Effect.gen(function*() {
      // Its own simulator on a clock the test moves: the task is mid-way when stopped, however slow the machine.
      let now = Date.now()
      const own = yield* Effect.promise(() => Simulator.start({ stepMs: 100, now: () => now }))
      const { run: ownRun } = kit.connected(() => simulatorConnection(own))
      const ownApi = (body: unknown) =>
        fetch(`${own.baseUrl}/sessions`, { method: "POST", headers: { "x-browser-use-api-key": own.apiKey, "content-type": "application/json" }, body: JSON.stringify(body) })
          .then(async (response) => ({ status: response.status, body: await response.json() as any }))
      try {
        const created = yield* Effect.promise(() => ownApi({ task: "Browse for a while", keepAlive: false }))
        now += 150
        const idle = (yield* ownRun("stopSession", { sessionId: created.body.id, strategy: "task" })) as any
        expect(idle).toMatchObject({ id: created.body.id, status: "idle", isTaskSuccessful: false, output: null })
        const next = yield* Effect.promise(() => ownApi({ sessionId: created.body.id, task: "Another task" }))
        expect(next).toMatchObject({ status: 200, body: { status: "running" } })
        const stopped = (yield* ownRun("stopSession", { sessionId: created.body.id })) as any
        expect(stopped).toMatchObject({ status: "stopped" })
        now += 600
        expect(own.view(created.body.id)).toMatchObject({ status: "stopped", isTaskSuccessful: false })
        const refused = yield* Effect.promise(() => ownApi({ sessionId: created.body.id, task: "One more" }))
        expect(refused).toMatchObject({ status: 422, body: { detail: expect.stringContaining("is not idle (status: stopped)") } })
      } finally {
        yield* Effect.promise(() => own.close())
      }
    }))

  it.live("the simulator's stop: 404 for an unknown session, 422 for a bad id or strategy", () =>
    Effect.gen(function*() {
      expect(yield* Effect.promise(() => api("POST", "/sessions/5b0f3c2a-9d8e-4f7a-b6c5-d4e3f2a1b0c9/stop", {}))).toEqual({ status: 404, body: { detail: "Session not found" } })
      expect((yield* Effect.promise(() => api("POST", "/sessions/nope/stop", {}))).body.detail[0]).toMatchObject({ loc: ["path", "session_id"], type: "uuid_parsing" })
      const any = [...sim.sessions.keys()][0]!
      expect((yield* Effect.promise(() => api("POST", `/sessions/${any}/stop`, { strategy: "all" }))).body.detail[0]).toMatchObject({ loc: ["body", "strategy"], type: "enum" })
    }))

  it.live("sessionFinished: the baseline emits nothing; each session that ends fires once, with its final status; a kept-alive idle one does not", () =>
    Effect.gen(function*() {
      // A clock the test moves: which sessions end before the baseline and which after does not hang on the machine's speed.
      let now = Date.now()
      const own = yield* Effect.promise(() => Simulator.start({ stepMs: 50, now: () => now }))
      const { provide: on, run: ownRun } = kit.connected(() => simulatorConnection(own))
      const post = (body: unknown) =>
        fetch(`${own.baseUrl}/sessions`, { method: "POST", headers: { "x-browser-use-api-key": own.apiKey, "content-type": "application/json" }, body: JSON.stringify(body) })
          .then((r) => r.json() as Promise<{ id: string }>)
      try {
        const before = yield* Effect.promise(() => post({ task: "Done before the baseline" }))
        now += 300
        const running = yield* Effect.promise(() => post({ task: "Ends after the baseline" }))
        const baseline = yield* on(executor.poll(finished, undefined))
        expect(baseline.events).toEqual([])
        const kept = yield* Effect.promise(() => post({ task: "Stays idle", keepAlive: true }))
        own.failures.endWith = "error"
        now += 10 // it ends after the one started before the baseline: the sample's order
        const failing = yield* Effect.promise(() => post({ task: "Fails" }))
        own.failures.endWith = undefined
        now += 300
        const first = yield* on(executor.poll(finished, baseline.cursor))
        expect(first.events.map((e) => e.id).sort()).toEqual([running.id, failing.id].map((id) => `${id}/${own.view(id)!["status"]}/${own.view(id)!["updatedAt"]}`).sort())
        expect(first.events.map((e) => (e.output as { status: string }).status).sort()).toEqual(["error", "stopped"])
        expect(first.events.map((e) => (e.output as { id: string }).id)).not.toContain(before.id)
        expect(own.view(kept.id)).toMatchObject({ status: "idle" })
        // Polled again: nothing new. The kept-alive session stopped: it fires.
        expect((yield* on(executor.poll(finished, first.cursor))).events).toEqual([])
        yield* ownRun("stopSession", { sessionId: kept.id })
        const last = yield* on(executor.poll(finished, first.cursor))
        expect(last.events.map((e) => e.id)).toEqual([`${kept.id}/stopped/${own.view(kept.id)!["updatedAt"]}`])
        // Only the statuses asked for.
        const onlyErrors = { ...finished, parameters: { statuses: ["error"] } }
        expect((yield* on(executor.poll(onlyErrors, baseline.cursor))).events.map((e) => (e.output as { id: string }).id)).toEqual([failing.id])
        // The sample: the latest finished sessions, the latest first.
        const sample = yield* on(executor.sample(finished))
        expect(sample.map((e) => (e.output as { id: string }).id)).toEqual([kept.id, failing.id, running.id, before.id])
      } finally {
        yield* Effect.promise(() => own.close())
      }
    }))
})
