/**
 * `pnpm bench`: one action through the whole @x/core runtime (step decoding, parameter
 * decoding, auth, rate limiter, retry policy with its time limit, output encoding) on
 * @x/http-undici's HttpClient and on @effect/platform-node's, against a bare `fetch` and a
 * raw undici `Pool.request` of the same request, sequentially and at concurrency 32, against
 * a loopback server in its own process.
 * Prints throughput, p50/p99 latency and the ratios, and writes them to bench-results/.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Executor } from "@x/core"
import * as HttpClient from "@effect/platform/HttpClient"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { fork } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { TrelloClient } from "trello.js"
import { Pool } from "undici"
import { benchComponent } from "./component.js"
import { coldStartBench } from "./coldstart.js"
import { type RateLimitResult, rateLimitBench, trelloJsRateLimitBench } from "./ratelimit.js"

const seconds = Number(process.env["BENCH_SECONDS"] ?? 3)
const warmupSeconds = Number(process.env["BENCH_WARMUP"] ?? 1)
const concurrencyLevels = (process.env["BENCH_CONCURRENCY"] ?? "1,32").split(",").map(Number)
// For profiling one client: BENCH_ONLY=core node --cpu-prof dist/main.js
const only = process.env["BENCH_ONLY"]

const child = fork(fileURLToPath(new URL("./server.js", import.meta.url)), { stdio: "inherit" })
const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)))
const origin = `http://127.0.0.1:${port}`
const cardId = "5f1e0c0d2b3a4c5d6e7f8091"
const KEY = "bench-key-0123456789abcdef0123456789ab"
const TOKEN = "bench-token-0123456789abcdef0123456789abcdef0123456789abcdef01"
const authorization = `OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"`

type Call = () => Promise<unknown>

interface Result {
  readonly name: string
  readonly concurrency: number
  readonly calls: number
  readonly throughput: number
  readonly p50: number
  readonly p99: number
}

const summarize = (latencies: Array<number>, elapsedSeconds: number) => {
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { calls: latencies.length, throughput: latencies.length / elapsedSeconds, p50: at(0.5), p99: at(0.99) }
}

/** Runs `call` from `concurrency` promise loops for `duration` seconds, recording each call's latency. */
const measure = async (call: Call, concurrency: number, duration: number) => {
  const latencies: Array<number> = []
  const deadline = performance.now() + duration * 1000
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now()
      await call()
      latencies.push(performance.now() - start)
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return summarize(latencies, (performance.now() - start) / 1000)
}

/** The same with `concurrency` fibers, as the runner runs steps: no Promise per call. */
const measureFibers = <E>(
  runtime: ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never>,
  call: Effect.Effect<unknown, E, HttpClient.HttpClient>,
  concurrency: number,
  duration: number
) =>
  runtime.runPromise(Effect.suspend(() => {
    const latencies: Array<number> = []
    const deadline = performance.now() + duration * 1000
    const timed = Effect.suspend(() => {
      const started = performance.now()
      return Effect.tap(call, () => Effect.sync(() => latencies.push(performance.now() - started)))
    })
    const worker = Effect.whileLoop({ while: () => performance.now() < deadline, body: () => timed, step: () => {} })
    const start = performance.now()
    return Effect.as(
      Effect.all(Array.from({ length: concurrency }, () => worker), { concurrency: "unbounded", discard: true }),
      undefined
    ).pipe(Effect.map(() => summarize(latencies, (performance.now() - start) / 1000)))
  }))

// --- the clients --------------------------------------------------------

const checkCard = (card: unknown) => {
  if ((card as { id?: string }).id !== cardId) throw new Error(`unexpected response: ${JSON.stringify(card)}`)
  return card
}

const bareFetch: Call = async () => {
  const response = await fetch(`${origin}/1/cards/${cardId}`, {
    headers: { authorization, accept: "application/json" }
  })
  if (response.status !== 200) throw new Error(`status ${response.status}`)
  return checkCard(await response.json())
}

const pool = new Pool(origin, { connections: 64, pipelining: 1 })
const rawUndici: Call = async () => {
  const { statusCode, body } = await pool.request({
    method: "GET",
    path: `/1/cards/${cardId}`,
    headers: { authorization, accept: "application/json" }
  })
  if (statusCode !== 200) throw new Error(`status ${statusCode}`)
  return checkCard(await body.json())
}

// The official SDK, as an application would use it; its base URL is fixed to api.trello.com, so
// its axios instance is pointed at the bench server.
const trelloJs = new TrelloClient({ key: KEY, token: TOKEN })
;(trelloJs as unknown as { instance: { defaults: { baseURL: string } } }).instance.defaults.baseURL = `${origin}/1`
const officialSdk: Call = async () => checkCard(await trelloJs.cards.getCard({ id: cardId }))

// The runner's runtime: an HttpClient implementation, and no tracer (nothing exports spans).
const runtimeOf = (http: Layer.Layer<HttpClient.HttpClient>) =>
  ManagedRuntime.make(Layer.merge(http, Layer.setTracerEnabled(false)))
const leanRuntime = runtimeOf(UndiciHttpClient.layer)
const platformRuntime = runtimeOf(NodeHttpClient.layerUndici)
const executor = Executor.make([benchComponent])
const connection = { key: KEY, token: TOKEN, baseUrl: `${origin}/1` }
const step = { label: "Get card", name: "card", type: "benchboard/v1/getCard", parameters: { id: cardId } }
const runStep = Effect.map(executor.run(step, connection), checkCard)
// The floor: the same request through an @effect/platform HttpClient with nothing else.
const httpAlone = Effect.flatMap(
  HttpClient.HttpClient,
  (http) => Effect.flatMap(http.get(`${origin}/1/cards/${cardId}`, { headers: { authorization } }), (r) => r.json)
)

const OURS = "@x/core step, fibers (runner)"
const OURS_PROMISE = "@x/core step, runPromise per call"
type Client = readonly [string, (concurrency: number, seconds: number) => Promise<Omit<Result, "name" | "concurrency">>]
const clients: Array<Client> = [
  [OURS, (c, d) => measureFibers(leanRuntime, runStep, c, d)],
  [OURS_PROMISE, (c, d) => measure(() => leanRuntime.runPromise(runStep), c, d)],
  ["@x/core step, fibers, platform-node layerUndici", (c, d) => measureFibers(platformRuntime, runStep, c, d)],
  ["HttpClient alone (@x/http-undici)", (c, d) => measureFibers(leanRuntime, httpAlone, c, d)],
  ["trello.js (official SDK)", (c, d) => measure(officialSdk, c, d)],
  ["bare fetch", (c, d) => measure(bareFetch, c, d)],
  ["raw undici Pool.request", (c, d) => measure(rawUndici, c, d)]
]

// --- run ---------------------------------------------------------------------

const results: Array<Result> = []
for (const concurrency of concurrencyLevels) {
  for (const [name, run] of clients) {
    if (only !== undefined && !name.includes(only)) continue
    await run(concurrency, warmupSeconds)
    results.push({ name, concurrency, ...(await run(concurrency, seconds)) })
  }
}

const table = results.map((r) => {
  const peer = (name: string) =>
    results.find((x) => x.name === name && x.concurrency === r.concurrency)?.throughput ?? Number.NaN
  return {
    client: r.name,
    concurrency: r.concurrency,
    "calls/s": Math.round(r.throughput),
    "p50 ms": Number(r.p50.toFixed(3)),
    "p99 ms": Number(r.p99.toFixed(3)),
    "× fetch": Number((r.throughput / peer("bare fetch")).toFixed(2)),
    "× undici": Number((r.throughput / peer("raw undici Pool.request")).toFixed(2))
  }
})
if (table.length > 0) {
  console.log(`\nGET /1/cards/{id} on loopback, ${seconds}s per run after ${warmupSeconds}s warm-up, Node ${process.version}`)
  console.table(table)
}
for (const concurrency of concurrencyLevels) {
  for (const name of [OURS, OURS_PROMISE]) {
    const row = table.find((r) => r.client === name && r.concurrency === concurrency)
    if (row === undefined) continue
    const verdict = (ratio: number, target: number) => `${ratio}× (target ≥ ${target}×: ${ratio >= target ? "met" : "MISSED"})`
    console.log(
      `concurrency ${concurrency}, ${name}: ${verdict(row["× fetch"], 1.5)} bare fetch, ${verdict(row["× undici"], 0.5)} raw undici`
    )
  }
}
let rateLimit: { readonly ours: RateLimitResult; readonly trelloJs: RateLimitResult } | undefined
if (only === undefined || only === "ratelimit") {
  rateLimit = { ours: await rateLimitBench(), trelloJs: await trelloJsRateLimitBench() }
  const share = (r: RateLimitResult) => r.answered429 / (r.calls + r.answered429)
  const row = (client: string, r: RateLimitResult) => ({
    client,
    completed: r.completed,
    failed: r.failed,
    "429s": r.answered429,
    "429 share": `${(share(r) * 100).toFixed(2)} %`,
    "wall s": Number(r.wallSeconds.toFixed(2)),
    "minimum s": r.minimumSeconds,
    "× minimum": Number((r.wallSeconds / r.minimumSeconds).toFixed(3))
  })
  const r = rateLimit.ours
  console.log(`\nRate limit: ${r.calls} createCard at concurrency 32, the simulator allowing 100 per 2 s per token`)
  console.table([row("@x/core step", r), row("trello.js", rateLimit.trelloJs)])
  console.log(
    `targets (ours): 0 failures (${r.failed === 0 ? "met" : "MISSED"}), ≤ 2 % answered 429 (${share(r) <= 0.02 ? "met" : "MISSED"}), wall ≤ 1.10× the minimum (${
      r.wallSeconds / r.minimumSeconds <= 1.1 ? "met" : "MISSED"
    })`
  )
}

let coldStart: ReturnType<typeof coldStartBench> | undefined
if (only === undefined || only === "coldstart") {
  coldStart = coldStartBench()
  console.log(`\nCold start: x-runner describe, median of 7 fresh processes: ${coldStart.describeMs.toFixed(0)} ms (target ≤ 600 ms: ${
    coldStart.describeMs <= 600 ? "met" : "MISSED"
  }); unbundled ${coldStart.describeUnbundledMs.toFixed(0)} ms`)
  console.table(coldStart.imports.map((i) => ({ package: i.package, "import ms": Number(i.ms.toFixed(1)) })))
}

const outDir = fileURLToPath(new URL("../../../bench-results/", import.meta.url))
mkdirSync(outDir, { recursive: true })
writeFileSync(
  `${outDir}core.json`,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, seconds, results: table, rateLimit, coldStart }, null, 2)
)
console.log(`written to bench-results/core.json`)

await leanRuntime.dispose()
await platformRuntime.dispose()
await pool.close()
child.disconnect()
