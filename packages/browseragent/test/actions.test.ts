import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { browseragent } from "../src/index.js"
import { API, API_KEY, executor, run, SESSION, withFetch, wireSession } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })
const text = { format: "TEXT" }
const schema = JSON.stringify({ type: "object", properties: { name: { type: "string" }, price: { type: "number" } }, required: ["name"] })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent actions: the wire", () => {
  it.effect("createSession: POST /api/v3/sessions, the key header, the wire model, no outputSchema for TEXT", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/sessions", { task: "Find the best-rated mouse", model: "claude-sonnet-4.6", keepAlive: true })
        .matchHeader("content-type", "application/json")
        .reply(200, wireSession({ status: "created", stepCount: 0, lastStepSummary: null, totalInputTokens: 0 }))
      const session = yield* run("createSession", {
        task: "Find the best-rated mouse",
        model: "modelfamilyA-sonnet-4.6",
        outputSchema: text,
        keepAlive: true
      })
      expect(session).toMatchObject({ id: SESSION, status: "created", model: "modelfamilyA-sonnet-4.6" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createSession with JSON: the parsed schema is the wire outputSchema; every model maps", () =>
    Effect.gen(function*() {
      for (const [neutral, wire] of [
        ["modelfamilyA-sonnet-4.6", "claude-sonnet-4.6"],
        ["modelfamilyA-opus-4.6", "claude-opus-4.6"],
        ["modelfamilyB-5.4-mini", "gpt-5.4-mini"]
      ] as const) {
        browserUse()
          .post("/api/v3/sessions", {
            task: "Price of the mouse",
            model: wire,
            sessionId: SESSION,
            outputSchema: JSON.parse(schema),
            enableScheduledTasks: false,
            skills: true
          })
          .reply(200, wireSession({ model: wire }))
        const session = yield* run("createSession", {
          task: "Price of the mouse",
          model: neutral,
          outputSchema: { format: "JSON", schema },
          sessionId: SESSION,
          enableScheduledTasks: false,
          skills: true
        })
        expect((session as { model: string }).model).toBe(neutral)
      }
    }))

  it.effect("getSession: GET /api/v3/sessions/{id}: the full Session, agentmailEmail as mailboxEmail, the integrations used, nulls kept", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/sessions/${SESSION}`).reply(200, wireSession({
        status: "stopped",
        output: { name: "MX Master 3S", price: 99.99 },
        outputSchema: JSON.parse(schema),
        isTaskSuccessful: true,
        recordingUrls: ["https://recordings.example/1.mp4"],
        integrationsUsed: ["gmail", "agentmail"]
      }))
      const expected = { ...wireSession(), status: "stopped", output: { name: "MX Master 3S", price: 99.99 }, outputSchema: JSON.parse(schema), isTaskSuccessful: true, recordingUrls: ["https://recordings.example/1.mp4"], model: "modelfamilyA-sonnet-4.6", mailboxEmail: "agent-1a2b@agentmail.to", integrationsUsed: ["gmail", "agentmail"] } as Record<string, unknown>
      delete expected["agentmailEmail"]
      expect(yield* run("getSession", { sessionId: SESSION })).toEqual(expected)
    }))

  it.effect("absent nullable fields are null, absent counters their defaults; a model without a neutral name stays as is", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/sessions/${SESSION}`).reply(200, {
        id: SESSION, status: "created", model: "bu-mini", createdAt: "2026-11-21T10:00:00Z", updatedAt: "2026-11-21T10:00:00Z"
      })
      expect(yield* run("getSession", { sessionId: SESSION })).toMatchObject({
        model: "bu-mini", title: null, output: null, mailboxEmail: null, liveUrl: null, stepCount: 0, recordingUrls: [], totalCostUsd: "0", integrationsUsed: []
      })
    }))

  it.effect("options: every page of GET /sessions?page&page_size=100", () =>
    Effect.gen(function*() {
      const page = (n: number, count: number) =>
        Array.from({ length: count }, (_, i) => wireSession({ id: `5b0f3c2a-9d8e-4f7a-b6c5-${String(n * 1000 + i).padStart(12, "0")}`, title: `Task ${n}.${i}`, status: "idle" }))
      const scope = browserUse()
        .get("/api/v3/sessions").query({ page: 1, page_size: 100 }).reply(200, { sessions: page(1, 100), total: 130, page: 1, pageSize: 100 })
        .get("/api/v3/sessions").query({ page: 2, page_size: 100 }).reply(200, { sessions: page(2, 30), total: 130, page: 2, pageSize: 100 })
      const options = yield* withFetch(executor.options("browseragent/v1/getSession", "sessionId", {}))
      expect(options).toHaveLength(130)
      expect(options[0]).toEqual({ label: "Task 1.0 (idle)", value: "5b0f3c2a-9d8e-4f7a-b6c5-000000001000" })
      expect(scope.isDone()).toBe(true)
    }))
})

describe("browseragent actions: errors", () => {
  it.effect("bad input of every kind is rejected before any request", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, {}).post(/.*/).reply(200, {})
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const notJson = yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: { format: "JSON", schema: "{not json" } }))
      expect(notJson.message).toBe("step \"createSession\" (browseragent/v1/createSession): outputSchema.schema: must be a JSON Schema object, as JSON text")
      const many = yield* Effect.flip(run("createSession", { model: "claude-sonnet-4.6", outputSchema: { format: "XML" }, sessionId: "s-1", keepAlive: "yes" }))
      expect(many._tag === "InvalidInput" && many.issues.map((i) => i.path).sort()).toEqual(
        ["keepAlive", "model", "outputSchema.format", "sessionId"]
      )
      // A task is optional (no task: an idle session), but required to dispatch to a session.
      const noTask = yield* Effect.flip(run("createSession", { model: "modelfamilyA-sonnet-4.6", outputSchema: { format: "TEXT" }, sessionId: "5b0f3c2a-9d8e-4f7a-b6c5-000000001000" }))
      expect(noTask._tag === "InvalidInput" && noTask.issues.map((i) => i.path)).toEqual(["task"])
      const noSchema = yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6" }))
      expect(noSchema.message).toContain("outputSchema: is required")
      const badId = yield* Effect.flip(run("getSession", { sessionId: "../billing/account" }))
      expect(badId.message).toContain("sessionId: must be a session id (a UUID)")
      const badHeader = yield* Effect.flip(run("getSession", { sessionId: SESSION }, { key: "Bad Header", value: API_KEY }))
      expect(badHeader.message).toBe("connection: key: must be an HTTP header name")
      const base = { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: { format: "TEXT" } }
      for (const [parameters, path] of [
        [{ ...base, outputSchema: { format: "JSON" } }, "outputSchema.schema"],
        [{ ...base, outputSchema: { format: "JSON", schema: "[1]" } }, "outputSchema.schema"],
        [{ ...base, outputSchema: { format: "JSON", schema: "\"x\"" } }, "outputSchema.schema"],
        [{ ...base, task: "" }, "task"],
        [{ ...base, timeoutSeconds: 0 }, "timeoutSeconds"],
        [{ ...base, timeoutSeconds: 1.5 }, "timeoutSeconds"],
        [{ ...base, waitForCompletion: "yes" }, "waitForCompletion"],
        [{ ...base, outputSchema: "TEXT" }, "outputSchema"],
        [{ ...base, colour: "red" }, "colour"]
      ] as const) {
        const error = yield* Effect.flip(run("createSession", parameters))
        expect(error._tag === "InvalidInput" && error.issues.map((i) => i.path)).toEqual([path])
      }
      expect(sent).toEqual([])
    }))

  it.effect("the header's name has a default: only the key need be given", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/sessions/${SESSION}`).reply(200, wireSession())
      expect(yield* run("getSession", { sessionId: SESSION }, { value: API_KEY })).toMatchObject({ id: SESSION })
    }))

  it.effect("the provider's detail is the message: 404, 422 (FastAPI list), a task for a busy session, 401, 402", () =>
    Effect.gen(function*() {
      browserUse().post("/api/v3/sessions", (body) => body.sessionId === SESSION).reply(404, { detail: "Session not found" })
      expect(yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text, sessionId: SESSION }))).toMatchObject({
        _tag: "NotFound",
        message: "Session not found",
        request: { method: "POST", path: "/sessions" }
      })
      browserUse().get(`/api/v3/sessions/${SESSION}`).reply(404, { detail: "Session not found" })
      expect(yield* Effect.flip(run("getSession", { sessionId: SESSION }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
      browserUse().post("/api/v3/sessions").reply(422, { detail: [{ loc: ["body", "task"], msg: "Field required", type: "missing" }] })
      expect(yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text }))).toMatchObject({
        _tag: "InvalidInput",
        message: "task: Field required"
      })
      browserUse().post("/api/v3/sessions").reply(422, { detail: `Session ${SESSION} is not idle (status: running)` })
      expect(yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text, sessionId: SESSION }))).toMatchObject({
        _tag: "InvalidInput",
        message: `Session ${SESSION} is not idle (status: running)`
      })
      browserUse().get(`/api/v3/sessions/${SESSION}`).reply(401, { detail: "Invalid or missing API key" })
      expect(yield* Effect.flip(run("getSession", { sessionId: SESSION }))).toMatchObject({ _tag: "AuthenticationFailed" })
      browserUse().post("/api/v3/sessions").reply(402, { detail: "Insufficient credits" })
      expect(yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text }))).toMatchObject({
        _tag: "PaymentRequired",
        message: "Insufficient credits"
      })
    }))
})

describe("browseragent definition", () => {
  it("describes itself: API key connection with the header's default, the model options, the output", () => {
    const d = Component.describe(browseragent)
    expect(d).toMatchObject({
      type: "browseragent/v1",
      category: "Artificial Intelligence",
      customAction: true,
      connection: {
        kind: "API_KEY",
        defaultBaseUrl: "https://api.browser-use.com/api/v3",
        props: {
          key: { kind: "STRING", title: "Key", required: false, defaultValue: "X-Browser-Use-API-Key" },
          value: { kind: "STRING", title: "API Key", required: true, secret: true }
        }
      }
    })
    const create = d.actions.find((a) => a.name === "createSession")!
    expect(create.props["model"]!.choices).toEqual([
      { label: "modelfamilyA-sonnet-4.6", value: "modelfamilyA-sonnet-4.6" },
      { label: "modelfamilyA-opus-4.6", value: "modelfamilyA-opus-4.6" },
      { label: "modelfamilyB-5.4-mini", value: "modelfamilyB-5.4-mini" }
    ])
    expect(create.props["outputSchema"]).toMatchObject({ kind: "OBJECT", required: true })
    expect((create.output as { required: Array<string> }).required).toContain("mailboxEmail")
  })
})
