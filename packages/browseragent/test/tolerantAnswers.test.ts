import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, API_KEY, run, SESSION } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY } })

const WORKSPACE = "7c6b5a49-3827-4160-9f8e-7d6c5b4a3928"
const PROFILE = "2f4e6a8c-1b3d-4f5a-9c7e-5d3b1a9f7e6c"
const BROWSER = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"

/** Answers every request with `reply`, counting them: a retry would show as a second one. */
const answering = (method: "GET" | "POST", path: string, reply: () => [number, string | object]) => {
  let count = 0
  browserUse().intercept(path, method).query(true).times(5).reply(() => {
    count++
    return reply()
  })
  return () => count
}

/** What the seed names of a session, and nothing else. */
const seedSession = { id: SESSION, status: "created", model: "claude-sonnet-4.6", createdAt: "2026-11-21T10:00:00Z", updatedAt: "2026-11-21T10:00:00Z" }
const text = { format: "TEXT" }

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent: answers that leave out what the seed does not name", () => {
  it.effect("createWorkspace, createProfile and createBrowserSession answered with the id alone succeed, with the stated defaults", () =>
    Effect.gen(function*() {
      const workspaces = answering("POST", "/api/v3/workspaces", () => [201, { id: WORKSPACE }])
      expect(yield* run("createWorkspace", { name: "Reports" })).toEqual({ id: WORKSPACE, name: null })
      expect(workspaces()).toBe(1)
      answering("POST", "/api/v3/profiles", () => [201, { id: PROFILE }])
      expect(yield* run("createProfile", { name: "Alice" })).toEqual({ id: PROFILE, name: null, userId: null, lastUsedAt: null, cookieDomains: [] })
      answering("POST", "/api/v3/browsers", () => [201, { id: BROWSER }])
      expect(yield* run("createBrowserSession", {})).toEqual({
        id: BROWSER,
        liveUrl: null,
        cdpUrl: null,
        finishedAt: null,
        proxyUsedMb: "0",
        proxyCostUsd: "0",
        browserCostUsd: "0",
        agentSessionId: null,
        recordingUrl: null
      })
    }))

  it.effect("createSession answered with the seed's session fields alone succeeds, the rest at their defaults", () =>
    Effect.gen(function*() {
      answering("POST", "/api/v3/sessions", () => [200, seedSession])
      const session = yield* run("createSession", { task: "Find a mouse", model: "modelfamilyA-sonnet-4.6", outputSchema: text })
      expect(session).toMatchObject({ id: SESSION, status: "created", model: "modelfamilyA-sonnet-4.6", recordingUrls: [], stepCount: 0, title: null })
    }))

  it.effect("createSession answered without the session's id fails with AcceptedUnreadable, carrying the answer, sent once", () =>
    Effect.gen(function*() {
      const { id: _, ...withoutId } = seedSession
      const requests = answering("POST", "/api/v3/sessions", () => [200, withoutId])
      const error = yield* Effect.flip(run("createSession", { task: "Find a mouse", model: "modelfamilyA-sonnet-4.6", outputSchema: text }))
      expect(requests()).toBe(1)
      expect(error).toMatchObject({
        _tag: "AcceptedUnreadable",
        request: { method: "POST", path: "/sessions" },
        body: JSON.stringify(withoutId),
        issues: [{ path: "id", message: "is missing" }]
      })
      expect(error.message).toContain("do not repeat it blindly")
      expect(JSON.stringify(error)).not.toContain(API_KEY)
    }))

  it.effect("getSession answered without its id is still an UnexpectedResponse: a read is safe to repeat", () =>
    Effect.gen(function*() {
      const { id: _, ...withoutId } = seedSession
      answering("GET", `/api/v3/sessions/${SESSION}`, () => [200, withoutId])
      const error = yield* Effect.flip(run("getSession", { sessionId: SESSION }))
      expect(error._tag).toBe("UnexpectedResponse")
    }))
})
