/**
 * Every request browseragent can send (each action, options list and trigger, run against the
 * simulator) checked against Browser Use's published v3 document (../shared/specs): method,
 * path, parameters, body. A new action or trigger without a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import * as Effect from "effect/Effect"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { browseragent } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor } from "./support.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/browseragent/browser-use-openapi-v3.json", import.meta.url))

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(existsSync(specPath))("every request browseragent sends, against browser-use-openapi-v3.json", () => {
  it.effect("each action, options list and trigger sends only operations, parameters and bodies the document has", () =>
    Effect.gen(function*() {
      const contract = Contract.load(specPath)
      const recorder = Contract.recording(FetchHttpClient.layer)
      const { missing } = yield* Contract.exercise(executor, browseragent, {
        actions: {
          createSession: {
            task: "Find the cheapest flight to Lisbon",
            model: "modelfamilyA-sonnet-4.6",
            keepAlive: true,
            outputSchema: { format: "JSON", schema: JSON.stringify({ type: "object", properties: { price: { type: "number" } } }) }
          },
          getSession: () => ({ sessionId: [...sim.sessions.keys()][0] }),
          customAction: { method: "GET", path: "/sessions", query: { page_size: 10 } }
        },
        triggers: { taskStatusChanged: { statuses: ["idle", "stopped"] } }
      }, "http://127.0.0.1:1/unused").pipe(
        Effect.provide(connectedTo({ key: "X-Browser-Use-API-Key", value: sim.apiKey, webhookSecret: sim.webhookSecret, baseUrl: sim.baseUrl }, recorder.layer))
      )
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(2)
      expect(recorder.requests.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
    }))
})
