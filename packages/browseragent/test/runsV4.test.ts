/**
 * Browser Use V4's runs and session queue: the wire pinned (nock) at V4's base URL beside the
 * connection's V3 one, the inputs checked before sending, and runAndWait's wait driven by
 * TestClock over an in-memory client (the backoff, the timeout, the cancel it sends or not).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import nock from "nock"
import { v4BaseUrl } from "../src/index.js"
import { API, API_KEY, connectedTo, connection, executor, fakeHttp, run, SESSION, step } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })
const RUN = "3f2a1b0c-9d8e-4f7a-b6c5-5b0f3c2a9d8e"
const WORKSPACE = "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c"
const PROFILE = "0c9e7a52-4d1b-4f3a-9b8e-6a2d5c7f1e04"
const FILE = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
const productSchema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" } }, required: ["name", "price"] }
const path = (s: { method: string; url: string }) => `${s.method} ${new URL(s.url).pathname}`

/** A run as V4 answers it (RunSummary). */
const wireRun = (overrides: Record<string, unknown> = {}) => ({
  id: RUN,
  task: "Find the best-rated mouse",
  title: "Find the best-rated mouse",
  model: "claude-sonnet-5",
  contextLimit: 200000,
  status: "running",
  result: null,
  error: null,
  sessionId: SESSION,
  workspaceId: WORKSPACE,
  attachedFileIds: [],
  judgement: null,
  totalInputTokens: 3040,
  totalOutputTokens: 420,
  totalCostUsd: "0.0306",
  createdAt: "2026-11-21T10:00:00Z",
  updatedAt: "2026-11-21T10:00:05Z",
  ...overrides
})
const created = { id: RUN, status: "queued", model: "claude-sonnet-5", sessionId: SESSION, workspaceId: WORKSPACE, eventsUrl: `/api/v4/runs/${RUN}/events`, missingFileIds: [] }

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("V4's base URL", () => {
  it("is the connection's base URL with its last /v3 as /v4", () => {
    expect(v4BaseUrl("https://api.browser-use.com/api/v3")).toBe("https://api.browser-use.com/api/v4")
    expect(v4BaseUrl("http://127.0.0.1:8080/proxy/api/v3/")).toBe("http://127.0.0.1:8080/proxy/api/v4")
    expect(v4BaseUrl("https://proxy.example/browser-use")).toBeUndefined()
  })

  it.effect("a connection whose base URL does not end in /v3: InvalidInput naming it, nothing sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run("getRun", { runId: RUN }, { ...connection, baseUrl: "https://proxy.example/browser-use" }))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "baseUrl", message: expect.stringContaining("does not end in /v3") }] })
    }))
})

describe("V4 runs: the wire", () => {
  it.effect("createRun: POST /api/v4/runs with every field, the model under its wire name, the browser settings nested", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v4/runs", {
          task: "Find the best-rated mouse",
          model: "claude-sonnet-5",
          sessionId: SESSION,
          workspaceId: WORKSPACE,
          browserSettings: {
            profileId: PROFILE,
            proxyCountryCode: null,
            customProxy: { host: "proxy.example.com", port: 8080, username: "user", password: "secret", ignoreCertErrors: true },
            screenWidth: 1280,
            screenHeight: 800,
            record: true
          },
          attachedFileIds: [FILE],
          judge: { context: "The cheapest one wins" },
          maxCostUsd: 2.5
        })
        .reply(200, { ...created, missingFileIds: [FILE] })
      const result = yield* run("createRun", {
        task: "Find the best-rated mouse",
        model: "modelfamilyA-sonnet-5",
        sessionId: SESSION,
        workspaceId: WORKSPACE,
        profileId: PROFILE,
        proxyCountryCode: "none",
        customProxy: { host: "proxy.example.com", port: 8080, username: "user", password: "secret", ignoreCertErrors: true },
        screenWidth: 1280,
        screenHeight: 800,
        record: true,
        attachedFileIds: [FILE],
        judge: true,
        judgeContext: "The cheapest one wins",
        maxCostUsd: 2.5
      })
      expect(result).toEqual({ ...created, model: "modelfamilyA-sonnet-5", missingFileIds: [FILE] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createRun: only the task when that is all that is given; the judge alone is {}", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v4/runs", { task: "Anything" }).reply(200, created)
        .post("/api/v4/runs", { task: "Anything", judge: {} }).reply(200, created)
      yield* run("createRun", { task: "Anything" })
      yield* run("createRun", { task: "Anything", judge: true })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createRun: bad inputs are InvalidInput before any request", () =>
    Effect.gen(function*() {
      const flip = (parameters: Record<string, unknown>) => Effect.flip(run("createRun", { task: "Anything", ...parameters }))
      expect(yield* Effect.flip(run("createRun", { task: "" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "task" }] })
      expect(yield* flip({ model: "claude-sonnet-5" })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "model" }] })
      expect(yield* flip({ sessionId: "nope" })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "sessionId" }] })
      expect(yield* flip({ screenWidth: 100 })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "screenWidth" }] })
      expect(yield* flip({ attachedFileIds: Array.from({ length: 21 }, () => FILE) })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "attachedFileIds" }] })
      expect(yield* flip({ attachedFileIds: ["x"] })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "attachedFileIds[0]" }] })
      expect(yield* flip({ maxCostUsd: 0 })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "maxCostUsd" }] })
      expect(yield* flip({ judgeContext: "no judge" })).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "judgeContext" }] })
    }))

  it.effect("getRun, getRunStatus, cancelRun, listRunAttachments: their V4 paths; the model's neutral name", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get(`/api/v4/runs/${RUN}`).reply(200, wireRun({ status: "completed", result: "Done" }))
        .get(`/api/v4/runs/${RUN}/status`).reply(200, { status: "running" })
        .post(`/api/v4/runs/${RUN}/cancel`).reply(200, wireRun({ status: "cancelled" }))
        .get(`/api/v4/runs/${RUN}/attachments`).reply(200, { attachments: [{ id: FILE, name: "data.csv", contentType: "text/csv", sizeBytes: 12, status: "uploaded" }] })
      expect(yield* run("getRun", { runId: RUN })).toMatchObject({ id: RUN, status: "completed", result: "Done", model: "modelfamilyA-sonnet-5", contextLimit: 200000 })
      expect(yield* run("getRunStatus", { runId: RUN })).toEqual({ status: "running" })
      expect(yield* run("cancelRun", { runId: RUN })).toMatchObject({ id: RUN, status: "cancelled" })
      expect(yield* run("listRunAttachments", { runId: RUN })).toEqual({ attachments: [{ id: FILE, name: "data.csv", contentType: "text/csv", sizeBytes: 12, status: "uploaded" }] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a run V4 does not know: its 404 detail becomes NotFound; an id that is no UUID is InvalidInput, nothing sent", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v4/runs/${RUN}`).reply(404, { detail: "Run not found" })
      expect(yield* Effect.flip(run("getRun", { runId: RUN }))).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Run not found") })
      expect(yield* Effect.flip(run("cancelRun", { runId: "nope" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "runId" }] })
    }))

  it.effect("listRuns: keyset pages by nextCursor (of a session when given), up to the limit", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get("/api/v4/runs").query({ limit: 3, sessionId: SESSION }).reply(200, { runs: [wireRun(), wireRun()], nextCursor: "c1", hasMore: true })
        .get("/api/v4/runs").query({ limit: 1, cursor: "c1", sessionId: SESSION }).reply(200, { runs: [wireRun({ status: "completed" })], nextCursor: "c2", hasMore: true })
      const result = (yield* run("listRuns", { sessionId: SESSION, limit: 3 })) as { runs: Array<{ status: string }> }
      expect(result.runs.map((r) => r.status)).toEqual(["running", "running", "completed"])
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listRunEvents: pages of 200 `after` each page's nextAfter while hasMore", () =>
    Effect.gen(function*() {
      const event = (id: number) => ({ runId: RUN, id, ts: "2026-11-21T10:00:01Z", type: "run.step", data: { step: id } })
      const scope = browserUse()
        .get(`/api/v4/runs/${RUN}/events`).query({ limit: 200 }).reply(200, { events: [event(1), event(2)], nextAfter: 2, hasMore: true })
        .get(`/api/v4/runs/${RUN}/events`).query({ limit: 200, after: 2 }).reply(200, { events: [event(3)], nextAfter: 3, hasMore: false })
      const result = (yield* run("listRunEvents", { runId: RUN })) as { events: Array<{ id: number }> }
      expect(result.events.map((e) => e.id)).toEqual([1, 2, 3])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("V4 session queue and sessions: the wire", () => {
  it.effect("sendSessionMessage, listSessionQueue, removeQueuedMessage, listRunSessions: their V4 requests", () =>
    Effect.gen(function*() {
      const message = { id: 7, sessionId: SESSION, runId: null, status: "pending", text: "Now the cheapest", attachedFileIds: [FILE], createdAt: "2026-11-21T10:01:00Z" }
      const scope = browserUse()
        .post(`/api/v4/sessions/${SESSION}/queue`, { text: "Now the cheapest", interrupt: true, attachedFileIds: [FILE] }).reply(200, message)
        .get(`/api/v4/sessions/${SESSION}/queue`).reply(200, { queue: [message] })
        .delete(`/api/v4/sessions/${SESSION}/queue/7`).reply(200, { ...message, status: "cancelled" })
        .get("/api/v4/sessions").query({ limit: 100 })
        .reply(200, { sessions: [{ sessionId: SESSION, workspaceId: WORKSPACE, latestRunId: RUN, task: "Find", title: null, status: "running", createdAt: "2026-11-21T10:00:00Z", updatedAt: "2026-11-21T10:00:05Z" }], nextCursor: null, hasMore: false })
      expect(yield* run("sendSessionMessage", { sessionId: SESSION, text: "Now the cheapest", interrupt: true, attachedFileIds: [FILE] })).toEqual(message)
      expect(yield* run("listSessionQueue", { sessionId: SESSION })).toEqual({ messages: [message] })
      expect(yield* run("removeQueuedMessage", { sessionId: SESSION, messageId: 7 })).toMatchObject({ id: 7, status: "cancelled" })
      expect(yield* run("listRunSessions", {})).toMatchObject({ sessions: [{ sessionId: SESSION, latestRunId: RUN, status: "running" }] })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a message no longer pending: V4's 409 becomes Conflict; an empty text or a message id that is no integer is InvalidInput", () =>
    Effect.gen(function*() {
      browserUse().delete(`/api/v4/sessions/${SESSION}/queue/7`).reply(409, { detail: "The message is no longer pending and cannot be cancelled" })
      expect(yield* Effect.flip(run("removeQueuedMessage", { sessionId: SESSION, messageId: 7 }))).toMatchObject({ _tag: "Conflict", message: expect.stringContaining("no longer pending") })
      expect(yield* Effect.flip(run("removeQueuedMessage", { sessionId: SESSION, messageId: "seven" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "messageId" }] })
      expect(yield* Effect.flip(run("sendSessionMessage", { sessionId: SESSION, text: "" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "text" }] })
    }))
})

const runAndWait = (parameters: Record<string, unknown> = {}) =>
  step("runAndWait", { task: "Find the best-rated mouse", model: "modelfamilyA-sonnet-5", ...parameters })

/** Runs runAndWait over the in-memory client, moving TestClock on by `advance`. */
const onClock = (parameters: Record<string, unknown>, http: ReturnType<typeof fakeHttp>, advance: Duration.DurationInput) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(Effect.either(executor.run(runAndWait(parameters)).pipe(Effect.provide(connectedTo(connection, http.layer)))))
    yield* TestClock.adjust(advance)
    return yield* Fiber.join(fiber)
  })

/** The in-memory V4: the create, then each status poll from `statuses`, the run summary once final, and the cancel. */
const v4 = (statuses: ReadonlyArray<string>, final: Record<string, unknown> = {}) => {
  let polls = 0
  return fakeHttp((request) => {
    const at = path(request)
    if (at === "POST /api/v4/runs") return { status: 200, body: created }
    if (at.endsWith("/status")) return { status: 200, body: { status: statuses[Math.min(polls++, statuses.length - 1)] } }
    if (at.endsWith("/cancel")) return { status: 200, body: wireRun({ status: "cancelled" }) }
    return { status: 200, body: wireRun(final) }
  })
}

describe("runAndWait: the wait (TestClock)", () => {
  it.effect("polls the status on runTask's backoff (1 s, 2 s, 4 s …) until final, reads the run once; the output checked against the schema", () =>
    Effect.gen(function*() {
      const http = v4(["dispatching", "running", "running", "completed"], { status: "completed", result: JSON.stringify({ name: "MX Master", price: 99 }) })
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 minute")
      expect(result).toMatchObject({
        _tag: "Right",
        right: { runId: RUN, sessionId: SESSION, status: "completed", output: { name: "MX Master", price: 99 }, error: null, cost: { totalUsd: "0.0306", inputTokens: 3040, outputTokens: 420 } }
      })
      expect(http.sent.map(path)).toEqual(["POST /api/v4/runs", ...Array.from({ length: 4 }, () => `GET /api/v4/runs/${RUN}/status`), `GET /api/v4/runs/${RUN}`])
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 1000, 3000, 7000, 7000])
      // V4 takes no output schema: the task carries it.
      const body = JSON.parse(http.sent[0]!.body!)
      expect(body).toEqual({ task: expect.stringMatching(/^Find the best-rated mouse\n\nAnswer with only a JSON value that follows this JSON Schema:\n/), model: "claude-sonnet-5" })
      expect(JSON.parse(body.task.split("\n").at(-1))).toEqual(productSchema)
    }))

  it.effect("an answer that does not follow the schema: UnexpectedResponse naming the run and where", () =>
    Effect.gen(function*() {
      const http = v4(["completed"], { status: "completed", result: JSON.stringify({ name: "MX", price: "cheap" }) })
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 second")
      expect(result).toMatchObject({
        _tag: "Left",
        left: { _tag: "UnexpectedResponse", message: `the output of run ${RUN} does not follow the output schema: $.price: expected number, got string` }
      })
    }))

  it.effect("a run that failed is returned as it ended, with its error; its output not checked", () =>
    Effect.gen(function*() {
      const http = v4(["failed"], { status: "failed", error: "Blocked by a captcha" })
      const result = yield* onClock({ outputSchema: productSchema }, http, "1 second")
      expect(result).toMatchObject({ _tag: "Right", right: { status: "failed", output: null, error: "Blocked by a captcha" } })
    }))

  it.effect("past the timeout: a Timeout naming the run and its last status, and the run cancelled", () =>
    Effect.gen(function*() {
      const http = v4(["running"])
      const fiber = yield* Effect.fork(Effect.flip(executor.run(runAndWait({ timeoutSeconds: 30 })).pipe(Effect.provide(connectedTo(connection, http.layer)))))
      yield* TestClock.adjust("29 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toMatchObject({
        _tag: "Timeout",
        message: `run ${RUN} did not end within 30s; it was last running; it was cancelled`,
        body: { id: RUN, status: "running" }
      })
      // Polls at 0, 1, 3, 7, 15 and 25 s, then the cancel at 30 s.
      expect(http.sent.map((s) => s.at)).toEqual([0, 0, 1000, 3000, 7000, 15000, 25000, 30000])
      expect(path(http.sent.at(-1)!)).toBe(`POST /api/v4/runs/${RUN}/cancel`)
    }))

  it.effect("past the timeout with keepRunning: no cancel sent, the Timeout says so", () =>
    Effect.gen(function*() {
      const http = v4(["running"])
      const result = yield* onClock({ timeoutSeconds: 5, keepRunning: true }, http, "1 minute")
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "Timeout", message: `run ${RUN} did not end within 5s; it was last running; it was left running (keepRunning)` } })
      expect(http.sent.filter((s) => s.method === "POST").map(path)).toEqual(["POST /api/v4/runs"])
    }))

  it.effect("an output schema that is not an object is InvalidInput before any request", () =>
    Effect.gen(function*() {
      const http = v4(["completed"])
      const result = yield* onClock({ outputSchema: "{\"type\": \"object\"}" }, http, "1 second")
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidInput", issues: [{ path: "outputSchema" }] } })
      expect(http.sent).toEqual([])
    }))
})
