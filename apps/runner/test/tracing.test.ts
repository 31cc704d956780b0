/**
 * OpenTelemetry traces of `serve`: with `--otlp-endpoint`, a run and each of its steps are spans
 * exported over OTLP/HTTP (JSON) to a collector, here one on loopback; the steps are within the
 * run's span, with their names, types and statuses; nothing secret is in them.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, served, stallMs } from "./bin.js"

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

/** A collector on loopback keeping the spans it is sent, and the raw bodies. */
const collector = async () => {
  const spans: Array<Span> = []
  const bodies: Array<string> = []
  const server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        bodies.push(body)
        const sent = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Span> }> }> }
        for (const resource of sent.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans)
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  // A real collector's idle timeout (as Loopback.listen's), not Node's 5 s, which a busy machine lets race the next export.
  server.keepAliveTimeout = 60_000
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)))
  return { url: `http://127.0.0.1:${port}`, spans, bodies, close: () => new Promise((resolve) => server.close(resolve)) }
}

const attribute = (span: Span, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe("x-runner serve --otlp-endpoint", () => {
  it("exports a span per run and one per step within it", async () => {
    const otlp = await collector()
    try {
      const port = await freePort()
      const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-tracing-"))
      const workflow = fileURLToPath(new URL("../examples/new-card.json", import.meta.url))
      const server = served(["serve", workflow, "--sandbox", "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir, "--otlp-endpoint", otlp.url])
      await server.waitFor("● serving boardtool/v1/newCard")
      const trello = /Trello simulator at (\S+) /.exec(server.log())![1]!
      await fetch(`${trello}/cards?idList=5eed00000000000000000003&name=Traced`, {
        method: "POST",
        headers: { authorization: "OAuth oauth_consumer_key=\"sandbox-trello-key\", oauth_token=\"sandbox-trello-token\"" }
      })
      await server.waitFor(/■ event [0-9a-f]{24} succeeded \(run ([0-9a-f]{16})\)/)
      const runId = /■ event [0-9a-f]{24} succeeded \(run ([0-9a-f]{16})\)/.exec(server.log())![1]!
      // Exported every second: the run's span arrives while the runner serves (its steps' spans,
      // which end first, before or with it). Waited for before the stop, whose last export has
      // only the exporter's 3 s shutdown limit, which a loaded machine can cross.
      const runSpan = () => otlp.spans.find((span) => span.name === "x-runner.run" && attribute(span, "x-runner.run.id") === runId)
      for (const givenUpAt = Date.now() + stallMs; runSpan() === undefined && Date.now() < givenUpAt;) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      server.child.kill("SIGTERM")
      await server.exited
      const run = runSpan()
      expect(run, JSON.stringify(otlp.spans.map((span) => span.name))).toBeDefined()
      expect(attribute(run!, "x-runner.workflow")).toBe("new-card")
      expect(attribute(run!, "x-runner.run.status")).toBe("succeeded")
      // Within the run: the engine's activity spans come between the run's and each step's.
      const byId = new Map(otlp.spans.map((span) => [span.spanId, span]))
      const within = (span: Span, ancestor: Span): boolean =>
        span.parentSpanId === ancestor.spanId || (span.parentSpanId !== undefined && byId.has(span.parentSpanId) && within(byId.get(span.parentSpanId)!, ancestor))
      const steps = otlp.spans.filter((span) => span.name === "x-runner.step" && within(span, run!))
      expect(steps.map((span) => [attribute(span, "x-runner.step.name"), attribute(span, "x-runner.step.type"), attribute(span, "x-runner.step.status")])).toEqual([
        ["research", "browseragent/v1/createSession", "succeeded"],
        ["answer", "boardtool/v1/createCard", "succeeded"]
      ])
      expect(steps.every((span) => span.traceId === run!.traceId)).toBe(true)
      expect(otlp.bodies.join("")).not.toMatch(/sandbox-trello-(token|secret)|bu_sandbox/)
    } finally {
      await otlp.close()
    }
  })
})
