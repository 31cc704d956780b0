/** Browser sessions, profiles and the account on the wire (nock): requests pinned, realistic answers read. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { API, API_KEY, executor, run, withFetch } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })

const BROWSER = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
const PROFILE = "2f4e6a8c-1b3d-4f5a-9c7e-5d3b1a9f7e6c"
const browserId = (n: number) => `9a1b2c3d-4e5f-4a6b-8c7d-${String(n).padStart(12, "0")}`
const cdpUrl = `wss://${BROWSER}.cdp0.browser-use.com`
const wireBrowser = (overrides: Record<string, unknown> = {}) => ({
  id: BROWSER,
  status: "active",
  liveUrl: `https://live.browser-use.com?wss=${encodeURIComponent(cdpUrl)}`,
  cdpUrl,
  timeoutAt: "2026-11-21T11:00:00Z",
  startedAt: "2026-11-21T10:00:00Z",
  finishedAt: null,
  proxyUsedMb: "0",
  proxyCost: "0",
  browserCost: "0.02",
  agentSessionId: null,
  recordingUrl: null,
  ...overrides
})
const browserOutput = (overrides: Record<string, unknown> = {}) => {
  const { proxyCost, browserCost, ...rest } = wireBrowser(overrides)
  return { ...rest, proxyCostUsd: proxyCost, browserCostUsd: browserCost }
}
const wireProfile = (overrides: Record<string, unknown> = {}) => ({
  id: PROFILE,
  userId: "user-42",
  name: "Alice",
  lastUsedAt: "2026-11-20T09:00:00Z",
  createdAt: "2026-11-01T08:00:00Z",
  updatedAt: "2026-11-20T09:00:00Z",
  cookieDomains: ["github.com", "linkedin.com"],
  ...overrides
})
const S3 = "https://bu-downloads.s3.us-east-1.amazonaws.com"
const presigned = (key: string) => `${S3}/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=${"cd".repeat(32)}`
const dir = mkdtempSync(join(tmpdir(), "browseragent-browsers-"))

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent browser sessions: the wire", () => {
  it.effect("createBrowserSession: POST /browsers with every option under its wire name, 201 read; the proxy password sent but never output", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/browsers", {
          profileId: PROFILE,
          proxyCountryCode: "de",
          timeout: 30,
          browserScreenWidth: 1280,
          browserScreenHeight: 800,
          allowResizing: true,
          enableRecording: true,
          customProxy: { host: "proxy.example.com", port: 8080, username: "bob", password: "hunter2", ignoreCertErrors: true }
        })
        .matchHeader("content-type", "application/json")
        .reply(201, wireBrowser({ timeoutAt: "2026-11-21T10:30:00Z", browserCost: "0.01" }))
      const created = yield* run("createBrowserSession", {
        profileId: PROFILE,
        proxyCountryCode: "de",
        timeoutMinutes: 30,
        screenWidth: 1280,
        screenHeight: 800,
        allowResizing: true,
        enableRecording: true,
        customProxy: { host: "proxy.example.com", port: 8080, username: "bob", password: "hunter2", ignoreCertErrors: true }
      })
      expect(created).toEqual(browserOutput({ timeoutAt: "2026-11-21T10:30:00Z", browserCost: "0.01" }))
      expect(JSON.stringify(created)).not.toContain("hunter2")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createBrowserSession: no options is {}; `none` is no proxy (null); an unknown profile is NotFound with its detail", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/browsers", {}).reply(201, wireBrowser())
        .post("/api/v3/browsers", { proxyCountryCode: null }).reply(201, wireBrowser())
      expect(yield* run("createBrowserSession", {})).toEqual(browserOutput())
      expect(yield* run("createBrowserSession", { proxyCountryCode: "none" })).toEqual(browserOutput())
      expect(scope.isDone()).toBe(true)
      browserUse().post("/api/v3/browsers").reply(404, { detail: "Profile not found" })
      expect(yield* Effect.flip(run("createBrowserSession", { profileId: PROFILE }))).toMatchObject({ _tag: "NotFound", message: "Profile not found" })
    }))

  it.effect("createBrowserSession: a timeout over 240 minutes, a bad country or a proxy without a port are refused before any request", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().post(/.*/).reply(201, {}).on("request", (req: { path: string }) => sent.push(req.path))
      expect(yield* Effect.flip(run("createBrowserSession", { timeoutMinutes: 241 }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "timeoutMinutes" }] })
      expect(yield* Effect.flip(run("createBrowserSession", { proxyCountryCode: "xx" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "proxyCountryCode" }] })
      expect(yield* Effect.flip(run("createBrowserSession", { customProxy: { host: "p.example.com" } }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "customProxy.port" }] })
      expect(yield* Effect.flip(run("createBrowserSession", { profileId: "alice" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "profileId", message: expect.stringContaining("profile id") }] })
      expect(sent).toEqual([])
    }))

  it.effect("getBrowserSession: GET /browsers/{id}; an unknown one is NotFound with the detail", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/browsers/${BROWSER}`).reply(200, wireBrowser())
        .get(`/api/v3/browsers/${browserId(1)}`).reply(404, { detail: "Session not found" })
      expect(yield* run("getBrowserSession", { sessionId: BROWSER })).toEqual(browserOutput())
      expect(yield* Effect.flip(run("getBrowserSession", { sessionId: browserId(1) }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
    }))

  it.effect("stopBrowserSession: PATCH /browsers/{id} {action: stop}, the stopped session read", () =>
    Effect.gen(function*() {
      const stopped = { status: "stopped", liveUrl: null, cdpUrl: null, finishedAt: "2026-11-21T10:12:00Z", browserCost: "0.004" }
      const scope = browserUse().patch(`/api/v3/browsers/${BROWSER}`, { action: "stop" }).reply(200, wireBrowser(stopped))
      expect(yield* run("stopBrowserSession", { sessionId: BROWSER })).toEqual(browserOutput(stopped))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listBrowserSessions: pageNumber 1, 2 with pageSize=100 and filterBy until totalItems; the limit caps it", () =>
    Effect.gen(function*() {
      const page = (n: number, count: number) => Array.from({ length: count }, (_, i) => wireBrowser({ id: browserId(n * 1000 + i) }))
      const scope = browserUse()
        .get("/api/v3/browsers").query({ pageNumber: 1, pageSize: 100, filterBy: "active" }).reply(200, { items: page(1, 100), totalItems: 103, pageNumber: 1, pageSize: 100 })
        .get("/api/v3/browsers").query({ pageNumber: 2, pageSize: 100, filterBy: "active" }).reply(200, { items: page(2, 3), totalItems: 103, pageNumber: 2, pageSize: 100 })
      const listed = (yield* run("listBrowserSessions", { status: "active", limit: 1000 })) as { sessions: Array<{ id: string }> }
      expect(listed.sessions).toHaveLength(103)
      expect(listed.sessions[102]).toEqual(browserOutput({ id: browserId(2002) }))
      expect(scope.isDone()).toBe(true)
      browserUse().get("/api/v3/browsers").query({ pageNumber: 1, pageSize: 100 }).reply(200, { items: page(1, 100), totalItems: 103, pageNumber: 1, pageSize: 100 })
      expect(((yield* run("listBrowserSessions", { limit: 7 })) as { sessions: ReadonlyArray<unknown> }).sessions).toHaveLength(7)
      expect(nock.pendingMocks()).toEqual([])
      expect(yield* Effect.flip(run("listBrowserSessions", { status: "paused" }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "status" }] })
    }))

  it.effect("listBrowserDownloads: limit, then each page's cursor until nextCursor is null; no URLs asked for", () =>
    Effect.gen(function*() {
      const file = (path: string, size: number) => ({ path, size, lastModified: "2026-11-21T10:05:00Z", url: null })
      const scope = browserUse()
        .get(`/api/v3/browsers/${BROWSER}/downloads`).query({ limit: 100 }).reply(200, { files: [file("a.pdf", 10), file("b.csv", 20)], nextCursor: "Yi5jc3Y", hasMore: true })
        .get(`/api/v3/browsers/${BROWSER}/downloads`).query({ limit: 98, cursor: "Yi5jc3Y" }).reply(200, { files: [file("c.zip", 30)], nextCursor: null, hasMore: false })
      expect(yield* run("listBrowserDownloads", { sessionId: BROWSER })).toEqual({
        files: [
          { path: "a.pdf", size: 10, lastModified: "2026-11-21T10:05:00Z" },
          { path: "b.csv", size: 20, lastModified: "2026-11-21T10:05:00Z" },
          { path: "c.zip", size: 30, lastModified: "2026-11-21T10:05:00Z" }
        ]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("downloadBrowserFile: the listing with includeUrls read until the file, then its presigned URL (no API key) streamed to the path", () =>
    Effect.gen(function*() {
      const key = `downloads/projects/p/sessions/${BROWSER}/invoice.pdf`
      const api = browserUse()
        .get(`/api/v3/browsers/${BROWSER}/downloads`).query({ limit: 100, includeUrls: "true" })
        .reply(200, { files: [{ path: "a.pdf", size: 1, lastModified: "2026-11-21T10:05:00Z", url: presigned("a") }], nextCursor: "YS5wZGY", hasMore: true })
        .get(`/api/v3/browsers/${BROWSER}/downloads`).query({ limit: 100, includeUrls: "true", cursor: "YS5wZGY" })
        .reply(200, { files: [{ path: "invoice.pdf", size: 9, lastModified: "2026-11-21T10:06:00Z", url: presigned(key) }], nextCursor: null, hasMore: false })
      const storage = nock(S3, { badheaders: ["x-browser-use-api-key"] }).get(`/${key}`).query(true)
        .reply(200, "%PDF-1.7\n", { "content-type": "application/pdf", "content-length": "9" })
      const to = join(dir, "invoice.pdf")
      expect(yield* run("downloadBrowserFile", { sessionId: BROWSER, path: "invoice.pdf", to }))
        .toEqual({ path: to, size: 9, contentType: "application/pdf", downloadPath: "invoice.pdf" })
      expect(readFileSync(to, "utf8")).toBe("%PDF-1.7\n")
      expect(statSync(to).mode & 0o777).toBe(0o600)
      expect(api.isDone() && storage.isDone()).toBe(true)
    }))

  it.effect("downloadBrowserFile: a file not in the listing is a NotFound, nothing downloaded", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/browsers/${BROWSER}/downloads`).query(true)
        .reply(200, { files: [{ path: "other.pdf", size: 1, lastModified: "2026-11-21T10:05:00Z", url: presigned("other.pdf") }], nextCursor: null, hasMore: false })
      const error = yield* Effect.flip(run("downloadBrowserFile", { sessionId: BROWSER, path: "invoice.pdf", to: join(dir, "none.pdf") }))
      expect(error).toMatchObject({ _tag: "NotFound", message: `no download invoice.pdf in browser session ${BROWSER}` })
    }))

  it.effect("a server that repeats its cursor: downloadBrowserFile stops after two requests (PagingLoop naming the request), listSessionMessages too", () =>
    Effect.gen(function*() {
      let requests = 0
      browserUse().get(`/api/v3/browsers/${BROWSER}/downloads`).query(true).times(20).reply(200, () => {
        requests++
        return { files: [{ path: `f${requests}.pdf`, size: 1, lastModified: "2026-11-21T10:05:00Z", url: presigned("f") }], nextCursor: "c2FtZQ", hasMore: true }
      })
      const error = yield* Effect.flip(run("downloadBrowserFile", { sessionId: BROWSER, path: "invoice.pdf", to: join(dir, "loop.pdf") }))
      expect(error).toMatchObject({ _tag: "PagingLoop", request: { method: "GET", path: `/browsers/${BROWSER}/downloads` } })
      expect(error.message).toContain(`GET /browsers/${BROWSER}/downloads gave a next-page cursor it had given before`)
      expect(requests).toBe(2)

      // Messages: `after` ignored, the same page with hasMore every time.
      let pages = 0
      const message = { id: "m-1", sessionId: BROWSER, role: "ai", type: "", summary: "", data: "hello", screenshotUrl: null, hidden: false, createdAt: "2026-11-21T10:01:00Z" }
      browserUse().get(`/api/v3/sessions/${BROWSER}/messages`).query(true).times(20).reply(200, () => (pages++, { messages: [message], hasMore: true }))
      const listed = yield* Effect.flip(run("listSessionMessages", { sessionId: BROWSER, limit: 500 }))
      expect(listed).toMatchObject({ _tag: "PagingLoop", request: { method: "GET", path: `/sessions/${BROWSER}/messages` } })
      expect(pages).toBe(2)
    }))

  it.effect("options: the browser sessions (every page), a session's downloads once it is chosen, the profiles", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get("/api/v3/browsers").query({ pageNumber: 1, pageSize: 100 }).reply(200, { items: [wireBrowser()], totalItems: 1, pageNumber: 1, pageSize: 100 })
        .get(`/api/v3/browsers/${BROWSER}/downloads`).query({ limit: 100 })
        .reply(200, { files: [{ path: "invoice.pdf", size: 9, lastModified: "2026-11-21T10:06:00Z" }], nextCursor: null, hasMore: false })
        .get("/api/v3/profiles").query({ pageNumber: 1, pageSize: 100 })
        .reply(200, { items: [wireProfile(), wireProfile({ id: browserId(7), name: null, userId: null })], totalItems: 2, pageNumber: 1, pageSize: 100 })
      expect(yield* withFetch(executor.options("browseragent/v1/getBrowserSession", "sessionId", {})))
        .toEqual([{ label: `${BROWSER} (active, from 2026-11-21T10:00:00Z)`, value: BROWSER }])
      expect(yield* withFetch(executor.options("browseragent/v1/downloadBrowserFile", "path", { sessionId: BROWSER })))
        .toEqual([{ label: "invoice.pdf", value: "invoice.pdf" }])
      expect(yield* withFetch(executor.options("browseragent/v1/createBrowserSession", "profileId", {})))
        .toEqual([{ label: "Alice", value: PROFILE }, { label: browserId(7), value: browserId(7) }])
      expect(scope.isDone()).toBe(true)
    }))
})

describe("browseragent profiles and account: the wire", () => {
  it.effect("createProfile: POST /profiles {name, userId}, 201 read; with nothing the body is {}", () =>
    Effect.gen(function*() {
      const fresh = wireProfile({ lastUsedAt: null, cookieDomains: null })
      const scope = browserUse()
        .post("/api/v3/profiles", { name: "Alice", userId: "user-42" }).reply(201, fresh)
        .post("/api/v3/profiles", {}).reply(201, { ...fresh, name: null, userId: null })
      expect(yield* run("createProfile", { name: "Alice", userId: "user-42" })).toEqual({ ...fresh, cookieDomains: [] })
      expect(yield* run("createProfile", {})).toMatchObject({ name: null, userId: null, cookieDomains: [] })
      expect(scope.isDone()).toBe(true)
      expect(yield* Effect.flip(run("createProfile", { name: "x".repeat(101) }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "name" }] })
    }))

  it.effect("getProfile, updateProfile (only the fields given), deleteProfile (204)", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get(`/api/v3/profiles/${PROFILE}`).reply(200, wireProfile())
        .patch(`/api/v3/profiles/${PROFILE}`, { name: "Alice B." }).reply(200, wireProfile({ name: "Alice B.", updatedAt: "2026-11-21T10:00:00Z" }))
        .delete(`/api/v3/profiles/${PROFILE}`).reply(204)
      expect(yield* run("getProfile", { profileId: PROFILE })).toEqual(wireProfile())
      expect(yield* run("updateProfile", { profileId: PROFILE, name: "Alice B." })).toEqual(wireProfile({ name: "Alice B.", updatedAt: "2026-11-21T10:00:00Z" }))
      expect(yield* run("deleteProfile", { profileId: PROFILE })).toEqual({ id: PROFILE, deleted: true })
      expect(scope.isDone()).toBe(true)
      expect(yield* Effect.flip(run("updateProfile", { profileId: PROFILE }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "name" }] })
      browserUse().get(`/api/v3/profiles/${PROFILE}`).reply(404, { detail: "Profile not found" })
      expect(yield* Effect.flip(run("getProfile", { profileId: PROFILE }))).toMatchObject({ _tag: "NotFound", message: "Profile not found" })
    }))

  it.effect("listProfiles: pageNumber/pageSize=100 with query, every page up to the limit", () =>
    Effect.gen(function*() {
      const page = (n: number, count: number) => Array.from({ length: count }, (_, i) => wireProfile({ id: browserId(n * 1000 + i) }))
      const scope = browserUse()
        .get("/api/v3/profiles").query({ pageNumber: 1, pageSize: 100, query: "alice" }).reply(200, { items: page(1, 100), totalItems: 150, pageNumber: 1, pageSize: 100 })
        .get("/api/v3/profiles").query({ pageNumber: 2, pageSize: 100, query: "alice" }).reply(200, { items: page(2, 50), totalItems: 150, pageNumber: 2, pageSize: 100 })
      const listed = (yield* run("listProfiles", { search: "alice", limit: 120 })) as { profiles: Array<{ id: string }> }
      expect(listed.profiles.map((p) => p.id)).toEqual([...page(1, 100), ...page(2, 20)].map((p) => p.id))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getAccount: GET /billing/account, the balances, the rate limit and the plan", () =>
    Effect.gen(function*() {
      browserUse().get("/api/v3/billing/account").reply(200, {
        name: "Acme",
        totalCreditsBalanceUsd: 42.5,
        monthlyCreditsBalanceUsd: 30,
        additionalCreditsBalanceUsd: 12.5,
        rateLimit: 50,
        planInfo: { planName: "Business", subscriptionStatus: "active", subscriptionId: "sub_123", subscriptionCurrentPeriodEnd: "2026-12-01T00:00:00Z", subscriptionCanceledAt: null },
        isFreeTier: false,
        projectId: "3f6b2c1d-8e4a-4b7c-9d2e-1a5f0c3b7e9d"
      })
      expect(yield* run("getAccount", {})).toEqual({
        name: "Acme",
        projectId: "3f6b2c1d-8e4a-4b7c-9d2e-1a5f0c3b7e9d",
        totalCreditsBalanceUsd: 42.5,
        monthlyCreditsBalanceUsd: 30,
        additionalCreditsBalanceUsd: 12.5,
        rateLimit: 50,
        isFreeTier: false,
        plan: { name: "Business", subscriptionStatus: "active", subscriptionId: "sub_123", currentPeriodEnd: "2026-12-01T00:00:00Z", canceledAt: null }
      })
    }))
})
