/**
 * Run-and-wait, stop and the finished sessions: the wire pinned (nock), and the wait driven by
 * TestClock over an in-memory client (the backoff, the timeout, the stop it sends or not).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import { API, API_KEY, connectedTo, connection, executor, fakeHttp, run, SESSION, step, wireSession } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })
const WORKSPACE = "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c"
const productSchema = {
  type: "object",
  properties: { name: { type: "string" }, price: { type: "number", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
  required: ["name", "price"]
}
const runTask = (parameters: Record<string, unknown> = {}) =>
  step("runTask", { task: "Find the best-rated mouse", model: "modelfamilyA-sonnet-4.6", ...parameters })
const path = (s: { method: string; url: string }) => `${s.method} ${new URL(s.url).pathname}`

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("runTask, stopSession: the wire", () => {
  it.effect("stopSession: POST /sessions/{id}/stop {strategy}, the session as it is after", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post(`/api/v3/sessions/${SESSION}/stop`, { strategy: "task" }).reply(200, wireSession({ status: "idle", isTaskSuccessful: false }))
        .post(`/api/v3/sessions/${SESSION}/stop`, { strategy: "session" }).reply(200, wireSession({ status: "stopped", isTaskSuccessful: false }))
      expect(yield* run("stopSession", { sessionId: SESSION, strategy: "task" })).toMatchObject({ id: SESSION, status: "idle" })
      // The whole session by default, as the service's default.
      expect(yield* run("stopSession", { sessionId: SESSION })).toMatchObject({ id: SESSION, status: "stopped", mailboxEmail: "agent-1a2b@agentmail.to" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("stopSession: a strategy not in the list, or an id that is no UUID, is InvalidInput before any request", () =>
    Effect.gen(function*() {
      expect(yield* Effect.flip(run("stopSession", { sessionId: SESSION, strategy: "all" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "strategy" }] })
      expect(yield* Effect.flip(run("stopSession", { sessionId: "nope" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "sessionId" }] })
    }))

  it.effect("stopSession: Browser Use's 404 detail becomes NotFound", () =>
    Effect.gen(function*() {
      browserUse().post(`/api/v3/sessions/${SESSION}/stop`, { strategy: "session" }).reply(404, { detail: "Session not found" })
      expect(yield* Effect.flip(run("stopSession", { sessionId: SESSION }))).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Session not found") })
    }))

  it.effect("runTask: POST /sessions with the schema, GET /sessions/{id} until it ends, the workspace's files; output checked, cost", () =>
    Effect.gen(function*() {
      const output = { name: "Logitech MX Master 3S", price: 99.99, tags: ["wireless"] }
      const scope = browserUse()
        .post("/api/v3/sessions", { task: "Find the best-rated mouse", model: "claude-sonnet-4.6", outputSchema: productSchema, keepAlive: true })
        .reply(200, wireSession({ status: "created", stepCount: 0, workspaceId: WORKSPACE }))
        .get(`/api/v3/sessions/${SESSION}`)
        .reply(200, wireSession({ status: "idle", isTaskSuccessful: true, output, stepCount: 4, workspaceId: WORKSPACE, totalCostUsd: "0.0612" }))
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 100 })
        .reply(200, { files: [{ path: "report.csv", size: 2048, lastModified: "2026-11-21T10:05:00Z", url: null }], nextCursor: null, hasMore: false })
      const result = yield* run("runTask", runTask({ outputSchema: productSchema, keepAlive: true }).parameters)
      expect(result).toMatchObject({
        sessionId: SESSION,
        status: "idle",
        isTaskSuccessful: true,
        output,
        cost: { totalUsd: "0.0612", llmUsd: "0.0246", proxyUsd: "0.002", browserUsd: "0.004", inputTokens: 3040, outputTokens: 420 },
        files: [{ path: "report.csv", size: 2048, lastModified: "2026-11-21T10:05:00Z" }],
        session: { id: SESSION, workspaceId: WORKSPACE, model: "modelfamilyA-sonnet-4.6" }
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("runTask: an output schema that is not an object is InvalidInput before any request", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run("runTask", runTask({ outputSchema: "{\"type\": \"object\"}" }).parameters))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "outputSchema" }] })
    }))
})

/** Runs the step over the in-memory client, moving TestClock on by `advance`. */
const onClock = (parameters: Record<string, unknown>, http: ReturnType<typeof fakeHttp>, advance: Duration.DurationInput) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(Effect.either(executor.run(runTask(parameters)).pipe(Effect.provide(connectedTo(connection, http.layer)))))
    yield* TestClock.adjust(advance)
    return yield* Fiber.join(fiber)
  })

describe("runTask: the wait (TestClock)", () => {
  it.effect("polls on the backoff (1 s, 2 s, 4 s …) until the task ends; the output checked against the schema", () =>
    Effect.gen(function*() {
      const statuses = ["created", "idle", "running", "running", "stopped"]
      const http = fakeHttp((_, i) => ({
        status: 200,
        body: wireSession({
          status: statuses[i],
          isTaskSuccessful: statuses[i] === "stopped" ? true : null,
          // A JSON text is read as the structured output.
          output: statuses[i] === "stopped" ? JSON.stringify({ name: "MX Master", price: 99 }) : null
        })
      }))
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 minute")
      expect(result).toMatchObject({ _tag: "Right", right: { status: "stopped", output: { name: "MX Master", price: 99 }, files: [] } })
      expect(http.sent.map(path)).toEqual(["POST /api/v3/sessions", ...Array.from({ length: 4 }, () => `GET /api/v3/sessions/${SESSION}`)])
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 1000, 3000, 7000])
      expect(JSON.parse(http.sent[0]!.body!)).toMatchObject({ outputSchema: productSchema })
    }))

  it.effect("an output that does not follow the schema: UnexpectedResponse naming the session and where", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: wireSession({ status: "stopped", isTaskSuccessful: true, output: { name: "MX", price: "cheap" } }) }))
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 second")
      expect(result).toMatchObject({
        _tag: "Left",
        left: { _tag: "UnexpectedResponse", message: `the output of session ${SESSION} does not follow the output schema: $.price: expected number, got string` }
      })
    }))

  it.effect("a task that failed is returned as it ended, its output not checked", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: wireSession({ status: "error", isTaskSuccessful: false, output: null }) }))
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 second")
      expect(result).toMatchObject({ _tag: "Right", right: { status: "error", isTaskSuccessful: false, output: null } })
      expect(http.sent).toHaveLength(1)
    }))

  it.effect("past the timeout: a Timeout naming the session and its last status, and the session stopped", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request, i) =>
        request.url.endsWith("/stop")
          ? { status: 200, body: wireSession({ status: "stopped", isTaskSuccessful: false }) }
          : { status: 200, body: wireSession({ status: i === 0 ? "created" : "running", stepCount: i, lastStepSummary: `Step ${i}` }) }
      )
      const fiber = yield* Effect.fork(Effect.flip(executor.run(runTask({ timeoutSeconds: 30 })).pipe(Effect.provide(connectedTo(connection, http.layer)))))
      yield* TestClock.adjust("29 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      expect(http.sent.some((s) => s.url.endsWith("/stop"))).toBe(false)
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({
        _tag: "Timeout",
        message: `the task of session ${SESSION} did not end within 30s; the session was last running after 6 steps (Step 6); the session was stopped`,
        body: { id: SESSION, status: "running" }
      })
      // Polls at 0, 1, 3, 7, 15 and 25 s, then the stop at 30 s: a new session is stopped whole.
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 1000, 3000, 7000, 15000, 25000, 30000])
      const stop = http.sent.at(-1)!
      expect(path(stop)).toBe(`POST /api/v3/sessions/${SESSION}/stop`)
      expect(JSON.parse(stop.body!)).toEqual({ strategy: "session" })
    }))

  it.effect("past the timeout in a given session: only its task is stopped", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) =>
        request.url.endsWith("/stop")
          ? { status: 200, body: wireSession({ status: "idle", isTaskSuccessful: false }) }
          : { status: 200, body: wireSession({ status: "running" }) }
      )
      const result = yield* onClock({ sessionId: SESSION, timeoutSeconds: 5 }, http, "5 seconds")
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "Timeout", message: expect.stringMatching(/last running after 2 steps \(Opened amazon.com\); its task was stopped$/) } })
      expect(JSON.parse(http.sent.at(-1)!.body!)).toEqual({ strategy: "task" })
    }))

  it.effect("past the timeout with keepRunning: no stop sent, the Timeout says so", () =>
    Effect.gen(function*() {
      const http = fakeHttp(() => ({ status: 200, body: wireSession({ status: "running" }) }))
      const result = yield* onClock({ timeoutSeconds: 5, keepRunning: true }, http, "1 minute")
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "Timeout", message: expect.stringMatching(/^the task of session .* last running .*; it was left running \(keepRunning\)$/) } })
      expect(http.sent.filter((s) => s.method === "POST").map(path)).toEqual(["POST /api/v3/sessions"])
    }))

  it.effect("a stop that fails does not hide the Timeout: its message says so", () =>
    Effect.gen(function*() {
      const http = fakeHttp((request) =>
        request.url.endsWith("/stop") ? { status: 404, body: { detail: "Session not found" } } : { status: 200, body: wireSession({ status: "running" }) }
      )
      const result = yield* onClock({ timeoutSeconds: 5 }, http, "1 minute")
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "Timeout", message: expect.stringContaining("; stopping it failed (NotFound: ") } })
    }))
})
