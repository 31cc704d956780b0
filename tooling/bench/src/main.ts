/**
 * `pnpm bench`: the project against its peers on the same work, in one run.
 * 1. Overhead per call: boardtool getCard and createCard, sitebuilder getCollectionItem and
 *    browseragent getSession, each through a step of ours, the provider's official SDK, a bare
 *    `fetch` and a raw undici `Pool.request`, sequentially and at concurrency 32, against the
 *    packages' simulators in a process of their own; each client's time in interleaved slices
 *    (BENCH_ROUNDS, default 4, made even), the order reversed every other round, so that the
 *    machine's load and a drift over the part fall on every client alike.
 * 2. Rate-limit efficiency (ratelimit.ts). 3. The durable engine (engine.ts): ingestion on the
 *    embedded default; execution on it and on one and two runners on PostgreSQL; rate limits
 *    across two runners; a loop's iterations against as many one-task runs; one runner against two
 *    on PostgreSQL when each step waits 100 ms at the provider; which engine for the embedded
 *    default, ours against @effect/cluster's on SQLite (engines.ts). 4. The runs page's list over
 *    10,000 runs on the embedded database (runsPage.ts). 5. Cold start (coldstart.ts).
 * Prints every figure and writes them to bench-results/bench.json.
 *
 * BENCH_ONLY=<part of a call title or client name>|ratelimit|ingestion|execution|loop|runners-ratelimit|latency|engines|runs-page|coldstart
 * runs one part; calls and clients may be several, separated by "|" (BENCH_ONLY="getCard|getSession")
 * (for profiling: BENCH_ONLY=getCard node --cpu-prof dist/main.js; BENCH_PROFILE=1
 * with ingestion, execution, loop or latency profiles the runner and prints where each of its threads spent its time:
 * for ingestion, while the load ran; BENCH_PROFILE_DIR=<dir> keeps ingestion's .cpuprofile files there).
 * XRUNNER_BUNDLE names a copy of the runner's bundle to measure, XRUNNER_UNBUNDLED a copy of its
 * unbundled main.js to profile (others may rebuild dist meanwhile).
 */
import { fork } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { asTheRunnersProcess, type Client, FETCH, makeCalls, OURS, OURS_PROMISE, RUNNER_V8_FLAG, TYPED_PROMISE, UNDICI } from "./calls.js"
import { coldStartBench } from "./coldstart.js"
import {
  type ExecutionResult,
  executionBench,
  type IngestionResult,
  ingestionBench,
  loopBench,
  oneTaskRunsBench,
  runnersRateLimitBench,
  type RunnersRateLimitResult,
  type TasksResult
} from "./engine.js"
import { type EnginesResult, enginesPart } from "./engines.js"
import { combine, type Measurement } from "./measure.js"
import { print as printProfile } from "./profile.js"
import { type RateLimitResult, rateLimitBench, trelloJsRateLimitBench } from "./ratelimit.js"
import { FIRST_PAGE, type RunsPageResult, runsPageBench, YARDSTICK } from "./runsPage.js"
import type { Providers } from "./simulators.js"

asTheRunnersProcess()
const seconds = Number(process.env["BENCH_SECONDS"] ?? 2)
const warmupSeconds = Number(process.env["BENCH_WARMUP"] ?? 0.5)
const concurrencyLevels = (process.env["BENCH_CONCURRENCY"] ?? "1,32").split(",").map(Number)
// Even, so that the order reversed every other round balances (see the per-call part).
const roundsAsked = Number(process.env["BENCH_ROUNDS"] ?? 4)
const rounds = Math.max(2, 2 * Math.round((Number.isFinite(roundsAsked) ? roundsAsked : 4) / 2))
const only = process.env["BENCH_ONLY"]
const runs = (part: string) => only === undefined || only === part

// --- 1. overhead per call ------------------------------------------------------------------

const perCall: Array<Record<string, unknown>> = []
const partNames = ["ratelimit", "ingestion", "execution", "loop", "runners-ratelimit", "latency", "engines", "runs-page", "coldstart"]
if (only === undefined || !partNames.includes(only)) {
  const simulators = fork(fileURLToPath(new URL("./simulators.js", import.meta.url)), { stdio: "inherit" })
  const providers = await new Promise<Providers>((resolve) => simulators.once("message", (m: Providers) => resolve(m)))
  const { calls, close } = makeCalls(providers)
  console.log(
    `\nOverhead per call: the simulators on loopback in their own process, ${seconds}s per client and concurrency in ${rounds} interleaved slices (BENCH_ROUNDS) after ${warmupSeconds}s warm-up, Node ${process.version}, every client with ${RUNNER_V8_FLAG} (as x-runner's process runs steps)`
  )
  const verdicts: Array<string> = []
  for (const call of calls) {
    // BENCH_ONLY may name several calls or clients, separated by "|".
    const wanted = only?.split("|")
    const matches = (text: string) => wanted === undefined || wanted.some((w) => text.includes(w))
    const selected = call.clients.filter((c) => matches(call.title) || [OURS, FETCH, UNDICI].includes(c.name) || matches(c.name))
    if (!matches(call.title) && !selected.some((c) => matches(c.name))) continue
    const results: Array<{ name: string; concurrency: number; throughput: number; p50: number; p99: number }> = []
    // A first pass over every client, so that the first one measured is not also the one that
    // warms up the component's code (its first sequential run read 10 % low without it).
    for (const client of selected) await client.run(1, warmupSeconds)
    for (const concurrency of concurrencyLevels) {
      for (const client of selected) await client.run(concurrency, warmupSeconds)
      // Each client's time in `rounds` slices, interleaved: a load that comes and goes on the
      // machine (two cores, shared) falls on every client alike, where one run after the other
      // let it fall on one and move the ratios. The order is reversed every other round, so
      // that every client's slices sit at the same mean place in the part, whatever the number
      // of clients, and a drift over the part (the Trello simulator's create scans its list,
      // which grows a card a call) falls on every client alike too; an order turned by one a
      // round does so only when the rounds are a multiple of the clients (not four rounds over
      // getCard's eight clients).
      const slices = new Map<Client, Array<Measurement>>(selected.map((client) => [client, []]))
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < selected.length; i++) {
          const client = selected[round % 2 === 0 ? i : selected.length - 1 - i]!
          slices.get(client)!.push(await client.run(concurrency, seconds / rounds))
        }
      }
      for (const client of selected) {
        const { p50, p99, throughput } = combine(slices.get(client)!)
        results.push({ name: client.name, concurrency, throughput, p50, p99 })
      }
    }
    const table = results.map((r) => {
      const peer = (name: string) => results.find((x) => x.name === name && x.concurrency === r.concurrency)?.throughput ?? Number.NaN
      return {
        client: r.name,
        concurrency: r.concurrency,
        "calls/s": Math.round(r.throughput),
        "p50 ms": Number(r.p50.toFixed(3)),
        "p99 ms": Number(r.p99.toFixed(3)),
        "× fetch": Number((r.throughput / peer(FETCH)).toFixed(2)),
        "× undici": Number((r.throughput / peer(UNDICI)).toFixed(2))
      }
    })
    console.log(`\n${call.title}`)
    console.table(table)
    perCall.push({ call: call.title, results: table })
    // Ahead of the official SDK: ours against it at each concurrency.
    for (const sdk of table.filter((r) => r.client.includes("(official SDK)"))) {
      const ours = table.find((r) => r.client === OURS && r.concurrency === sdk.concurrency)
      if (ours === undefined) continue
      const ratio = ours["calls/s"] / sdk["calls/s"]
      verdicts.push(`${call.title.split(":")[0]}, concurrency ${sdk.concurrency}: ours ${ratio.toFixed(2)}× ${sdk.client} (${ratio > 1 ? "ahead" : "NOT ahead"})`)
    }
    // The typed client costs nothing measurable: within 10 % of the same step through the executor.
    for (const typed of table.filter((r) => r.client === TYPED_PROMISE)) {
      const step = table.find((r) => r.client === OURS_PROMISE && r.concurrency === typed.concurrency)
      if (step === undefined) continue
      const ratio = typed["calls/s"] / step["calls/s"]
      verdicts.push(`${call.title.split(":")[0]}, concurrency ${typed.concurrency}: ${TYPED_PROMISE} ${ratio.toFixed(2)}× the step through the executor (target ≥ 0.90×: ${ratio >= 0.9 ? "met" : "MISSED"})`)
    }
    // The targets for the step (the runner's path, fibers): ≥ 0.9× raw undici sequentially, ≥ 0.75× at 32.
    const undiciTarget = (concurrency: number) => concurrency === 1 ? 0.9 : concurrency === 32 ? 0.75 : undefined
    for (const row of table.filter((r) => r.client === OURS || r.client === OURS_PROMISE)) {
      const target = row.client === OURS ? undiciTarget(row.concurrency) : undefined
      const undici = target === undefined ? `${row["× undici"]}×` : `${row["× undici"]}× (target ≥ ${target}×: ${row["× undici"] >= target ? "met" : "MISSED"})`
      verdicts.push(`${call.title.split(":")[0]}, concurrency ${row.concurrency}, ${row.client}: ${undici} raw undici, ${row["× fetch"]}× bare fetch`)
    }
  }
  console.log(`\n${verdicts.join("\n")}`)
  await close()
  simulators.disconnect()
}

// --- 2. rate-limit efficiency ----------------------------------------------------------------

let rateLimit: { readonly ours: RateLimitResult; readonly trelloJs: RateLimitResult } | undefined
if (runs("ratelimit")) {
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

// --- 3. the durable engine: ingestion, execution, rate limits across runners ------------------

let ingestion: ReadonlyArray<IngestionResult> | undefined
if (runs("ingestion")) {
  // The runner's own path (verify, commit, acknowledge) with a trigger that reads nothing to
  // accept a delivery; then Trello's newCard, which reads each delivered card from the provider.
  const results = (ingestion = [await ingestionBench("taskStatusChanged"), await ingestionBench("newCard")])
  const first = results[0]!
  console.log(
    `\nTrigger ingestion on the durable engine: x-runner serve --sandbox --without-rate-limits (embedded SQLite), signed deliveries from autocannon, ${first.connections} connections for ${first.seconds} s, twice: ` +
      `cold (the runner just started), then warm (measured, once the first load's runs ended); ` +
      `the yardstick: a bare node:http server answering 200 (its own process), loaded the same way just before, warmed too`
  )
  const ratio = (i: IngestionResult) => i.perSecond / i.bareHttp.perSecond
  console.table(results.map((i) => ({
    trigger: i.trigger,
    "deliveries/s": Math.round(i.perSecond),
    "bare node:http req/s": Math.round(i.bareHttp.perSecond),
    "× bare": Number(ratio(i).toFixed(3)),
    "p50 ms": i.p50Ms,
    "p99 ms": i.p99Ms,
    "serving thread CPU µs/delivery": Math.round(i.servingCpuUsPerDelivery),
    "process CPU µs/delivery": Math.round(i.processCpuUsPerDelivery),
    "cold × bare": Number((i.cold.perSecond / i.bareHttp.perSecond).toFixed(3)),
    "cold p99 ms": i.cold.p99Ms,
    "cold process CPU µs/delivery": Math.round(i.cold.processCpuUsPerDelivery),
    "peak RSS MB": Math.round(i.peakRssMb),
    sent: i.sent,
    acknowledged: i.acknowledgedInAll,
    "not 2xx": i.refused,
    errors: i.errors,
    accepted: i.accepted,
    runs: i.runs,
    "runs succeeded": i.runsSucceeded,
    "runs ended after s": Number(i.drainSeconds.toFixed(1)),
    "runs/s after the load": Math.round(i.executionPerSecond)
  })))
  console.log(
    `targets (${first.trigger}): ≥ 0.1× the bare node:http server's requests/s (${ratio(first).toFixed(3)}×: ${ratio(first) >= 0.1 ? "met" : "MISSED"}) at p99 ≤ 20 ms (${first.p99Ms <= 20 ? "met" : "MISSED"}), every acknowledged delivery accepted and run once (${
      results.every((i) => i.accepted >= i.acknowledgedInAll && i.runs === i.accepted && i.runsSucceeded === i.accepted && i.refused === 0 && i.errors === 0) ? "met" : "MISSED"
    })`
  )
  for (const i of results) {
    if (i.profile === undefined) continue
    printProfile(`the serve process (ingestion, ${i.trigger}, while the measured load ran)`, i.profile)
    const serving = i.profile[0]!.summary
    console.log(`the serving thread: ${Math.round(serving.busyMs * 1000 / Math.max(i.acknowledged, 1))} µs busy per acknowledged delivery (${i.trigger}, profiled)`)
  }
}

let execution: ReadonlyArray<ExecutionResult> | undefined
if (runs("execution")) {
  const embedded = await executionBench("embedded", 1, 3000, { profile: process.env["BENCH_PROFILE"] === "1" })
  const one = await executionBench("postgres", 1)
  const two = await executionBench("postgres", 2)
  execution = [embedded, one, two]
  console.log(`\nExecution: ${embedded.runs} one-step runs (getCard on the sandbox, no rate limits) committed before the runners start, runs/s from the first start to the last end`)
  console.table(execution.map((r) => ({ runners: r.label, runs: r.runs, succeeded: r.succeeded, "runs/s": Math.round(r.perSecond) })))
  const ratio = two.perSecond / one.perSecond
  console.log(`targets: ≥ 500 one-step runs/s on one runner (${embedded.perSecond >= 500 ? "met" : "MISSED"}), two runners on PostgreSQL ≥ 1.6× one: ${ratio.toFixed(2)}× (${
    ratio >= 1.6 ? "met" : "MISSED"
  })`)
  if (embedded.profile !== undefined) printProfile("the runner on the embedded database (execution)", embedded.profile)
}

let loop: { readonly rounds: ReadonlyArray<{ readonly loop: TasksResult; readonly runs: TasksResult }>; readonly ratio: number; readonly cpuRatio: number } | undefined
if (runs("loop")) {
  // One loop of 1,000 one-request iterations against 1,000 one-request runs, on one runner on the
  // embedded default, the loop's concurrency the runner's (its runs at once). Rounds alternate
  // the two (the machine's load moves a figure by ±10 % to ±50 %) and the medians are compared.
  const items = 1000
  const concurrency = 32
  const rounds: Array<{ loop: TasksResult; runs: TasksResult }> = []
  for (let round = 0; round < Number(process.env["BENCH_LOOP_ROUNDS"] ?? 3); round++) {
    const profile = process.env["BENCH_PROFILE"] === "1" && round === 0
    const runsRow = await oneTaskRunsBench(items, concurrency, profile)
    const loopRow = await loopBench(items, concurrency, profile)
    rounds.push({ loop: loopRow, runs: runsRow })
  }
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const loopPerSecond = median(rounds.map((r) => r.loop.perSecond))
  const runsPerSecond = median(rounds.map((r) => r.runs.perSecond))
  const loopCpu = median(rounds.map((r) => r.loop.cpuMsPerTask))
  const runsCpu = median(rounds.map((r) => r.runs.cpuMsPerTask))
  const ratio = loopPerSecond / runsPerSecond
  const cpuRatio = runsCpu / loopCpu
  loop = { rounds, ratio, cpuRatio }
  console.log(`\nA loop against one-task runs: one run's forEach over ${items} items of one getCard (concurrency ${concurrency}), and ${items} one-getCard runs, on one runner (--concurrency ${concurrency}, embedded SQLite, the sandbox without rate limits), committed once it serves; tasks/s from the first start to the last end, the runner's CPU per task; ${rounds.length} alternating rounds`)
  console.table(rounds.flatMap((r, round) =>
    ([["1 run, forEach", r.loop], ["one-task runs", r.runs]] as const).map(([what, row]) => ({
      round: round + 1,
      what,
      tasks: row.tasks,
      "tasks succeeded": row.reads,
      "runs succeeded": `${row.runsSucceeded} of ${row.runs}`,
      "tasks/s": Math.round(row.perSecond),
      "CPU ms/task": Number(row.cpuMsPerTask.toFixed(2))
    }))
  ))
  const complete = rounds.every((r) => r.loop.reads === items && r.loop.runsSucceeded === 1 && r.runs.reads === items && r.runs.runsSucceeded === items)
  console.log(`target: a loop's iteration costs no more engine time than a one-task run: medians ${Math.round(loopPerSecond)} ÷ ${Math.round(runsPerSecond)} tasks/s = ${ratio.toFixed(2)}× (≥ 1.0: ${
    ratio >= 1 ? "met" : "MISSED"
  }); CPU per task ${runsCpu.toFixed(2)} ÷ ${loopCpu.toFixed(2)} ms = ${cpuRatio.toFixed(2)}× (≥ 1.0: ${cpuRatio >= 1 ? "met" : "MISSED"}); every task run once and succeeded (${complete ? "met" : "MISSED"})`)
  const [first] = rounds
  if (first?.runs.profile !== undefined) printProfile(`the runner on the embedded database (${items} one-task runs)`, first.runs.profile)
  if (first?.loop.profile !== undefined) printProfile(`the runner on the embedded database (a loop of ${items})`, first.loop.profile)
}

let runnersRateLimit: RunnersRateLimitResult | undefined
if (runs("runners-ratelimit")) {
  const r = (runnersRateLimit = await runnersRateLimitBench())
  const share = r.answered429 / (r.calls + r.answered429)
  console.log(`\nRate limit across runners: two runners on one PostgreSQL and one Trello token, ${r.calls} createCard runs, the simulator allowing 100 per 10 s per token`)
  console.table([{
    completed: r.completed,
    failed: r.failed,
    "429s": r.answered429,
    "429 share": `${(share * 100).toFixed(2)} %`,
    "wall s": Number(r.wallSeconds.toFixed(2)),
    "minimum s": r.minimumSeconds,
    "× minimum": Number((r.wallSeconds / r.minimumSeconds).toFixed(3))
  }])
  console.log(`targets: 0 failures (${r.failed === 0 ? "met" : "MISSED"}), ≤ 2 % answered 429 (${share <= 0.02 ? "met" : "MISSED"}), wall ≤ 1.10× the minimum (${
    r.wallSeconds / r.minimumSeconds <= 1.1 ? "met" : "MISSED"
  })`)
}

let latency: { readonly latencyMs: number; readonly rounds: ReadonlyArray<{ readonly one: ExecutionResult; readonly two: ExecutionResult }>; readonly ratio: number } | undefined
if (runs("latency")) {
  // Steps that wait on the network: one runner's 32 runs at once, each waiting 100 ms, allow
  // ≈ 320 runs/s; enough runs that one runner takes ≥ 10 s. Rounds alternate one and two runners
  // (the machine's load moves a figure by ±10 % to ±50 %) and the medians are compared.
  const latencyMs = 100
  const concurrency = 32
  const count = Number(process.env["BENCH_LATENCY_RUNS"] ?? 3200)
  const rounds: Array<{ one: ExecutionResult; two: ExecutionResult }> = []
  for (let round = 0; round < Number(process.env["BENCH_LATENCY_ROUNDS"] ?? 3); round++) {
    const profile = process.env["BENCH_PROFILE"] === "1" && round === 0
    const one = await executionBench("postgres", 1, count, { latencyMs, concurrency, profile })
    const two = await executionBench("postgres", 2, count, { latencyMs, concurrency, profile })
    rounds.push({ one, two })
  }
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const onePerSecond = median(rounds.map((r) => r.one.perSecond))
  const twoPerSecond = median(rounds.map((r) => r.two.perSecond))
  const ratio = twoPerSecond / onePerSecond
  latency = { latencyMs, rounds, ratio }
  console.log(`\nLatency-bound execution: ${count} one-step runs (getCard; the Trello simulator in its own process answering each request after ${latencyMs} ms, no rate limits) committed before the runners start, --concurrency ${concurrency} each, one runner against two on one PostgreSQL; runs/s from the first start to the last end, the runs in flight (mean), the CPU per run of the runners, PostgreSQL and the simulator, PostgreSQL's transactions per run, the machine's CPU busy (others' work included); ${rounds.length} alternating rounds`)
  console.table(rounds.flatMap((r, round) =>
    [r.one, r.two].map((row) => ({
      round: round + 1,
      runners: row.label,
      runs: row.runs,
      succeeded: row.succeeded,
      "runs/s": Math.round(row.perSecond),
      "in flight": Math.round(row.meanRunning),
      "CPU ms/run: runners": Number(row.runnerCpuMsPerRun.toFixed(2)),
      PostgreSQL: Number(row.postgresCpuMsPerRun.toFixed(2)),
      "PostgreSQL transactions/run": Number(row.postgresTransactionsPerRun.toFixed(1)),
      simulator: Number(row.providerCpuMsPerRun.toFixed(2)),
      "machine busy": `${Math.round(row.machineBusy * 100)} %`
    }))
  ))
  const complete = rounds.every((r) => r.one.succeeded === count && r.two.succeeded === count)
  console.log(`target: two runners ≥ 1.8× one when steps wait on the provider: medians ${Math.round(twoPerSecond)} ÷ ${Math.round(onePerSecond)} runs/s = ${ratio.toFixed(2)}× (${
    ratio >= 1.8 ? "met" : "MISSED"
  }); every run succeeded (${complete ? "met" : "MISSED"})`)
  const [first] = rounds
  if (first?.one.profile !== undefined) printProfile("one runner on PostgreSQL (latency)", first.one.profile)
  if (first?.two.profile !== undefined) printProfile("the first of two runners on PostgreSQL (latency)", first.two.profile)
}

// The runner's engine against @effect/cluster's on SQLite, in processes of their own (engines.ts).
let engines: EnginesResult | undefined
if (runs("engines")) engines = await enginesPart()

// --- 4. the runs page's list ------------------------------------------------------------------

let runsPage: RunsPageResult | undefined
if (runs("runs-page")) {
  const r = (runsPage = await runsPageBench())
  console.log(`\nThe runs page's list: ${r.runs} runs (three tasks each) on the embedded database, each query ${r.iterations} times in sequence through RunStore, wall ms`)
  console.table(r.rows.map((row) => ({ query: row.query, rows: row.rows, "p50 ms": Number(row.p50Ms.toFixed(2)), "p99 ms": Number(row.p99Ms.toFixed(2)) })))
  const page = r.rows.find((row) => row.query === FIRST_PAGE)!
  const yardstick = r.rows.find((row) => row.query === YARDSTICK)!
  console.log(`target: the list's first page over ${r.runs} runs under 200 ms: p50 ${page.p50Ms.toFixed(2)} ms, p99 ${page.p99Ms.toFixed(2)} ms (${page.p99Ms < 200 ? "met" : "MISSED"}); ${
    (page.p50Ms / yardstick.p50Ms).toFixed(1)
  }× the yardstick's p50`)
  console.log(`\nWhat the page's indexes cost the runs' writes: ${r.writes[0]?.rounds.length} alternating rounds on two fresh files, migration 8's indexes against migration 7's, 32 at a time, runs/s`)
  console.table(r.writes.map((w) => ({
    writes: w.writes,
    "indexes 8 (median)": Math.round(w.medianIndexes8),
    "indexes 7 (median)": Math.round(w.medianIndexes7),
    "8 ÷ 7": Number((w.medianIndexes8 / w.medianIndexes7).toFixed(2)),
    rounds: w.rounds.map((m) => `${Math.round(m.indexes8)}/${Math.round(m.indexes7)}`).join(" ")
  })))
}

// --- 5. cold start -------------------------------------------------------------------------

let coldStart: ReturnType<typeof coldStartBench> | undefined
if (runs("coldstart")) {
  coldStart = coldStartBench()
  const c = coldStart
  const ratio = (ms: number, yardstick: number) => ms / yardstick
  const verdict = (value: number, target: number) => `${value.toFixed(2)}× (target ≤ ${target}×: ${value <= target ? "met" : "MISSED"})`
  console.log(`\nCold start, median of 7 fresh processes each, interleaved; node -e 0: ${c.nodeMs.toFixed(0)} ms`)
  console.log(`  x-runner --version: ${c.versionMs.toFixed(0)} ms, ${verdict(ratio(c.versionMs, c.nodeMs), 3)}`)
  console.log(`  x-runner --help (no component): ${c.helpMs.toFixed(0)} ms, ${ratio(c.helpMs, c.nodeMs).toFixed(2)}×`)
  console.log(`  x-runner describe boardtool/v1: ${c.describeBoardtoolMs.toFixed(0)} ms, ${verdict(ratio(c.describeBoardtoolMs, c.nodeMs), 6)}`)
  console.log(`  x-runner describe (every component): ${c.describeMs.toFixed(0)} ms, ${ratio(c.describeMs, c.nodeMs).toFixed(2)}×; unbundled ${c.describeUnbundledMs.toFixed(0)} ms`)
  console.log(`Importing a package in a fresh process, against effect + @effect/platform's entry points (${c.effectImportMs.toFixed(1)} ms):`)
  console.table(c.imports.map((i) => ({
    package: i.package,
    "import ms": Number(i.ms.toFixed(1)),
    "× effect+platform": Number(ratio(i.ms, c.effectImportMs).toFixed(2)),
    "target ≤ 1.15×": i.package === "@x/core" ? "" : ratio(i.ms, c.effectImportMs) <= 1.15 ? "met" : "MISSED"
  })))
}

const outDir = fileURLToPath(new URL("../../../bench-results/", import.meta.url))
mkdirSync(outDir, { recursive: true })
writeFileSync(
  `${outDir}bench.json`,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, v8Flags: [RUNNER_V8_FLAG], seconds, perCall, rateLimit, ingestion, execution, loop, runnersRateLimit, latency, engines, runsPage, coldStart }, null, 2)
)
console.log(`\nwritten to bench-results/bench.json`)
