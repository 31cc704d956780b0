/** The session actions end to end through the executor on the simulator, and its sessions' wire: options validated, messages' cursors, deletion. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
/** The simulator's clock: the real one, unless a test holds it (to see a task part-way, however slow the machine). */
let held: number | undefined
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 40, stepsPerTask: 3, now: () => held ?? Date.now() })
})
afterAll(() => sim.close())

const { options, run } = kit.connected(() => simulatorConnection(sim))
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { "x-browser-use-api-key": sim.apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as any }
}
const PROFILE = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
const text = { format: "TEXT" }

describe("simulator: sessions", () => {
  it("RunTaskRequest's options are validated as Browser Use does: a 422 naming each field; unknown workspace or profile 404", async () => {
    const bad = await api("POST", "/sessions", {
      task: "t", proxyCountryCode: "US", maxCostUsd: "a lot", sensitiveData: { pin: 1234 }, profileId: "default", enableRecording: "yes", cacheScript: "auto"
    })
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: { loc: Array<string> }) => d.loc.join(".")).sort()).toEqual([
      "body.cacheScript", "body.enableRecording", "body.maxCostUsd", "body.profileId", "body.proxyCountryCode", "body.sensitiveData.pin"
    ])
    expect(bad.body.detail.find((d: { loc: Array<string> }) => d.loc[1] === "maxCostUsd")).toMatchObject({ type: "decimal_parsing" })
    expect((await api("POST", "/sessions", { task: "t", maxCostUsd: 0 })).body.detail[0]).toMatchObject({ loc: ["body", "maxCostUsd"], type: "greater_than" })
    expect((await api("POST", "/sessions", { task: "t", cacheScript: true })).body.detail[0]).toMatchObject({ loc: ["body", "cacheScript"], type: "value_error" })
    expect(await api("POST", "/sessions", { task: "t", workspaceId: "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c" })).toEqual({ status: 404, body: { detail: "Workspace not found" } })
    expect(await api("POST", "/sessions", { task: "t", profileId: PROFILE })).toEqual({ status: 404, body: { detail: "Profile not found" } })
    const created = await api("POST", "/sessions", { task: "t", proxyCountryCode: null, maxCostUsd: "2.50" })
    expect(created.body).toMatchObject({ proxyCountryCode: null, maxCostUsd: "2.5" })
  })

  it("messages: the task, a message per step, the answer; cursor paging after and before; 404 and 422", async () => {
    held = Date.now()
    const created = (await api("POST", "/sessions", { task: "Find the cheapest flight to Lisbon" })).body as { id: string }
    // 50 ms in (steps come every 40 ms): the task, and the agent's first step.
    held += 50
    const early = ((await api("GET", `/sessions/${created.id}/messages`)).body.messages as Array<{ role: string; type: string }>).map((m) => `${m.role} ${m.type}`)
    expect(early).toEqual(["human user_message", "ai browser_action"])
    // A second in: well past its 3 steps (the clock moved, not waited for).
    held += 1000
    const all = (await api("GET", `/sessions/${created.id}/messages?limit=100`)).body
    expect(all.hasMore).toBe(false)
    expect(all.messages.map((m: { role: string; type: string }) => `${m.role} ${m.type}`)).toEqual([
      "human user_message", "ai browser_action", "ai browser_action", "ai browser_action", "ai assistant_message"
    ])
    // The early read was the start of the same list: messages are only ever added.
    expect(all.messages.slice(0, early.length).map((m: { role: string; type: string }) => `${m.role} ${m.type}`)).toEqual(early)
    expect(all.messages[0]).toMatchObject({ sessionId: created.id, data: "Find the cheapest flight to Lisbon", hidden: false, screenshotUrl: null })
    expect(all.messages[4].data).toBe("Done: Find the cheapest flight to Lisbon")
    const ids = all.messages.map((m: { id: string }) => m.id)
    const first = (await api("GET", `/sessions/${created.id}/messages?limit=2`)).body
    expect({ ids: first.messages.map((m: { id: string }) => m.id), hasMore: first.hasMore }).toEqual({ ids: ids.slice(0, 2), hasMore: true })
    const next = (await api("GET", `/sessions/${created.id}/messages?limit=2&after=${ids[1]}`)).body
    expect(next.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 4))
    const last = (await api("GET", `/sessions/${created.id}/messages?limit=2&after=${ids[3]}`)).body
    expect({ ids: last.messages.map((m: { id: string }) => m.id), hasMore: last.hasMore }).toEqual({ ids: ids.slice(4), hasMore: false })
    const before = (await api("GET", `/sessions/${created.id}/messages?limit=2&before=${ids[3]}`)).body
    expect({ ids: before.messages.map((m: { id: string }) => m.id), hasMore: before.hasMore }).toEqual({ ids: ids.slice(1, 3), hasMore: true })
    expect((await api("GET", `/sessions/${created.id}/messages?limit=101`)).status).toBe(422)
    expect((await api("GET", `/sessions/${created.id}/messages?after=nope`)).body.detail[0]).toMatchObject({ loc: ["query", "after"], type: "uuid_parsing" })
    expect(await api("GET", "/sessions/5b0f3c2a-9d8e-4f7a-b6c5-000000000000/messages")).toEqual({ status: 404, body: { detail: "Session not found" } })
    held = undefined
  })

  it("delete: 204 (a running session too: stopped first), then 404 for it", async () => {
    const created = (await api("POST", "/sessions", { task: "Still running" })).body as { id: string }
    expect(await api("DELETE", `/sessions/${created.id}`)).toEqual({ status: 204, body: undefined })
    expect(await api("GET", `/sessions/${created.id}`)).toEqual({ status: 404, body: { detail: "Session not found" } })
    expect(await api("DELETE", `/sessions/${created.id}`)).toEqual({ status: 404, body: { detail: "Session not found" } })
    expect((await api("DELETE", "/sessions/not-a-uuid")).status).toBe(422)
  })
})

describe("browseragent session actions against the simulator", () => {
  it.live("createSession with a profile, workspace, proxy, cost cap and recording; listSessions; listSessionMessages; deleteSession", () =>
    Effect.gen(function*() {
      sim.profiles.set(PROFILE, { id: PROFILE, name: "Customer 42", userId: "42", createdAt: Date.parse("2026-11-01T10:00:00Z"), updatedAt: Date.parse("2026-11-01T10:00:00Z"), lastUsedAt: null, cookieDomains: [] })
      const workspace = (yield* run("createWorkspace", { name: "Invoices" })) as { id: string }
      const profiles = yield* options("createSession", "profileId", {})
      expect(profiles).toEqual([{ label: "Customer 42", value: PROFILE }])

      const session = (yield* run("createSession", {
        task: "Download the March invoice",
        model: "modelfamilyA-sonnet-4.6",
        outputSchema: text,
        profileId: PROFILE,
        workspaceId: workspace.id,
        proxyCountryCode: "de",
        maxCostUsd: 2,
        enableRecording: true,
        sensitiveData: { password: "hunter2" },
        waitForCompletion: true,
        timeoutSeconds: 30
      })) as Record<string, unknown>
      expect(session).toMatchObject({ status: "stopped", profileId: PROFILE, workspaceId: workspace.id, proxyCountryCode: "de", maxCostUsd: "2", output: "Done: Download the March invoice" })
      expect(session["recordingUrls"]).toHaveLength(1)
      // Not recorded unless asked.
      const unrecorded = (yield* run("createSession", { task: "No video", model: "modelfamilyA-sonnet-4.6", outputSchema: text, waitForCompletion: true })) as { recordingUrls: Array<string> }
      expect(unrecorded.recordingUrls).toEqual([])

      const listed = (yield* run("listSessions", { limit: 500 })) as { sessions: Array<{ id: string }> }
      expect(listed.sessions.map((s) => s.id)).toEqual([...sim.sessions.values()].sort((a, b) => b.createdAt - a.createdAt).map((s) => s.id))
      expect(((yield* run("listSessions", { limit: 1 })) as { sessions: ReadonlyArray<unknown> }).sessions).toHaveLength(1)

      const messages = (yield* run("listSessionMessages", { sessionId: session["id"] })) as { messages: Array<{ role: string; type: string; data: string }> }
      expect(messages.messages.map((m) => m.type)).toEqual(["user_message", "browser_action", "browser_action", "browser_action", "assistant_message"])
      expect(messages.messages.at(-1)?.data).toBe("Done: Download the March invoice")
      const two = (yield* run("listSessionMessages", { sessionId: session["id"], limit: 2 })) as { messages: ReadonlyArray<unknown> }
      expect(two.messages).toHaveLength(2)

      expect(yield* run("deleteSession", { sessionId: session["id"] })).toBeNull()
      expect(sim.sessions.has(String(session["id"]))).toBe(false)
      expect(yield* Effect.flip(run("getSession", { sessionId: session["id"] }))).toMatchObject({ _tag: "NotFound", message: "Session not found" })
    }))

  it.live("createSession: a bad option the simulator refuses comes back as the provider's 422 detail", () =>
    Effect.gen(function*() {
      // A cached script for a session without a workspace: the rule is ours too, so the error is an InvalidInput first.
      const ours = yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text, cacheScript: true }))
      expect(ours).toMatchObject({ _tag: "InvalidInput" })
      const unknownProfile = yield* Effect.flip(run("createSession", { task: "t", model: "modelfamilyA-sonnet-4.6", outputSchema: text, profileId: "1e0f9a8b-5e4f-4a3b-9c2d-9a8b7c6d1e0f" }))
      expect(unknownProfile).toMatchObject({ _tag: "NotFound", message: "Profile not found" })
    }))
})
