/**
 * Secrets at rest: a step's secret parameters (createSession's `sensitiveData`, the custom
 * action's `headers`) are sent to the provider as given, but never written to the runs'
 * database (its file, its WAL) nor shown by `runs show`, also when the provider echoes them in
 * an error; `runs retry` sends the real values again (they are taken from the workflow).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Simulator from "@x/browseragent/testing"
import { Webhook } from "@x/core"
import * as Redacted from "effect/Redacted"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runner, runsOf, served } from "./bin.js"

const password = "hunter2-sensitive-Value-1"
const otp = "otp-sensitive-Value-2"
const header = "custom-header-Secret-3"
const secrets = [password, otp, header]

interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** The simulator behind a recording proxy: what the runner sent, and the first create refused with its password echoed. */
const recordingProxy = async (target: string) => {
  const seen: Array<Seen> = []
  let refused = false
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8")
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body })
      if (req.method === "POST" && req.url!.endsWith("/sessions") && !refused) {
        refused = true
        res.writeHead(400, { "content-type": "application/json" })
        return res.end(JSON.stringify({ detail: `the site refused the password ${password}` }))
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== "host" && name !== "content-length")) as Record<string, string>
      const answer = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(body === "" ? {} : { body }) })
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
      res.end(Buffer.from(await answer.arrayBuffer()))
    })
  })
  // A real provider's idle timeout (as Loopback.listen's), not Node's 5 s, which a busy machine lets race the runner's next request.
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const signedDelivery = (url: string, secret: string, sessionId: string) => {
  const body = { type: "agent.task.status_update", timestamp: "2026-01-01T00:00:00Z", payload: { task_id: "task-9", session_id: sessionId, status: "stopped", metadata: {} } }
  const timestamp = String(Math.floor(Date.now() / 1000))
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

const holdsNoSecret = (label: string, text: string) => {
  for (const secret of secrets) expect(text.includes(secret), `${label} holds ${secret}`).toBe(false)
}

describe("secrets at rest", () => {
  it("describe shows the secret parameters: sensitiveData, the custom action's headers, a proxy's password", async () => {
    const described = JSON.parse((await runner(["describe", "browseragent/v1"])).stdout) as {
      actions: Array<{ name: string; props: Record<string, { secret?: boolean; properties?: Record<string, { secret?: boolean }> }> }>
    }
    const props = (name: string) => described.actions.find((action) => action.name === name)!.props
    expect(props("createSession")["sensitiveData"]!.secret).toBe(true)
    expect(props("customAction")["headers"]!.secret).toBe(true)
    expect(props("createBrowserSession")["customProxy"]!.properties!["password"]!.secret).toBe(true)
  })

  it("sensitiveData and custom headers reach the provider, never runs.db or runs show; runs retry sends them again", async () => {
    const sim = await Simulator.start({ stepMs: 40, stepsPerTask: 2 })
    const simOrigin = new URL(sim.baseUrl).origin
    const proxy = await recordingProxy(simOrigin)
    try {
      const dir = mkdtempSync(join(tmpdir(), "x-runner-secrets-"))
      const connections = join(dir, "connections.json")
      writeFileSync(connections, JSON.stringify({
        browseragent: { value: sim.apiKey, baseUrl: `${proxy.origin}${new URL(sim.baseUrl).pathname}`, webhookSecret: sim.webhookSecret }
      }), { mode: 0o600 })
      const workflow = join(dir, "login.json")
      writeFileSync(workflow, JSON.stringify({
        label: "Log in when a task ends",
        triggers: [{ label: "A task ended", name: "ended", type: "browseragent/v1/taskStatusChanged", parameters: {} }],
        tasks: [
          {
            label: "Log in",
            name: "login",
            type: "browseragent/v1/createSession",
            parameters: {
              task: "Log in with <secret>password</secret>",
              model: "modelfamilyA-sonnet-4.6",
              outputSchema: { format: "TEXT" },
              sensitiveData: { password, otp }
            }
          },
          {
            label: "Read it",
            name: "read",
            type: "browseragent/v1/customAction",
            parameters: { method: "GET", path: "/sessions/${login.id}", headers: { "X-Site-Token": header } }
          }
        ]
      }))
      const port = await freePort()
      const publicUrl = `http://127.0.0.1:${port}/hooks/ended`
      const dataDir = join(dir, "data")
      const { child, exited, log, waitFor } = served(["serve", workflow, "--connections", connections, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir])
      await waitFor("● serving browseragent/v1/taskStatusChanged")

      expect((await signedDelivery(publicUrl, sim.webhookSecret, "session-9")).status).toBe(200)
      await waitFor(/■ event \S+ failed/)
      const [run] = await runsOf({ dataDir })
      expect(run!.status).toBe("failed")

      // The provider's error echoed the password: scrubbed from the stored error.
      const failed = await runner(["runs", "show", run!.id, "--data-dir", dataDir])
      expect(failed.code).toBe(0)
      holdsNoSecret("runs show", failed.stdout + failed.stderr)
      expect(failed.stdout).toContain("the site refused the password [redacted]")

      const retried = await runner(["runs", "retry", run!.id, "--data-dir", dataDir])
      expect(retried.code).toBe(0)
      await waitFor(/■ event \S+ succeeded/)

      // What the provider got: the real values, on the first attempt and on the retry.
      const creates = proxy.seen.filter((r) => r.method === "POST" && r.path.endsWith("/sessions"))
      expect(creates).toHaveLength(2)
      for (const create of creates) expect(JSON.parse(create.body).sensitiveData).toEqual({ password, otp })
      const reads = proxy.seen.filter((r) => r.method === "GET" && r.headers["x-site-token"] !== undefined)
      expect(reads.map((r) => r.headers["x-site-token"])).toEqual([header])

      // What is kept: the names, never the values.
      const shown = await runner(["runs", "show", run!.id, "--data-dir", dataDir])
      const shownJson = await runner(["runs", "show", run!.id, "--data-dir", dataDir, "--output", "json"])
      holdsNoSecret("runs show", shown.stdout + shown.stderr)
      holdsNoSecret("runs show --output json", shownJson.stdout + shownJson.stderr)
      const steps = JSON.parse(shownJson.stdout).steps as Array<{ name: string; status: string; input: Record<string, unknown> }>
      expect(steps.map((s) => [s.name, s.status])).toEqual([["login", "succeeded"], ["read", "succeeded"]])
      expect(steps[0]!.input["sensitiveData"]).toEqual({ password: "[secret]", otp: "[secret]" })
      expect(steps[0]!.input["task"]).toBe("Log in with <secret>password</secret>")
      expect(steps[1]!.input["headers"]).toEqual({ "X-Site-Token": "[secret]" })

      const files = () => ["runs.db", "runs.db-wal", "runs.db-shm"].map((name) => join(dataDir, name)).filter(existsSync)
      for (const file of files()) holdsNoSecret(file, readFileSync(file).toString("latin1"))
      child.kill("SIGTERM")
      await exited
      for (const file of files()) holdsNoSecret(file, readFileSync(file).toString("latin1"))
      holdsNoSecret("serve's output", log())
    } finally {
      await proxy.close()
      await sim.close()
    }
  })
})
