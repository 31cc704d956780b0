/** Browser sessions, profiles and the account end to end: the actions through the executor, against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
/** Added to the simulator's clock: to see a browser session's timeout pass. */
let skew = 0
const dir = mkdtempSync(join(tmpdir(), "browseragent-browsers-e2e-"))
beforeAll(async () => {
  sim = await Simulator.start({ now: () => Date.now() + skew })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { "x-browser-use-api-key": sim.apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as any }
}

type Browser = { id: string; status: string; cdpUrl: string | null; liveUrl: string | null; timeoutAt: string; startedAt: string; finishedAt: string | null; browserCostUsd: string; recordingUrl: string | null }

describe("browseragent browser sessions against the simulator", () => {
  it.effect("a profile, a browser session started with it, read, listed, its download saved, stopped with a refund", () =>
    Effect.gen(function*() {
      const profile = (yield* run("createProfile", { name: "Alice", userId: "user-42" })) as { id: string; lastUsedAt: string | null }
      expect(profile.lastUsedAt).toBeNull()
      const created = (yield* run("createBrowserSession", { profileId: profile.id, timeoutMinutes: 120, enableRecording: true, proxyCountryCode: "none" })) as Browser
      expect(created).toMatchObject({ status: "active", finishedAt: null, browserCostUsd: "0.04", recordingUrl: null, agentSessionId: null })
      expect(created.cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/cdp\//)
      expect(Date.parse(created.timeoutAt) - Date.parse(created.startedAt)).toBe(120 * 60_000)
      expect(((yield* run("getProfile", { profileId: profile.id })) as { lastUsedAt: string | null }).lastUsedAt).toBe(created.startedAt)

      expect(yield* run("getBrowserSession", { sessionId: created.id })).toEqual(created)
      const active = (yield* run("listBrowserSessions", { status: "active" })) as { sessions: Array<Browser> }
      expect(active.sessions.map((s) => s.id)).toContain(created.id)

      sim.browsers.download(created.id, "invoice.pdf", "%PDF-1.7\n", "application/pdf")
      expect(yield* run("listBrowserDownloads", { sessionId: created.id })).toEqual({
        files: [
          { path: "example.txt", size: 37, lastModified: expect.any(String) },
          { path: "invoice.pdf", size: 9, lastModified: expect.any(String) }
        ]
      })
      const to = join(dir, "invoice.pdf")
      expect(yield* run("downloadBrowserFile", { sessionId: created.id, path: "invoice.pdf", to }))
        .toEqual({ path: to, size: 9, contentType: "application/pdf", downloadPath: "invoice.pdf" })
      expect(readFileSync(to, "utf8")).toBe("%PDF-1.7\n")
      // The presigned URL was fetched without the API key.
      expect(sim.storage.requests.at(-1)).toMatchObject({ method: "GET", key: `downloads/sessions/${created.id}/invoice.pdf`, status: 200 })
      expect(sim.storage.requests.at(-1)!.headers["x-browser-use-api-key"]).toBeUndefined()

      const stopped = (yield* run("stopBrowserSession", { sessionId: created.id })) as Browser
      // A minute charged out of the 120 paid upfront.
      expect(stopped).toMatchObject({ status: "stopped", cdpUrl: null, liveUrl: null, browserCostUsd: "0.000333", finishedAt: expect.any(String) })
      expect(stopped.recordingUrl).toContain("X-Amz-Signature=")
      expect((yield* run("stopBrowserSession", { sessionId: created.id }))).toMatchObject({ finishedAt: stopped.finishedAt })
      const stoppedOnes = (yield* run("listBrowserSessions", { status: "stopped" })) as { sessions: Array<Browser> }
      expect(stoppedOnes.sessions.map((s) => s.id)).toEqual([created.id])
    }))

  it.effect("a browser session stops by itself at its timeout, charged for all of it", () =>
    Effect.gen(function*() {
      const created = (yield* run("createBrowserSession", { timeoutMinutes: 1 })) as Browser
      skew = 61_000
      try {
        const later = (yield* run("getBrowserSession", { sessionId: created.id })) as Browser
        expect(later).toMatchObject({ status: "stopped", finishedAt: created.timeoutAt, cdpUrl: null, browserCostUsd: "0.000333" })
      } finally {
        skew = 0
      }
    }))

  it.effect("errors as Browser Use gives them: an unknown session or profile is NotFound, too many active sessions RateLimited", () =>
    Effect.gen(function*() {
      const unknown = "00000000-0000-4000-8000-000000000000"
      expect(yield* Effect.flip(run("getBrowserSession", { sessionId: unknown }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
      expect(yield* Effect.flip(run("listBrowserDownloads", { sessionId: unknown }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
      expect(yield* Effect.flip(run("createBrowserSession", { profileId: unknown }))).toMatchObject({ _tag: "NotFound", message: "Profile not found" })
      expect(yield* Effect.flip(run("deleteProfile", { profileId: unknown }))).toMatchObject({ _tag: "NotFound", message: "Profile not found" })
    }))
})

describe("simulator: /browsers, /profiles and /billing/account on the wire", () => {
  it("422 lists, 403 past 4 hours, 429 past the concurrency limit, 404 unknown ids", async () => {
    expect(await api("POST", "/browsers", { timeout: 0, browserScreenWidth: 100, customProxy: { host: "" } })).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["body", "timeout"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" },
          { loc: ["body", "browserScreenWidth"], msg: "Input should be greater than or equal to 320", type: "greater_than_equal" },
          { loc: ["body", "customProxy", "host"], msg: "String should have at least 1 character", type: "string_too_short" },
          { loc: ["body", "customProxy", "port"], msg: "Field required", type: "missing" }
        ]
      }
    })
    expect(await api("POST", "/browsers", { timeout: 241 })).toEqual({ status: 403, body: { detail: "Maximum session timeout is 4 hours (240 minutes)." } })
    expect((await api("PATCH", `/browsers/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`, { action: "pause" })).body.detail[0]).toMatchObject({ loc: ["body", "action"], type: "enum" })
    expect((await api("GET", "/browsers?filterBy=paused")).status).toBe(422)
    expect((await api("GET", "/browsers/not-a-uuid")).body.detail[0]).toMatchObject({ loc: ["path", "session_id"], type: "uuid_parsing" })
    expect(await api("GET", "/profiles/00000000-0000-4000-8000-000000000001")).toEqual({ status: 404, body: { detail: "Profile not found" } })

    const limit = sim.failures.maxConcurrentSessions
    sim.failures.maxConcurrentSessions = [...sim.browsers.browsers.values()].filter((b) => b.stoppedAt === null).length + 1
    try {
      expect((await api("POST", "/browsers", {})).status).toBe(201)
      expect(await api("POST", "/browsers", {})).toEqual({
        status: 429,
        body: { detail: "Too many concurrent active sessions. Please wait for one to finish, kill one, or upgrade your plan." }
      })
      expect((await api("GET", "/billing/account")).body.rateLimit).toBe(sim.failures.maxConcurrentSessions)
    } finally {
      sim.failures.maxConcurrentSessions = limit
    }
  })

  it("profiles: created (201), searched by name or user id, updated field by field, deleted (204)", async () => {
    const a = (await api("POST", "/profiles", { name: "Searchable Bob", userId: "crm-77" })).body
    const b = (await api("POST", "/profiles")).body
    expect(b).toMatchObject({ name: null, userId: null, cookieDomains: [] })
    expect((await api("GET", "/profiles?query=crm-7")).body).toMatchObject({ items: [{ id: a.id }], totalItems: 1, pageNumber: 1, pageSize: 10 })
    expect((await api("GET", "/profiles?query=searchable")).body.items.map((p: { id: string }) => p.id)).toEqual([a.id])
    expect((await api("PATCH", `/profiles/${a.id}`, { userId: null })).body).toMatchObject({ name: "Searchable Bob", userId: null })
    expect((await api("DELETE", `/profiles/${b.id}`)).status).toBe(204)
    expect((await api("GET", `/profiles/${b.id}`)).status).toBe(404)
  })
})

describe("browseragent account against the simulator", () => {
  it.effect("getAccount: the simulator's balances and plan, its concurrency limit as the rate limit; 0 credits when they run out", () =>
    Effect.gen(function*() {
      sim.failures.maxConcurrentSessions = 7
      expect(yield* run("getAccount", {})).toEqual({
        name: "Simulated account",
        projectId: sim.account.projectId,
        totalCreditsBalanceUsd: 35.5,
        monthlyCreditsBalanceUsd: 25,
        additionalCreditsBalanceUsd: 10.5,
        rateLimit: 7,
        isFreeTier: false,
        plan: { name: "Starter", subscriptionStatus: "active", subscriptionId: "sub_1SimulatedStarter", currentPeriodEnd: "2099-01-01T00:00:00Z", canceledAt: null }
      })
      sim.failures.insufficientCredits = true
      try {
        expect(yield* run("getAccount", {})).toMatchObject({ totalCreditsBalanceUsd: 0, monthlyCreditsBalanceUsd: 0 })
      } finally {
        sim.failures.insufficientCredits = false
        sim.failures.maxConcurrentSessions = 25
      }
    }))
})
