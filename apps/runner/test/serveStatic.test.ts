import { describe, expect, it } from "@effect/vitest"
import * as Simulator from "@x/browseragent/testing"
import { Webhook } from "@x/core"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, runner, runsOf, served } from "./bin.js"

// A static webhook: Browser Use's task-status trigger, its URL "pasted in the dashboard" by the test.
const workflow = fileURLToPath(new URL("../examples/task-status.json", import.meta.url))



const post = (url: string, body: unknown, secret: string, at = Math.floor(Date.now() / 1000)) => {
  const timestamp = String(at)
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-browser-use-timestamp": timestamp,
      "x-browser-use-signature": Webhook.hmacSha256SortedJsonHex(Redacted.make(secret), timestamp, body)
    },
    body: JSON.stringify(body)
  })
}

describe("x-runner serve: a static webhook", () => {
  it("describe shows the trigger's kind and where its URL goes", async () => {
    const described = JSON.parse((await runner(["describe", "browseragent/v1"])).stdout)
    expect(described.triggers).toMatchObject([
      { name: "sessionFinished", kind: "POLLING" },
      { name: "taskStatusChanged", kind: "STATIC_WEBHOOK", setup: expect.stringContaining("cloud.browser-use.com/settings?tab=webhooks") }
    ])
    expect(Object.keys(described.connection.props)).toContain("webhookSecret")
  })

  it("prints the URL to paste, runs each signed delivery once; forged, stale and oversize ones run nothing", async () => {
    const sim = await Simulator.start({ stepMs: 40, stepsPerTask: 2 })
    try {
      const dir = mkdtempSync(join(tmpdir(), "x-runner-static-"))
      const connections = join(dir, "connections.json")
      writeFileSync(connections, JSON.stringify({ browseragent: { value: sim.apiKey, baseUrl: sim.baseUrl, webhookSecret: sim.webhookSecret } }), { mode: 0o600 })
      const port = await freePort()
      const publicUrl = `http://127.0.0.1:${port}/hooks/browser-use`
      const dataDir = join(dir, "data")
      const { child, exited, log: logOf, waitFor } = served(["serve", workflow, "--connections", connections, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir])

      await waitFor("● serving browseragent/v1/taskStatusChanged")
      expect(logOf()).toContain(`☛ paste ${publicUrl} as the webhook URL at the provider: Add the URL as a webhook at https://cloud.browser-use.com/settings?tab=webhooks`)
      // Nothing was enabled, so nothing is kept for a restart to remove.
      expect(logOf()).not.toMatch(/trigger enabled|is kept/)

      // The dashboard's step: its test ping must be answered 2xx.
      await sim.configureWebhook(publicUrl)
      // A task that ends: the simulator POSTs running (filtered out), then stopped.
      const created = await fetch(`${sim.baseUrl}/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-browser-use-api-key": sim.apiKey },
        body: JSON.stringify({ task: "Read the news" })
      }).then((r) => r.json() as Promise<{ id: string }>)
      await sim.idle()
      expect(sim.deliveries.map((d) => [d.body.type, d.status])).toEqual([["test", 200], ["agent.task.status_update", 200], ["agent.task.status_update", 200]])
      const stopped = sim.deliveries[2]!.body
      const id = `${stopped.payload["task_id"]}/stopped/${stopped.timestamp}`
      await waitFor(`■ event ${id} succeeded`)
      expect(logOf()).toContain("✔ session succeeded")
      expect(stopped.payload["session_id"]).toBe(created.id)

      // Resent (a new signing time, the same event): acknowledged, not run twice.
      expect((await post(publicUrl, stopped, sim.webhookSecret)).status).toBe(200)
      await waitFor(`= event ${id} was delivered again`)

      // Forged, stale, oversize: refused, nothing recorded or run.
      const other = { ...stopped, payload: { ...stopped.payload, task_id: "forged-task" } }
      expect((await post(publicUrl, other, "whsec_guessed")).status).toBe(401)
      expect((await post(publicUrl, other, sim.webhookSecret, Math.floor(Date.now() / 1000) - 400)).status).toBe(401)
      const big = { ...other, payload: { ...other.payload, metadata: { padding: "x".repeat(1024 * 1024) } } }
      expect((await post(publicUrl, big, sim.webhookSecret)).status).toBe(413)

      // Each was refused before anything was recorded (its answer says so): no run can follow.
      const runs = await runsOf({ dataDir })
      expect(runs.filter((run) => run.event === id).map((run) => run.status)).toEqual(["succeeded"])
      expect(runs.some((run) => run.event.startsWith("forged-task"))).toBe(false)
      expect(logOf().match(/▶ event/g)).toHaveLength(1)

      child.kill("SIGTERM")
      await exited
      expect(logOf()).not.toContain("trigger disabled")
      expect(logOf()).not.toContain(sim.webhookSecret)
    } finally {
      await sim.close()
    }
  })
})
