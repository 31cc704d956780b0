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
import type * as HttpClient from "@effect/platform/HttpClient"
import { UndiciHttpClient } from "@x/http-undici"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { fork } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Pool } from "undici"
import { benchComponent } from "./component.js"

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

/** Runs `call` from `concurrency` workers for `duration` seconds, recording each call's latency. */
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
  const elapsed = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { calls: latencies.length, throughput: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) }
}

// --- the three clients -----------------------------------------------------

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

// The runner's runtime: an HttpClient implementation, and no tracer (nothing exports spans).
const runtimeOf = (http: Layer.Layer<HttpClient.HttpClient>) =>
  ManagedRuntime.make(Layer.merge(http, Layer.setTracerEnabled(false)))
const leanRuntime = runtimeOf(UndiciHttpClient.layer)
const platformRuntime = runtimeOf(NodeHttpClient.layerUndici)
const executor = Executor.make([benchComponent])
const connection = { key: KEY, token: TOKEN, baseUrl: `${origin}/1` }
const step = { label: "Get card", name: "card", type: "benchboard/v1/getCard", parameters: { id: cardId } }
const ours: Call = () => leanRuntime.runPromise(executor.run(step, connection)).then(checkCard)
const oursOnPlatformNode: Call = () => platformRuntime.runPromise(executor.run(step, connection)).then(checkCard)

const OURS = "@x/core on @x/http-undici"
const clients: Array<[string, Call]> = [
  [OURS, ours],
  ["@x/core on platform-node layerUndici", oursOnPlatformNode],
  ["bare fetch", bareFetch],
  ["raw undici Pool.request", rawUndici]
]

// --- run ---------------------------------------------------------------------

const results: Array<Result> = []
for (const concurrency of concurrencyLevels) {
  for (const [name, call] of clients) {
    if (only !== undefined && !name.includes(only)) continue
    await measure(call, concurrency, warmupSeconds)
    const result = await measure(call, concurrency, seconds)
    results.push({ name, concurrency, ...result })
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
console.log(`\nGET /1/cards/{id} on loopback, ${seconds}s per run after ${warmupSeconds}s warm-up, Node ${process.version}`)
console.table(table)
for (const concurrency of concurrencyLevels) {
  const row = table.find((r) => r.client === OURS && r.concurrency === concurrency)
  if (row === undefined) continue
  const ok = row["× fetch"] >= 1.5 && row["× undici"] >= 0.5
  console.log(
    `concurrency ${concurrency}: @x/core = ${row["× fetch"]}× bare fetch, ${row["× undici"]}× raw undici — target ≥ 1.5× and ≥ 0.5×: ${ok ? "met" : "MISSED"}`
  )
}
const outDir = fileURLToPath(new URL("../../../bench-results/", import.meta.url))
mkdirSync(outDir, { recursive: true })
writeFileSync(`${outDir}core.json`, JSON.stringify({ date: new Date().toISOString(), node: process.version, seconds, results: table }, null, 2))
console.log(`written to bench-results/core.json`)

await leanRuntime.dispose()
await platformRuntime.dispose()
await pool.close()
child.disconnect()
