/**
 * `serve` of browseragent's polling trigger `sessionFinished`, against a Browser Use simulator
 * in this process: the baseline, then a session that ends runs the workflow once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Simulator from "@x/browseragent/testing"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { served } from "./bin.js"

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ stepMs: 50 })
})
afterAll(() => sim.close())

const post = (body: unknown) =>
  fetch(`${sim.baseUrl}/sessions`, { method: "POST", headers: { "x-browser-use-api-key": sim.apiKey, "content-type": "application/json" }, body: JSON.stringify(body) })
    .then((r) => r.json() as Promise<{ id: string }>)

describe("x-runner serve, browseragent's sessionFinished", () => {
  it("baseline first (a session already ended does not run); a session that ends runs the workflow once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-session-finished-"))
    const workflow = join(dir, "finished.json")
    writeFileSync(workflow, JSON.stringify({
      label: "On a finished session",
      triggers: [{ label: "Finished", name: "finished", type: "browseragent/v1/sessionFinished", parameters: {} }],
      tasks: [{ label: "Read it", name: "read", type: "browseragent/v1/getSession", parameters: { sessionId: "${trigger.id}" } }]
    }))
    const before = await post({ task: "Ended before" })
    // Ended (its steps come every 50 ms) before serve starts: seen ended, not waited for.
    const status = () =>
      fetch(`${sim.baseUrl}/sessions/${before.id}`, { headers: { "x-browser-use-api-key": sim.apiKey } }).then((r) => r.json() as Promise<{ status: string }>)
    while ((await status()).status !== "stopped") await new Promise((resolve) => setTimeout(resolve, 20))
    const env = { XRUNNER_BROWSERAGENT_VALUE: sim.apiKey, XRUNNER_BROWSERAGENT_BASE_URL: sim.baseUrl }
    const serving = served(["serve", workflow, "--poll-interval", "200 millis", "--data-dir", join(dir, "data")], env)
    try {
      await serving.waitFor("● polling browseragent/v1/sessionFinished every 200ms")
      await serving.waitFor("○ baseline set")
      const session = await post({ task: "Ends while served" })
      await serving.waitFor(`■ event ${session.id}/stopped/`)
      await serving.waitFor("· polled: 0 new events", 2)
      expect(serving.log()).toContain("✔ read succeeded")
      expect(serving.log().split("▶ event ").length - 1).toBe(1)
      expect(serving.log()).not.toContain(before.id)
      expect(serving.log()).not.toContain(sim.apiKey)
    } finally {
      serving.child.kill("SIGTERM")
      await serving.exited
    }
  })
})
