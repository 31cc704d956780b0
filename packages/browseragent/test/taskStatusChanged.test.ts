import { afterAll, describe, expect, it } from "@effect/vitest"
import { type Trigger, Webhook } from "@x/core"
import { Loopback } from "@x/core/testing"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { createServer } from "node:http"
import * as Simulator from "../src/testing/simulator.js"
import { connection, executor, step, withFetch } from "./support.js"

const secret = "whsec_0123456789abcdef"
const withSecret = { ...connection, webhookSecret: secret }
const now = 1_767_225_600 // seconds
const update = (status: string, overrides: Record<string, unknown> = {}) => ({
  type: "agent.task.status_update",
  timestamp: "2026-01-01T00:00:00Z",
  payload: { task_id: "task-1", session_id: "session-1", status, metadata: { attempt: 1 }, ...overrides }
})
const signed = (value: unknown, key = secret, at = now) => {
  const timestamp = String(at)
  return {
    method: "POST",
    url: "https://runner.example/hooks/browser-use",
    headers: {
      "x-browser-use-timestamp": timestamp,
      "x-browser-use-signature": Webhook.hmacSha256SortedJsonHex(Redacted.make(key), timestamp, value)
    },
    body: new TextEncoder().encode(JSON.stringify(value))
  }
}
const trigger = (statuses?: ReadonlyArray<string>) => step("taskStatusChanged", statuses === undefined ? {} : { statuses })
const deliver = (request: Trigger.WebhookRequest, statuses?: ReadonlyArray<string>, values: unknown = withSecret, allowUnsigned = false) =>
  withFetch(executor.handleDelivery(trigger(statuses), undefined, request, { allowUnsigned }), values)

describe("taskStatusChanged (static webhook)", () => {
  it.effect("a signed status update becomes one typed event, its id the same for a resend", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      const result = yield* deliver(signed(update("idle")))
      expect(result).toEqual({
        response: { status: 200 },
        events: [{
          id: "task-1/idle/2026-01-01T00:00:00Z",
          output: { taskId: "task-1", sessionId: "session-1", status: "idle", metadata: { attempt: 1 }, timestamp: "2026-01-01T00:00:00Z" }
        }]
      })
      // Resent later (a new signing time): the same event id, so it is not run twice.
      yield* TestClock.setTime((now + 60) * 1000)
      const resent = yield* deliver(signed(update("idle"), secret, now + 60))
      expect(resent.events.map((e) => e.id)).toEqual(["task-1/idle/2026-01-01T00:00:00Z"])
    }))

  it.effect("filters by status; the dashboard's test ping and other types are acknowledged with no event", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      expect((yield* deliver(signed(update("running")), ["idle", "stopped"])).events).toEqual([])
      expect((yield* deliver(signed(update("stopped")), ["idle", "stopped"])).events).toHaveLength(1)
      const ping = yield* deliver(signed({ type: "test", timestamp: "2026-01-01T00:00:00Z", payload: { test: "ok" } }))
      expect(ping).toEqual({ response: { status: 200 }, events: [] })
      const bad = yield* deliver(signed({ type: "agent.task.status_update", timestamp: "t", payload: { status: "idle" } }))
      expect(bad).toEqual({ response: { status: 400, body: "not a task status update" }, events: [] })
      // A status the filter does not know is an InvalidInput before anything runs.
      const wrong = yield* Effect.flip(deliver(signed(update("idle")), ["finished"]))
      expect(wrong._tag).toBe("InvalidInput")
    }))

  it.effect("forged, stale or unverifiable deliveries are refused with 401 and emit nothing", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      expect(yield* deliver(signed(update("idle"), "whsec_guessed"))).toEqual({
        response: { status: 401, body: "the delivery's signature does not match" },
        events: []
      })
      expect((yield* deliver(signed(update("idle"), secret, now - 400))).response.status).toBe(401)
      const unsigned = { ...signed(update("idle")), headers: {} }
      expect((yield* deliver(unsigned)).response.status).toBe(401)
      // No secret in the connection: nothing can be verified, so nothing runs.
      const noSecret = yield* deliver(signed(update("idle")), undefined, connection)
      expect(noSecret).toEqual({ response: { status: 401, body: "the connection has no webhookSecret to verify deliveries with" }, events: [] })
    }))

  it.effect("a signed body that is not JSON is a 400; unsigned deliveries, once allowed, are read as they come", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now * 1000)
      const garbled = { ...signed(update("idle")), body: new TextEncoder().encode("{\"type\": ") }
      expect(yield* deliver(garbled)).toEqual({ response: { status: 400, body: "the delivery is not JSON" }, events: [] })
      // The operator's --allow-unsigned-deliveries, no secret in the connection: parsed here, not verified.
      const unsigned = { ...signed(update("idle")), headers: {} }
      expect((yield* deliver(unsigned, undefined, connection, true)).events.map((e) => e.id)).toEqual(["task-1/idle/2026-01-01T00:00:00Z"])
      expect(yield* deliver(garbled, undefined, connection, true)).toEqual({ response: { status: 400, body: "not a Browser Use delivery" }, events: [] })
    }))
})

describe("taskStatusChanged against the simulator's deliveries", () => {
  const closing: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const close of closing) await close()
  })

  it.live("the dashboard's test ping, then running and idle for a kept-alive task, verified end to end", () =>
    Effect.gen(function*() {
      const sim = yield* Effect.promise(() => Simulator.start({ stepMs: 30, stepsPerTask: 2 }))
      closing.push(sim.close)
      const values = { key: "X-Browser-Use-API-Key", value: sim.apiKey, baseUrl: sim.baseUrl, webhookSecret: sim.webhookSecret }
      const received: Array<{ status: number; events: ReadonlyArray<{ id: string; output: unknown }> }> = []
      // The runner's part, in small: each request handed to the executor as it came.
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const request = {
            method: req.method ?? "POST",
            url: "http://127.0.0.1/hooks",
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(chunks)
          }
          Effect.runPromise(withFetch(executor.handleDelivery(trigger(), undefined, request), values)).then((delivery) => {
            received.push({ status: delivery.response.status, events: delivery.events })
            res.writeHead(delivery.response.status).end(delivery.response.body ?? "")
          }, () => res.writeHead(500).end())
        })
      })
      const origin = yield* Effect.promise(() => Loopback.listen(server))
      closing.push(() => Loopback.close(server))

      yield* Effect.promise(() => sim.configureWebhook(`${origin}/hooks`))
      const session = (yield* withFetch(
        executor.run(step("createSession", { task: "Read the news", model: "modelfamilyA-opus-4.6", outputSchema: { format: "TEXT" }, keepAlive: true })),
        values
      )) as { id: string }
      yield* Effect.promise(() => sim.idle())

      expect(sim.deliveries.map((d) => [d.body.type, d.body.payload["status"] ?? null, d.status])).toEqual([
        ["test", null, 200],
        ["agent.task.status_update", "running", 200],
        ["agent.task.status_update", "idle", 200]
      ])
      const events = received.flatMap((r) => r.events.map((e) => e.output as { sessionId: string; status: string; taskId: string }))
      expect(events.map((e) => [e.sessionId, e.status])).toEqual([[session.id, "running"], [session.id, "idle"]])
      expect(events[0]!.taskId).toBe(events[1]!.taskId)
    }))

  it.live("a URL that does not answer the test ping with 2xx is not kept", () =>
    Effect.gen(function*() {
      const sim = yield* Effect.promise(() => Simulator.start({ stepMs: 20, stepsPerTask: 1 }))
      closing.push(sim.close)
      const server = createServer((_req, res) => res.writeHead(401).end("no"))
      const origin = yield* Effect.promise(() => Loopback.listen(server))
      closing.push(() => Loopback.close(server))
      const refused = yield* Effect.promise(() => sim.configureWebhook(`${origin}/hooks`).then(() => "kept", (e: Error) => e.message))
      expect(refused).toBe("the webhook URL answered the test ping with 401")
      yield* withFetch(
        executor.run(step("createSession", { task: "Anything", model: "modelfamilyA-opus-4.6", outputSchema: { format: "TEXT" } })),
        { key: "X-Browser-Use-API-Key", value: sim.apiKey, baseUrl: sim.baseUrl }
      )
      yield* Effect.promise(() => sim.idle())
      expect(sim.deliveries).toHaveLength(1)
    }))
})
