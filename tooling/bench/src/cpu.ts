/**
 * `node tooling/bench/dist/cpu.js [part of a call title]`: the client's CPU time per call in
 * sequence, a step of ours against raw undici, for A/B comparisons of the hot path. Throughput
 * at concurrency 1 swings ±30 % on a shared machine; the CPU this process spends per call
 * (`process.cpuUsage()`, the simulators run in a process of their own) is what the ratio
 * depends on and swings far less. Short runs of each client alternate; the figures are the
 * 10th percentile and the median over the runs, and the median of ours ÷ undici per pair.
 *
 * BENCH_CPU_RUNS (default 16) and BENCH_CPU_SECONDS (default 0.25) set the runs per client,
 * BENCH_CPU_CONCURRENCY (default 1) the calls each run keeps in flight;
 * BENCH_CPU_PAIR ("<client>|<client>", default ours|raw undici) the two clients compared.
 */
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { asTheRunnersProcess, makeCalls, OURS, UNDICI } from "./calls.js"
import { alternatingCpuPerCall, quantile } from "./measure.js"
import type { Providers } from "./simulators.js"

asTheRunnersProcess()
const runs = Number(process.env["BENCH_CPU_RUNS"] ?? 16)
const seconds = Number(process.env["BENCH_CPU_SECONDS"] ?? 0.25)
const concurrency = Number(process.env["BENCH_CPU_CONCURRENCY"] ?? 1)
const only = process.argv[2]
const names = process.env["BENCH_CPU_PAIR"]?.split("|") ?? [OURS, UNDICI]

const simulators = fork(fileURLToPath(new URL("./simulators.js", import.meta.url)), { stdio: "inherit" })
const providers = await new Promise<Providers>((resolve) => simulators.once("message", (m: Providers) => resolve(m)))
const { calls, close } = makeCalls(providers)

const rows: Array<Record<string, unknown>> = []
for (const call of calls) {
  if (only !== undefined && !call.title.includes(only)) continue
  const pair = names.map((name) => call.clients.find((c) => c.name === name)!)
  if (pair.some((client) => client === undefined)) continue
  const [ours, undici] = await alternatingCpuPerCall(
    [(s) => pair[0]!.run(concurrency, s), (s) => pair[1]!.run(concurrency, s)],
    runs,
    seconds
  )
  rows.push({
    call: call.title.split(":")[0],
    [`${names[0]} µs p10`]: Number(quantile(ours, 0.1).toFixed(1)),
    [`${names[0]} µs p50`]: Number(quantile(ours, 0.5).toFixed(1)),
    [`${names[1]} µs p10`]: Number(quantile(undici, 0.1).toFixed(1)),
    [`${names[1]} µs p50`]: Number(quantile(undici, 0.5).toFixed(1)),
    ratio: Number(quantile(ours.map((o, i) => o / undici[i]!), 0.5).toFixed(2))
  })
}
console.log(`\nClient CPU per call, ${concurrency} at once, ${runs} alternating runs of ${seconds}s per client`)
console.table(rows)
await close()
simulators.disconnect()
