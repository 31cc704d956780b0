/**
 * Every request browseragent can send (each action, options list and trigger, run against the
 * simulator) checked against Browser Use's published v3 document (../shared/specs): method,
 * path, parameters, body. A new action or trigger without a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import * as Effect from "effect/Effect"
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
  it.effect("each action, options list and trigger sends only operations, parameters and bodies the document has", () =>
    Effect.gen(function*() {
      const contract = Contract.load(specPath)
      const recorder = Contract.recording(FetchHttpClient.layer)
      const workspace = () => [...sim.workspaces.keys()][0]
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
          // sessions
          listSessions: { limit: 5 },
          listSessionMessages: () => ({ sessionId: [...sim.sessions.keys()][0], limit: 50 }),
          deleteSession: () => ({ sessionId: [...sim.sessions.keys()][0] }),
          customAction: { method: "GET", path: "/sessions", query: { page_size: 10 } }
        },
        triggers: { taskStatusChanged: { statuses: ["idle", "stopped"] } }
      }, "http://127.0.0.1:1/unused").pipe(
        Effect.provide(connectedTo({ key: "X-Browser-Use-API-Key", value: sim.apiKey, webhookSecret: sim.webhookSecret, baseUrl: sim.baseUrl }, recorder.layer))
      )
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(2)
      // The presigned upload and download URLs are storage's, not the API's: outside the document.
      const [api, storage] = [recorder.requests.filter((r) => r.url.startsWith(sim.baseUrl)), recorder.requests.filter((r) => !r.url.startsWith(sim.baseUrl))]
      expect(storage.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        expect.stringMatching(/^PUT \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/),
        expect.stringMatching(/^GET \/storage\/workspaces\/[^/]+\/uploads\/data\.csv$/)
      ])
      expect(api.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
    }))
})
