/**
 * Every request browseragent can send (each action, options list and trigger, run against the
 * simulator) checked against Browser Use's published documents (../shared/specs): the V3 one
 * for what goes below the connection's base URL (`/api/v3`), the V4 one for what goes below
 * V4's beside it (`/api/v4`): method, path, parameters, body. A new action or trigger without
 * a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { browseragent } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/browseragent/browser-use-openapi-v3.json", import.meta.url))
const v4SpecPath = fileURLToPath(new URL("../../../../shared/specs/browseragent/browser-use-openapi-v4.json", import.meta.url))

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
const dir = mkdtempSync(join(tmpdir(), "browseragent-contract-"))
afterAll(async () => {
  await sim.close()
  rmSync(dir, { recursive: true, force: true })
})

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(Contract.documentsPresent([specPath, v4SpecPath]))("every request browseragent sends, against browser-use-openapi-v3.json and -v4.json", () => {
  // Live: runTask polls the simulator's sessions on real time.
  it.live("each action, options list and trigger sends only operations, parameters and bodies the document has", () =>
    Effect.gen(function*() {
      const contract = Contract.load(specPath)
      const v4Contract = Contract.load(v4SpecPath)
      const run = () => [...sim.runs.runs.values()].at(-1)!.id
      const runSession = () => [...sim.runs.sessions.keys()][0]
      const recorder = Contract.recording(FetchHttpClient.layer)
      const workspace = () => [...sim.workspaces.keys()][0]
      const browser = () => [...sim.browsers.browsers.keys()][0]
      // A profile the account already has, for the browser session to start with.
      const accountProfile = () => {
        const id = "0c9e7a52-4d1b-4f3a-9b8e-6a2d5c7f1e04"
        sim.profiles.set(id, { id, name: "Existing", userId: null, lastUsedAt: null, createdAt: Date.now(), updatedAt: Date.now(), cookieDomains: [] })
        return id
      }
      const { missing } = yield* Contract.exercise(executor, browseragent, {
        actions: {
          createSession: {
            task: "Find the cheapest flight to Lisbon",
            model: "modelfamilyA-sonnet-4.6",
            keepAlive: true,
            proxyCountryCode: "de",
            maxCostUsd: 2.5,
            sensitiveData: { password: "hunter2" },
            enableRecording: true,
            agentmail: false,
            codeMode: false,
            cacheScript: false,
            autoHeal: true,
            useOwnKey: false,
            outputSchema: { format: "JSON", schema: JSON.stringify({ type: "object", properties: { price: { type: "number" } } }) }
          },
          getSession: () => ({ sessionId: [...sim.sessions.keys()][0] }),
          createWorkspace: { name: "Contract" },
          listWorkspaces: { limit: 5 },
          listWorkspaceFiles: () => ({ workspaceId: workspace(), prefix: "uploads/" }),
          uploadWorkspaceFile: () => ({ workspaceId: workspace(), file: { base64: Buffer.from("a,b\n1,2\n").toString("base64"), name: "data.csv" }, prefix: "uploads/" }),
          downloadWorkspaceFile: () => ({ workspaceId: workspace(), path: "uploads/data.csv", to: join(dir, "data.csv") }),
          customAction: { method: "GET", path: "/sessions", query: { page_size: 10 } },
          // workspaces
          getWorkspace: () => ({ workspaceId: workspace() }),
          updateWorkspace: () => ({ workspaceId: workspace(), name: "Contract, renamed" }),
          getWorkspaceSize: () => ({ workspaceId: workspace() }),
          uploadWorkspaceFiles: () => ({ workspaceId: workspace(), files: [{ base64: "aGk=", name: "one.txt" }, { base64: "aG8=", name: "two.txt" }], prefix: "more/" }),
          deleteWorkspaceFile: () => ({ workspaceId: workspace(), path: "more/one.txt" }),
          // A workspace of its own: the cases above share the first one.
          deleteWorkspace: () => {
            const doomed = { id: randomUUID(), name: "To delete", createdAt: Date.now(), updatedAt: Date.now() }
            sim.workspaces.set(doomed.id, doomed)
            return { workspaceId: doomed.id }
          },
          // run
          runTask: {
            task: "Find the cheapest flight to Porto",
            model: "modelfamilyB-5.4-mini",
            outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
            timeoutSeconds: 30
          },
          stopSession: () => ({ sessionId: [...sim.sessions.keys()][0], strategy: "task" }),
          // browsers
          createBrowserSession: () => ({
            profileId: accountProfile(),
            proxyCountryCode: "de",
            timeoutMinutes: 30,
            screenWidth: 1280,
            screenHeight: 800,
            allowResizing: false,
            customProxy: { host: "proxy.example.com", port: 8080, username: "user", password: "secret", ignoreCertErrors: true },
            enableRecording: true
          }),
          getBrowserSession: () => ({ sessionId: browser() }),
          listBrowserSessions: { status: "active", limit: 5 },
          stopBrowserSession: () => ({ sessionId: browser() }),
          listBrowserDownloads: () => ({ sessionId: browser(), limit: 5 }),
          downloadBrowserFile: () => ({ sessionId: browser(), path: "example.txt", to: join(dir, "example.txt") }),
          createProfile: { name: "Contract", userId: "user-42" },
          getProfile: () => ({ profileId: [...sim.profiles.keys()].at(-1) }),
          listProfiles: { search: "contract", limit: 5 },
          updateProfile: () => ({ profileId: [...sim.profiles.keys()].at(-1), name: "Contract renamed", userId: "user-43" }),
          deleteProfile: () => ({ profileId: [...sim.profiles.keys()].at(-1) }),
          getAccount: {},
          // sessions
          listSessions: { limit: 5 },
          listSessionMessages: () => ({ sessionId: [...sim.sessions.keys()][0], limit: 50 }),
          deleteSession: () => ({ sessionId: [...sim.sessions.keys()][0] }),
          // V4 runs and sessions
          createRun: () => ({
            task: "Find the cheapest flight to Faro",
            model: "modelfamilyC-3.1-pro",
            workspaceId: workspace(),
            profileId: accountProfile(),
            proxyCountryCode: "pt",
            customProxy: { host: "proxy.example.com", port: 8080, username: "user", password: "secret", ignoreCertErrors: true },
            screenWidth: 1280,
            screenHeight: 800,
            record: true,
            attachedFileIds: [sim.runs.upload("data.csv", "text/csv", 12)],
            judge: true,
            judgeContext: "The cheapest fare wins",
            maxCostUsd: 1.5
          }),
          runAndWait: {
            task: "Find the cheapest flight to Madeira",
            model: "modelfamilyA-opus-5",
            proxyCountryCode: "none",
            outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
            timeoutSeconds: 30
          },
          getRun: () => ({ runId: run() }),
          getRunStatus: () => ({ runId: run() }),
          listRunEvents: () => ({ runId: run(), limit: 500 }),
          listRunAttachments: () => ({ runId: run() }),
          listRuns: () => ({ sessionId: runSession(), limit: 5 }),
          sendSessionMessage: () => ({ sessionId: runSession(), text: "And the return flight?", interrupt: false, attachedFileIds: [sim.runs.upload("notes.txt", "text/plain", 5)] }),
          listSessionQueue: () => ({ sessionId: runSession() }),
          // A message still waiting: behind a run that has just begun.
          removeQueuedMessage: () => {
            const session = [...sim.runs.sessions.values()][0]!
            const now = Date.now()
            const busy = { id: randomUUID(), sessionId: session.id, task: "Busy", model: "minimax-m3", createdAt: now, startedAt: now, attachedFileIds: [], judge: false, fails: false, cancelledAt: undefined }
            sim.runs.runs.set(busy.id, busy)
            session.runs.push(busy)
            session.queue.push({ id: 1000, sessionId: session.id, runId: null, status: "pending", text: "Later", attachedFileIds: null, createdAt: now })
            return { sessionId: session.id, messageId: 1000 }
          },
          listRunSessions: { limit: 5 },
          cancelRun: () => ({ runId: run() })
        },
        triggers: { taskStatusChanged: { statuses: ["idle", "stopped"] }, sessionFinished: { statuses: ["stopped", "error"] } }
      }, "http://127.0.0.1:1/unused").pipe(
        Effect.provide(connectedTo({ key: "X-Browser-Use-API-Key", value: sim.apiKey, webhookSecret: sim.webhookSecret, baseUrl: sim.baseUrl }, recorder.layer))
      )
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(2)
      // The presigned upload and download URLs are storage's, not the API's: outside the documents.
      const below = (base: string) => (r: { url: string }) => r.url.startsWith(`${base}/`) || r.url.startsWith(`${base}?`)
      const [api, v4, storage] = [
        recorder.requests.filter(below(sim.baseUrl)),
        recorder.requests.filter(below(sim.v4BaseUrl)),
        recorder.requests.filter((r) => !below(sim.baseUrl)(r) && !below(sim.v4BaseUrl)(r))
      ]
      expect(storage.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/),
        expect.stringMatching(/^GET \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/),
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/more\/one\.txt$/),
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/more\/two\.txt$/),
        expect.stringMatching(/^GET \/storage\/downloads\/sessions\/[^/]+\/example\.txt$/)
      ])
      expect(api.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
      // Every V4 action was sent, and each request is one the V4 document has.
      expect(new Set(v4.map((request) => v4Contract.operationOf(request, sim.v4BaseUrl)))).toEqual(new Set([
        "POST /runs", "GET /runs", "GET /runs/{run_id}", "GET /runs/{run_id}/status", "GET /runs/{run_id}/events",
        "GET /runs/{run_id}/attachments", "POST /runs/{run_id}/cancel", "GET /sessions", "POST /sessions/{session_id}/queue",
        "GET /sessions/{session_id}/queue", "DELETE /sessions/{session_id}/queue/{message_id}"
      ]))
      expect(v4.flatMap((request) => v4Contract.check(request, sim.v4BaseUrl))).toEqual([])
      // Which operations each action and trigger sent, as operations.json has them (REFERENCE.md shows them).
      const sent = Contract.operationsSent(recorder.requests, (request) =>
        below(sim.baseUrl)(request)
          ? contract.operationOf(request, sim.baseUrl)
          : below(sim.v4BaseUrl)(request)
          ? `${v4Contract.operationOf(request, sim.v4BaseUrl)} (V4)`
          : `${request.method} (a presigned storage URL)`)
      expect(Contract.compareOperations(fileURLToPath(new URL("operations.json", import.meta.url)), sent)).toEqual([])
    }))
})
