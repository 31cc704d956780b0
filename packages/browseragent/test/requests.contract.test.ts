/**
 * Every request browseragent can send (each action, options list and trigger, run against the
 * simulator) checked against Browser Use's published v3 document (../shared/specs): method,
 * path, parameters, body. A new action or trigger without a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { browseragent } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/browseragent/browser-use-openapi-v3.json", import.meta.url))

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
describe.runIf(existsSync(specPath))("every request browseragent sends, against browser-use-openapi-v3.json", () => {
  // Live: runTask polls the simulator's sessions on real time.
  it.live("each action, options list and trigger sends only operations, parameters and bodies the document has", () =>
    Effect.gen(function*() {
      const contract = Contract.load(specPath)
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
          deleteSession: () => ({ sessionId: [...sim.sessions.keys()][0] })
        },
        triggers: { taskStatusChanged: { statuses: ["idle", "stopped"] }, sessionFinished: { statuses: ["stopped", "error"] } }
      }, "http://127.0.0.1:1/unused").pipe(
        Effect.provide(connectedTo({ key: "X-Browser-Use-API-Key", value: sim.apiKey, webhookSecret: sim.webhookSecret, baseUrl: sim.baseUrl }, recorder.layer))
      )
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(2)
      // The presigned upload and download URLs are storage's, not the API's: outside the document.
      const [api, storage] = [recorder.requests.filter((r) => r.url.startsWith(sim.baseUrl)), recorder.requests.filter((r) => !r.url.startsWith(sim.baseUrl))]
      expect(storage.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/),
        expect.stringMatching(/^GET \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/),
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/more\/one\.txt$/),
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/more\/two\.txt$/),
        expect.stringMatching(/^GET \/storage\/downloads\/sessions\/[^/]+\/example\.txt$/)
      ])
      expect(api.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
    }), 60_000)
})
