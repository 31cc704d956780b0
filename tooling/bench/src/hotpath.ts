/**
 * `node tooling/bench/dist/hotpath.js [part of a call title]`: the CPU a step of ours costs
 * beyond its HTTP client, with the network taken out: every request is answered from memory
 * (the simulator's own answer, recorded once) by a dispatcher that calls undici's handler as
 * undici would. Without the network's noise, a change of a microsecond to the step's path
 * shows, and so does its profile (`node --cpu-prof`). Each client alternates with the other in
 * short runs, `BENCH_HOTPATH_CONCURRENCY` calls in flight (default 32); `BENCH_HOTPATH_STEP_ONLY=1`
 * runs the step alone (for its profile).
 */
import { UndiciHttpClient } from "@x/http-undici"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { request as undiciRequest, type Dispatcher } from "undici"
import { asTheRunnersProcess, benchExecutor, httpAlone, runtimeOf } from "./calls.js"
import { alternatingCpuPerCall, measureFibers, quantile } from "./measure.js"
import type { Providers } from "./simulators.js"

asTheRunnersProcess()
const only = process.argv[2]
const concurrency = Number(process.env["BENCH_HOTPATH_CONCURRENCY"] ?? 32)
const runs = Number(process.env["BENCH_HOTPATH_RUNS"] ?? 10)
const seconds = Number(process.env["BENCH_HOTPATH_SECONDS"] ?? 0.5)

const simulators = fork(fileURLToPath(new URL("./simulators.js", import.meta.url)), { stdio: "inherit" })
const p = await new Promise<Providers>((resolve) => simulators.once("message", (m: Providers) => resolve(m)))

interface Recorded {
  readonly status: number
  readonly headers: Record<string, string | Array<string>>
  readonly body: Buffer
}
const record = async (url: string, headers: Record<string, string>): Promise<Recorded> => {
  const response = await undiciRequest(url, { headers })
  const body = Buffer.from(await response.body.arrayBuffer())
  return { status: response.statusCode, headers: response.headers as Recorded["headers"], body }
}

/** Answers every request with `answer`, on the next turn of the event loop, through undici's handler API. */
const replaying = (answer: Recorded): Dispatcher => {
  const controller = { abort: () => {}, pause: () => {}, resume: () => {}, aborted: false, paused: false, reason: null }
  const dispatch = (_options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    handler.onRequestStart?.(controller as never, {})
    setImmediate(() => {
      handler.onResponseStart?.(controller as never, answer.status, answer.headers as never, "OK")
      handler.onResponseData?.(controller as never, answer.body)
      handler.onResponseEnd?.(controller as never, {})
    })
    return true
  }
  return { dispatch, close: async () => {}, destroy: async () => {} } as unknown as Dispatcher
}

const executor = benchExecutor()
const trelloAuth = `OAuth oauth_consumer_key="${p.trello.key}", oauth_token="${p.trello.token}"`
const calls = [
  {
    title: "boardtool getCard",
    url: `${p.trello.baseUrl}/cards/${p.trello.cardId}`,
    headers: { authorization: trelloAuth },
    step: { type: "boardtool/v1/getCard", parameters: { id: p.trello.cardId } }
  },
  {
    title: "sitebuilder getCollectionItem",
    url: `${p.webflow.baseUrl}/collections/${p.webflow.collectionId}/items/${p.webflow.itemId}`,
    headers: { authorization: `Bearer ${p.webflow.accessToken}` },
    step: { type: "sitebuilder/v1/getCollectionItem", parameters: { collectionId: p.webflow.collectionId, itemId: p.webflow.itemId } }
  },
  {
    title: "browseragent getSession",
    url: `${p.browserUse.baseUrl}/sessions/${p.browserUse.sessionId}`,
    headers: { "x-browser-use-api-key": p.browserUse.apiKey },
    step: { type: "browseragent/v1/getSession", parameters: { sessionId: p.browserUse.sessionId } }
  }
]

const rows: Array<Record<string, unknown>> = []
for (const call of calls) {
  if (only !== undefined && !call.title.includes(only)) continue
  const answer = await record(call.url, { ...call.headers, accept: "application/json" })
  const runtime = runtimeOf(p, Layer.succeed(HttpClient.HttpClient, UndiciHttpClient.make(replaying(answer))))
  const step = executor.run({ label: call.step.type, name: "step", ...call.step })
  const alone = httpAlone(call.url, call.headers)
  const stepOnly = process.env["BENCH_HOTPATH_STEP_ONLY"] === "1"
  const clients = [{ name: "step", effect: step }, { name: "HttpClient alone", effect: stepOnly ? step : alone }] as const
  const measured = (effect: Effect.Effect<unknown, unknown, never>) => (s: number) => measureFibers(runtime, effect, concurrency, s)
  const perCall = await alternatingCpuPerCall(
    [measured(clients[0].effect as Effect.Effect<unknown, unknown, never>), measured(clients[1].effect as Effect.Effect<unknown, unknown, never>)],
    runs,
    seconds
  )
  await runtime.dispose()
  const [ours, alonePerCall] = perCall.map((values) => quantile(values, 0.5)) as [number, number]
  rows.push({ call: call.title, "step µs": Number(ours.toFixed(2)), "HttpClient alone µs": Number(alonePerCall.toFixed(2)), "step beyond it µs": Number((ours - alonePerCall).toFixed(2)) })
}
console.log(`\nCPU per call, the network replayed from memory, ${concurrency} at once, medians of ${runs} alternating runs of ${seconds}s`)
console.table(rows)
simulators.disconnect()
