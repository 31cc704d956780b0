/**
 * `serve` of the HTTP trigger (`http/v1/request`) through the bin: no anonymous start (a
 * workflow whose http connection has no credential is refused at start, exit 2), a missing or
 * wrong token answered 401 and a body that fails the trigger's JSON Schema answered 400 naming
 * the place, with nothing recorded; an accepted body 202 with its run's id, run once; a
 * repeated `Idempotency-Key` the same run; `respond: "whenDone"` answering the run's outputs
 * (a failed run 500, one still going at the time limit 202); an HMAC signature of the body
 * instead of a token.
 */
import { describe, expect, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, runner, runsOf, served } from "./bin.js"

const example = fileURLToPath(new URL("../examples/http-request.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-http-"))

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })

/**
 * A workflow that needs no provider: its one task waits until a time long past (done at once),
 * or until the time its request's body gives (`until`).
 */
const waitingWorkflow = (name: string, parameters: Record<string, unknown>, until = "timestamp('2000-01-01T00:00:00Z')", into = dir) => {
  const file = join(into, `${name}.json`)
  writeFileSync(file, JSON.stringify({
    label: "Started by an HTTP request",
    triggers: [{ label: "A request", name: "request", type: "http/v1/request", parameters }],
    tasks: [{ label: "Until a time", name: "due", until }]
  }))
  return file
}

describe("x-runner serve, the HTTP trigger", () => {
  it("refuses to start without a token or an HMAC secret in the http connection (exit 2), --allow-unsigned-deliveries too", async () => {
    const workflow = waitingWorkflow("anonymous", {})
    const connections = join(dir, "empty-connections.json")
    writeFileSync(connections, "{}", { mode: 0o600 })
    for (const extra of [[], ["--allow-unsigned-deliveries"]]) {
      const outcome = await runner([
        "serve", workflow, "--connections", connections, "--data-dir", join(dir, "anonymous"),
        "--public-url", `http://127.0.0.1:${await freePort()}/hooks/anonymous`, ...extra
      ])
      expect(outcome.code, outcome.stderr).toBe(2)
      expect(outcome.stderr).toContain(`http/v1/request accepts only authenticated requests: the http connection has neither a "token" nor an "hmacSecret"`)
    }
  })

  it("a schema that does not compile, or passing on the credential's header, is refused when the file is checked (exit 2, at its parameter)", async () => {
    const workflow = waitingWorkflow("bad-schema", { schema: { type: "object", properties: { email: { type: "text" } } }, headers: ["User-Agent", "Authorization"] })
    const outcome = await runner(["serve", workflow, "--sandbox", "--data-dir", join(dir, "bad-schema"), "--public-url", `http://127.0.0.1:${await freePort()}/hooks/bad`])
    expect(outcome.code, outcome.stderr).toBe(2)
    expect(outcome.stderr).toContain("triggers[0].parameters.schema: is not a JSON Schema")
    expect(outcome.stderr).toContain("triggers[0].parameters.headers[1]: carries the request's credential: it is never passed on")
  })

  it("the example on the sandbox: 401 without or with a wrong token and 400 for a body failing the schema, nothing recorded; " +
    "202 with the run's id and one run; a repeated Idempotency-Key is that run", async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/hooks/http-request`
    const dataDir = join(dir, "example")
    const server = served(["serve", example, "--sandbox", "--data-dir", dataDir, "--public-url", url])
    try {
      await server.waitFor("● serving http/v1/request")
      expect(server.log()).toContain("Authorization: Bearer sandbox-http-token")
      const good = JSON.stringify({ email: "ada@example.com", name: "Ada" })
      const bearer = { authorization: "Bearer sandbox-http-token" }

      expect((await post(url, good)).status).toBe(401)
      expect((await post(url, good, { authorization: "Bearer sandbox-http-tokeX" })).status).toBe(401)
      const noEmail = await post(url, JSON.stringify({ name: "Ada" }), bearer)
      expect(noEmail.status).toBe(400)
      expect(await noEmail.text()).toBe("body.email: is required")
      const shortEmail = await post(url, JSON.stringify({ email: 42 }), bearer)
      expect(shortEmail.status).toBe(400)
      expect(await shortEmail.text()).toContain("body.email: must be string")
      const longKey = await post(url, good, { ...bearer, "idempotency-key": "k".repeat(201) })
      expect([longKey.status, await longKey.text()]).toEqual([400, "Idempotency-Key: is longer than 200 characters"])
      expect(await runsOf({ dataDir })).toEqual([])

      const accepted = await post(url, good, { ...bearer, "user-agent": "signup-form/1" })
      expect(accepted.status).toBe(202)
      const { runId } = await accepted.json() as { runId: string }
      await server.waitFor(`■ event request:`)
      const keyed = await Promise.all([1, 2, 3].map(() => post(url, good, { ...bearer, "idempotency-key": "signup-7" })))
      expect(keyed.map((response) => response.status)).toEqual([202, 202, 202])
      const keyedIds = new Set(await Promise.all(keyed.map(async (response) => (await response.json() as { runId: string }).runId)))
      expect(keyedIds.size).toBe(1)
      await server.waitFor("■ event key:signup-7 succeeded")

      const runs = await runsOf({ dataDir })
      expect(runs.map((run) => ({ id: run.id, status: run.status })).sort((a, b) => a.id.localeCompare(b.id)))
        .toEqual([{ id: runId, status: "succeeded" }, { id: [...keyedIds][0]!, status: "succeeded" }].sort((a, b) => a.id.localeCompare(b.id)))
      const shown = JSON.parse((await runner(["runs", "show", runId, "--data-dir", dataDir, "--output", "json"])).stdout)
      expect(shown.trigger).toEqual({ body: { email: "ada@example.com", name: "Ada" }, headers: { "user-agent": "signup-form/1" } })
      expect(shown.steps).toMatchObject([{ name: "card", status: "succeeded", output: { name: "Welcome ada@example.com" } }])
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })

  it("an HMAC signature of the body instead of a token; respond: whenDone answers the run's outputs", async () => {
    const secret = "a-test-hmac-secret"
    const connections = join(dir, "hmac-connections.json")
    writeFileSync(connections, JSON.stringify({ http: { hmacSecret: secret } }), { mode: 0o600 })
    const workflow = waitingWorkflow("when-done", { respond: "whenDone", timeoutSeconds: 120 })
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/hooks/when-done`
    const dataDir = join(dir, "when-done")
    const server = served(["serve", workflow, "--connections", connections, "--data-dir", dataDir, "--public-url", url])
    try {
      await server.waitFor("● serving http/v1/request")
      const body = JSON.stringify({ hello: "world" })
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
      // Unsigned, signed over another body, or a bearer token (none is set): refused.
      expect((await post(url, body)).status).toBe(401)
      expect((await post(url, body, { "x-signature-256": `sha256=${createHmac("sha256", secret).update("{}").digest("hex")}` })).status).toBe(401)
      expect((await post(url, body, { authorization: `Bearer ${secret}` })).status).toBe(401)
      expect(await runsOf({ dataDir })).toEqual([])

      const done = await post(url, body, { "x-signature-256": signature })
      expect(done.status).toBe(200)
      const answer = await done.json() as { runId: string; status: string; outputs: Record<string, unknown> }
      expect(answer).toEqual({ runId: expect.any(String), status: "succeeded", outputs: { due: { until: "2000-01-01T00:00:00.000Z" } } })
      const runs = await runsOf({ dataDir })
      expect(runs.map((run) => ({ id: run.id, status: run.status }))).toEqual([{ id: answer.runId, status: "succeeded" }])
      expect(server.log()).not.toContain(secret)
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })

  it("respond: whenDone answers a failed run 500 with its failed step, and a run still going at the time limit 202 with its id", async () => {
    const directory = join(dir, "served")
    mkdirSync(directory)
    // The wait's time from the body: not a time fails the run; a year ahead is still going at the 1 s limit.
    waitingWorkflow("fails", { respond: "whenDone", timeoutSeconds: 120 }, "timestamp(trigger.body.until)", directory)
    waitingWorkflow("slow", { respond: "whenDone", timeoutSeconds: 1 }, "timestamp(trigger.body.until)", directory)
    const connections = join(dir, "token-connections.json")
    writeFileSync(connections, JSON.stringify({ http: { token: "a-test-token" } }), { mode: 0o600 })
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/hooks`
    const dataDir = join(dir, "served-data")
    const server = served(["serve", directory, "--connections", connections, "--data-dir", dataDir, "--public-url", base])
    try {
      await server.waitFor("● serving http/v1/request", 2)
      const bearer = { authorization: "Bearer a-test-token" }
      const failed = await post(`${base}/fails`, JSON.stringify({ until: "not a time" }), bearer)
      expect(failed.status).toBe(500)
      expect(await failed.json()).toMatchObject({ status: "failed", failedStep: "due", outputs: {} })
      const slow = await post(`${base}/slow`, JSON.stringify({ until: new Date(Date.now() + 365 * 86_400_000).toISOString() }), bearer)
      expect(slow.status).toBe(202)
      const { runId } = await slow.json() as { runId: string }
      expect((await runsOf({ dataDir }, "--workflow", "slow")).map((run) => ({ id: run.id, finished: run.finishedAt }))).toEqual([{ id: runId, finished: null }])
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })
})
