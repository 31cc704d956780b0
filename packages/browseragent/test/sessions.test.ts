/** The session actions on the wire (nock): requests pinned, realistic answers read. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, API_KEY, executor, run, SESSION, wireSession, withFetch } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })
const text = { format: "TEXT" }
const WORKSPACE = "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c"
const PROFILE = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
const sessionId = (n: number) => `5b0f3c2a-9d8e-4f7a-b6c5-${String(n).padStart(12, "0")}`
const messageId = (n: number) => `0c1d2e3f-4a5b-4c6d-8e7f-${String(n).padStart(12, "0")}`
const wireMessage = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: messageId(n),
  sessionId: SESSION,
  role: "ai",
  data: JSON.stringify({ action: "navigate", url: "https://www.amazon.com" }),
  type: "browser_action",
  summary: "Navigating to amazon.com",
  screenshotUrl: `https://screenshots.browser-use.com/${SESSION}/${n}.png`,
  hidden: false,
  createdAt: "2026-11-21T10:00:02Z",
  ...overrides
})

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent session actions: the wire", () => {
  it.effect("createSession: every RunTaskRequest option under its wire name, the neutral model mapped, no proxy as null", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/sessions", {
          task: "Log in and download the March invoice",
          model: "claude-sonnet-4.6",
          keepAlive: true,
          maxCostUsd: 1.5,
          profileId: PROFILE,
          workspaceId: WORKSPACE,
          proxyCountryCode: null,
          enableScheduledTasks: false,
          sensitiveData: { password: "hunter2" },
          enableRecording: true,
          skills: false,
          agentmail: false,
          codeMode: true,
          cacheScript: true,
          autoHeal: false,
          useOwnKey: true
        })
        .reply(200, wireSession({ profileId: PROFILE, workspaceId: WORKSPACE, proxyCountryCode: null, maxCostUsd: "1.5" }))
      const session = yield* run("createSession", {
        task: "Log in and download the March invoice",
        model: "modelfamilyA-sonnet-4.6",
        outputSchema: text,
        keepAlive: true,
        maxCostUsd: 1.5,
        profileId: PROFILE,
        workspaceId: WORKSPACE,
        proxyCountryCode: "none",
        enableScheduledTasks: false,
        sensitiveData: { password: "hunter2" },
        enableRecording: true,
        skills: false,
        agentmail: false,
        codeMode: true,
        cacheScript: true,
        autoHeal: false,
        useOwnKey: true
      })
      expect(session).toMatchObject({ id: SESSION, profileId: PROFILE, workspaceId: WORKSPACE, proxyCountryCode: null, maxCostUsd: "1.5", model: "modelfamilyA-sonnet-4.6" })
      expect(JSON.stringify(session)).not.toContain("hunter2")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createSession: without a task, an idle session (no task sent); a proxy country as its code", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/sessions", { model: "gpt-5.4-mini", proxyCountryCode: "jp" })
        .reply(200, wireSession({ status: "idle", title: null, stepCount: 0, model: "gpt-5.4-mini", proxyCountryCode: "jp" }))
      const session = yield* run("createSession", { model: "modelfamilyB-5.4-mini", outputSchema: text, proxyCountryCode: "jp" })
      expect(session).toMatchObject({ status: "idle", model: "modelfamilyB-5.4-mini", proxyCountryCode: "jp" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createSession: the rules across inputs are checked before anything is sent, secrets never shown", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().post(/.*/).reply(200, {}).on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const base = { model: "modelfamilyA-sonnet-4.6", outputSchema: text }
      const paths = (error: unknown) => (error as { issues: ReadonlyArray<{ path: string }> }).issues.map((i) => i.path)
      const cacheNoWorkspace = yield* Effect.flip(run("createSession", { ...base, task: "Prices from @{{https://example.com}}", cacheScript: true }))
      expect(cacheNoWorkspace).toMatchObject({ _tag: "InvalidInput" })
      expect(paths(cacheNoWorkspace)).toEqual(["cacheScript"])
      const several = yield* Effect.flip(run("createSession", { ...base, maxCostUsd: 0, waitForCompletion: true, sensitiveData: { pin: 12345678 } }))
      expect(paths(several).sort()).toEqual(["maxCostUsd", "sensitiveData.pin", "task"])
      expect(several.message).not.toContain("12345678")
      const badProxy = yield* Effect.flip(run("createSession", { ...base, task: "t", proxyCountryCode: "US", profileId: "default" }))
      expect(paths(badProxy).sort()).toEqual(["profileId", "proxyCountryCode"])
      expect(sent).toEqual([])
    }))

  it.effect("listSessions: page 1, 2, … with page_size=100 until total; the limit caps it", () =>
    Effect.gen(function*() {
      const page = (n: number, count: number) => Array.from({ length: count }, (_, i) => wireSession({ id: sessionId(n * 1000 + i), status: "stopped" }))
      const scope = browserUse()
        .get("/api/v3/sessions").query({ page: 1, page_size: 100 }).reply(200, { sessions: page(1, 100), total: 150, page: 1, pageSize: 100 })
        .get("/api/v3/sessions").query({ page: 2, page_size: 100 }).reply(200, { sessions: page(2, 50), total: 150, page: 2, pageSize: 100 })
      const listed = (yield* run("listSessions", { limit: 1000 })) as { sessions: Array<{ id: string; mailboxEmail: string; model: string }> }
      expect(listed.sessions).toHaveLength(150)
      expect(listed.sessions[100]).toMatchObject({ id: sessionId(2000), status: "stopped", mailboxEmail: "agent-1a2b@agentmail.to", model: "modelfamilyA-sonnet-4.6" })
      expect(scope.isDone()).toBe(true)

      browserUse().get("/api/v3/sessions").query({ page: 1, page_size: 100 }).reply(200, { sessions: page(1, 100), total: 150, page: 1, pageSize: 100 })
      const capped = (yield* run("listSessions", { limit: 20 })) as { sessions: ReadonlyArray<unknown> }
      expect(capped.sessions).toHaveLength(20)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("deleteSession: DELETE /sessions/{id}, 204; an unknown session is NotFound with Browser Use's detail", () =>
    Effect.gen(function*() {
      const scope = browserUse().delete(`/api/v3/sessions/${SESSION}`).reply(204)
      expect(yield* run("deleteSession", { sessionId: SESSION })).toBeNull()
      expect(scope.isDone()).toBe(true)
      browserUse().delete(`/api/v3/sessions/${SESSION}`).reply(404, { detail: "Session not found" })
      expect(yield* Effect.flip(run("deleteSession", { sessionId: SESSION }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
      expect(yield* Effect.flip(run("deleteSession", { sessionId: "../billing" }))).toMatchObject({ _tag: "InvalidInput" })
    }))

  it.effect("listSessionMessages: limit=100, then after the last message while hasMore; the limit asks only for what it leaves", () =>
    Effect.gen(function*() {
      const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => wireMessage(from + i))
      const scope = browserUse()
        .get(`/api/v3/sessions/${SESSION}/messages`).query({ limit: 100 })
        .reply(200, { messages: [wireMessage(0, { role: "human", type: "user_message", data: "Find the best-rated mouse", summary: "Find the best-rated mouse", screenshotUrl: null }), ...page(1, 99)], hasMore: true })
        .get(`/api/v3/sessions/${SESSION}/messages`).query({ limit: 100, after: messageId(99) })
        // Older deployments leave out type, summary and hidden: read with their defaults.
        .reply(200, { messages: [{ id: messageId(100), sessionId: SESSION, role: "ai", data: "The MX Master 3S", createdAt: "2026-11-21T10:01:00Z" }], hasMore: false })
      const listed = (yield* run("listSessionMessages", { sessionId: SESSION })) as { messages: Array<Record<string, unknown>> }
      expect(listed.messages).toHaveLength(101)
      expect(listed.messages[0]).toEqual(wireMessage(0, { role: "human", type: "user_message", data: "Find the best-rated mouse", summary: "Find the best-rated mouse", screenshotUrl: null }))
      expect(listed.messages[100]).toEqual({
        id: messageId(100), sessionId: SESSION, role: "ai", type: "", summary: "", data: "The MX Master 3S", screenshotUrl: null, hidden: false, createdAt: "2026-11-21T10:01:00Z"
      })
      expect(scope.isDone()).toBe(true)

      const capped = browserUse()
        .get(`/api/v3/sessions/${SESSION}/messages`).query({ limit: 3 }).reply(200, { messages: page(1, 3), hasMore: true })
      const three = (yield* run("listSessionMessages", { sessionId: SESSION, limit: 3 })) as { messages: ReadonlyArray<unknown> }
      expect(three.messages).toHaveLength(3)
      expect(capped.isDone()).toBe(true)
    }))

  it.effect("options: the profile dropdown reads every page of GET /profiles?pageNumber&pageSize=100", () =>
    Effect.gen(function*() {
      const profile = (n: number) => ({ id: `9a8b7c6d-5e4f-4a3b-9c2d-${String(n).padStart(12, "0")}`, name: n % 2 === 0 ? `Customer ${n}` : null, userId: null, lastUsedAt: null, createdAt: "2026-11-01T10:00:00Z", updatedAt: "2026-11-01T10:00:00Z", cookieDomains: [] })
      const scope = browserUse()
        .get("/api/v3/profiles").query({ pageNumber: 1, pageSize: 100 }).reply(200, { items: Array.from({ length: 100 }, (_, i) => profile(i)), totalItems: 101, pageNumber: 1, pageSize: 100 })
        .get("/api/v3/profiles").query({ pageNumber: 2, pageSize: 100 }).reply(200, { items: [profile(100)], totalItems: 101, pageNumber: 2, pageSize: 100 })
      const options = yield* withFetch(executor.options("browseragent/v1/createSession", "profileId", {}))
      expect(options).toHaveLength(101)
      expect(options[0]).toEqual({ label: "Customer 0", value: profile(0).id })
      expect(options[1]).toEqual({ label: profile(1).id, value: profile(1).id })
      expect(scope.isDone()).toBe(true)
    }))
})
