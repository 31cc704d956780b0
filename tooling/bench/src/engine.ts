/**
 * The runner's durable engine (`x-runner serve`, the bundle users run), measured:
 * 1. Ingestion on the embedded default: signed deliveries from autocannon; acknowledged
 *    deliveries per second and their latency once the runner is warm (a first load, reported
 *    too, and its runs ended), against a bare `node:http` server answering 200 under the same
 *    load just before, warmed the same way; then every accepted delivery's run awaited.
 * 2. Execution: one-step runs committed before the runners start, then runs per second from the
 *    first start to the last end: one runner on the embedded default, one runner on PostgreSQL,
 *    and two runners on one PostgreSQL (the engine's shards split over them).
 * 3. Rate limits with two runners on one Trello token (PostgreSQL, the shared limiter): a
 *    `createCard` per delivery against a simulator enforcing Trello's 100 requests per 10 s per
 *    token; failures, 429s and the wall time against the minimum.
 * 4. A loop's iterations against one-task runs: one run whose loop reads the card once per item
 *    of 1,000, beside 1,000 runs reading it once, on one runner (embedded): tasks per second and
 *    the runner's CPU per task.
 * 5. Latency-bound execution: part 2's one-step runs against a Trello simulator (a process of its
 *    own) answering each request after 100 ms, one runner against two on one PostgreSQL, each
 *    `--concurrency 32`: what a second runner adds when steps wait on the network.
 * The runs are counted from the runs' database (`xr_runs`), read-only.
 */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { closeSync, cpSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as TrelloSimulator from "@x/boardtool/testing"
import { Webhook } from "@x/core"
import * as Redacted from "effect/Redacted"
import { startPostgres } from "../../testing/postgres.mjs"
import { nowMicros, summarise, type ThreadProfile, type Window } from "./profile.js"
import { RUNNER_V8_FLAG } from "./calls.js"
import type { RateLimitResult } from "./ratelimit.js"

const require = createRequire(import.meta.url)
/** The runner's bundle; `XRUNNER_BUNDLE` names a copy of it, to measure one build while others rebuild `dist/bundle`. */
const cli = process.env["XRUNNER_BUNDLE"] ?? fileURLToPath(new URL("../../../apps/runner/dist/bundle/x-runner.js", import.meta.url))
/** The same runner unbundled (tsc's output; `XRUNNER_UNBUNDLED` names a copy of its main.js): a profile of it names each package its time goes to. */
const unbundledCli = process.env["XRUNNER_UNBUNDLED"] ?? fileURLToPath(new URL("../../../apps/runner/dist/main.js", import.meta.url))
const ingestWorkflow = fileURLToPath(new URL("../workflows/ingest.json", import.meta.url))
const ingestStaticWorkflow = fileURLToPath(new URL("../workflows/ingest-static.json", import.meta.url))

// The sandbox's well-known Trello values and its seeded records, and its Browser Use webhook secret.
const sandboxSecret = "sandbox-trello-secret"
const sandboxBrowserUseSecret = Redacted.make("sandbox-browser-use-webhook-secret")
const seeded = { board: "5eed00000000000000000002", list: "5eed00000000000000000003", card: "5eed0000000000000000000a", member: "5eed00000000000000000001" }

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Counts of the runs' table. */
export interface RunCounts {
  readonly accepted: number
  readonly finished: number
  readonly succeeded: number
  readonly failed: number
  /** Those started and not ended. */
  readonly running: number
  readonly firstStart: number | null
  readonly lastFinish: number | null
}

const countsQuery = `SELECT COUNT(*) AS accepted,
  SUM(CASE WHEN status IN ('succeeded', 'failed', 'unknown') THEN 1 ELSE 0 END) AS finished,
  SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
  SUM(CASE WHEN status IN ('failed', 'unknown') THEN 1 ELSE 0 END) AS failed,
  SUM(CASE WHEN status = 'running' THEN 1 ELSE 0 END) AS running,
  MIN(started_at) AS first_start, MAX(finished_at) AS last_finish FROM xr_runs`

const toCounts = (row: Record<string, unknown>): RunCounts => ({
  accepted: Number(row["accepted"] ?? 0),
  finished: Number(row["finished"] ?? 0),
  succeeded: Number(row["succeeded"] ?? 0),
  failed: Number(row["failed"] ?? 0),
  running: Number(row["running"] ?? 0),
  firstStart: row["first_start"] === null ? null : Number(row["first_start"]),
  lastFinish: row["last_finish"] === null ? null : Number(row["last_finish"])
})

/** The runs of an embedded data directory, read-only. */
const embeddedCounts = (dataDir: string) => {
  const Database = require("better-sqlite3") as new(file: string, options: { readonly: boolean }) => {
    prepare: (sql: string) => { get: () => Record<string, unknown> }
    close: () => void
  }
  return async (): Promise<RunCounts> => {
    const db = new Database(join(dataDir, "runs.db"), { readonly: true })
    try {
      return toCounts(db.prepare(countsQuery).get())
    } finally {
      db.close()
    }
  }
}

/** The first row a query of a PostgreSQL answers, on a connection of its own. */
const postgresRow = async (url: string, sql: string) => {
  const { Client } = require("pg") as { Client: new(options: { connectionString: string }) => { connect: () => Promise<void>; query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>; end: () => Promise<void> } }
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows[0]!
  } finally {
    await client.end()
  }
}

/** The runs of a PostgreSQL. */
const postgresCounts = (url: string) => async (): Promise<RunCounts> => toCounts(await postgresRow(url, countsQuery))

/** The transactions a PostgreSQL's database has ended so far (committed or rolled back; the statistics lag up to half a second). */
const postgresTransactions = async (url: string) =>
  Number((await postgresRow(url, "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()"))["n"])

interface Runner {
  readonly process: ChildProcess
  readonly log: () => string
  readonly pid: number
}

/** `x-runner serve` in a process of its own, its output in a file, once it serves. */
const startRunner = async (args: ReadonlyArray<string>, dir: string, name: string, env: Record<string, string> = {}, profile = false): Promise<Runner> => {
  const logFile = join(dir, `${name}.log`)
  const out = openSync(logFile, "w")
  // The unbundled main.js is not bin.ts, which sets the runner's V8 flag for `serve`: given here.
  const child = spawn(process.execPath, [...(profile ? [RUNNER_V8_FLAG, "--cpu-prof", `--cpu-prof-dir=${join(dir, `${name}-profile`)}`, unbundledCli] : [cli]), "serve", ...args], {
    stdio: ["ignore", out, out],
    env: { ...process.env, ...env }
  })
  closeSync(out)
  const log = () => readFileSync(logFile, "utf8")
  const deadline = Date.now() + 60_000
  while (!log().includes("● serving")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL")
      throw new Error(`${name} did not start:\n${log().slice(-2000)}`)
    }
    await sleep(100)
  }
  return { process: child, log, pid: child.pid! }
}

const stop = async (runner: Runner) => {
  runner.process.kill("SIGTERM")
  await new Promise((resolve) => runner.process.exitCode !== null ? resolve(undefined) : runner.process.once("exit", resolve))
}

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) / 1024

/** Trello's delivery of a new card in the sandbox's To Do list (its seeded card), a new action id each. */
const trelloDelivery = (actionId: string) =>
  JSON.stringify({
    model: { id: seeded.list, name: "To Do", idBoard: seeded.board, closed: false, pos: 16384 },
    action: {
      id: actionId,
      idMemberCreator: seeded.member,
      type: "createCard",
      date: new Date().toISOString(),
      data: {
        card: { id: seeded.card, name: "Write the launch post", idShort: 1, shortLink: "aBcDeFgH" },
        list: { id: seeded.list, name: "To Do" },
        board: { id: seeded.board, name: "Product Roadmap", shortLink: "rOaDmApX" }
      },
      memberCreator: { id: seeded.member, username: "simulated" }
    }
  })

/**
 * What is delivered: Trello's `newCard` (signed over body and URL; accepting it reads the card
 * from the provider) or Browser Use's task webhook (signed over timestamp and payload; nothing
 * read).
 */
export type IngestionTrigger = "newCard" | "taskStatusChanged"

let nextAction = 0
/** A signed delivery, a new event id each. */
const delivery = (trigger: IngestionTrigger, publicUrl: string) => {
  const n = nextAction++
  if (trigger === "newCard") {
    const body = trelloDelivery(`${(0xbe0000000000 + n).toString(16).padStart(24, "0")}`)
    const signature = createHmac("sha1", sandboxSecret).update(body + publicUrl).digest("base64")
    return { body, headers: { "content-type": "application/json", "x-trello-webhook": signature } }
  }
  const timestamp = String(Math.floor(Date.now() / 1000))
  const payload = { type: "agent.task.status_update", timestamp, payload: { task_id: `task-${n}`, session_id: `session-${n}`, status: "stopped" } }
  return {
    body: JSON.stringify(payload),
    headers: {
      "content-type": "application/json",
      "x-browser-use-timestamp": timestamp,
      "x-browser-use-signature": Webhook.hmacSha256SortedJsonHex(sandboxBrowserUseSecret, timestamp, payload)
    }
  }
}

/**
 * Deliveries signed before the load starts, so that signing them does not slow the load
 * (autocannon runs on the bench's thread): several times what the runner acknowledges in a run
 * (1,700–2,700 a second for 3 s, RESULTS.md); past them, each is signed as it is sent. The
 * yardstick, which keeps nothing, cycles through them.
 */
const signedBefore = 30_000

/** A source of signed deliveries, each a new event (`fresh`), or the first `signedBefore` over and over (`cycled`: for the yardstick, which keeps nothing). */
const deliveries = (trigger: IngestionTrigger, publicUrl: string, mode: "fresh" | "cycled") => {
  const signed = Array.from({ length: signedBefore }, () => delivery(trigger, publicUrl))
  let sent = 0
  return () => {
    const n = sent++
    return n < signed.length ? signed[n]! : mode === "cycled" ? signed[n % signed.length]! : delivery(trigger, publicUrl)
  }
}

/** Signed deliveries from autocannon to one port (the public URL is what is signed). */
const load = async (
  trigger: IngestionTrigger,
  port: number,
  publicUrl: string,
  options: { readonly connections: number; readonly seconds: number; readonly mode: "fresh" | "cycled"; readonly rate?: number | undefined }
) => {
  const next = deliveries(trigger, publicUrl, options.mode)
  const fromMicros = nowMicros()
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${new URL(publicUrl).pathname}`,
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
    requests: [{ method: "POST", setupRequest: (request) => ({ ...request, ...next() }) }]
  })
  // When the load ran, as the profiles' samples are stamped.
  return { result, window: { fromMicros, toMicros: nowMicros() } }
}

/**
 * The yardstick of ingestion: a bare `node:http` server answering 200 once it has read the body,
 * in a process of its own (it shares no event loop with the bench), loaded by autocannon with
 * the same connections, seconds and signed deliveries as the runner, once to warm it as the
 * runner is warmed and once measured: the requests per second that HTTP alone allows on this
 * machine now.
 */
const bareHttpBench = async (trigger: IngestionTrigger, options: { readonly connections: number; readonly seconds: number }) => {
  const child = spawn(process.execPath, ["-e", `const server = require("node:http").createServer((req, res) => {
  req.on("data", () => {})
  req.on("end", () => res.end("ok"))
}).listen(0, "127.0.0.1", () => console.log(server.address().port))`], { stdio: ["ignore", "pipe", "inherit"] })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())))
      child.once("exit", (code) => reject(new Error(`the bare node:http server exited (${code})`)))
    })
    await load(trigger, port, `http://127.0.0.1:${port}/hooks/ingest`, { ...options, mode: "cycled" })
    const { result } = await load(trigger, port, `http://127.0.0.1:${port}/hooks/ingest`, { ...options, mode: "cycled" })
    return { perSecond: result["2xx"] / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99 }
  } finally {
    child.kill("SIGKILL")
  }
}

/** Waits until every accepted run has ended; the runs per second from the load's end to the last end. */
const drain = async (counts: () => Promise<RunCounts>, loadEnded: number, timeoutMs: number) => {
  const atLoadEnd = await counts()
  const deadline = Date.now() + timeoutMs
  let now = atLoadEnd
  while (now.finished < now.accepted) {
    if (Date.now() > deadline) break
    await sleep(250)
    now = await counts()
  }
  const seconds = ((now.lastFinish ?? Date.now()) - loadEnded) / 1000
  return { counts: now, drainedAfterLoad: now.finished - atLoadEnd.finished, perSecond: (now.finished - atLoadEnd.finished) / Math.max(seconds, 0.001), seconds }
}

/**
 * The profiles of a runner summarised (the samples within `window`: the load's), and kept in
 * `BENCH_PROFILE_DIR/<name>` when that is set, to be read further (the bench's own directory
 * is removed).
 */
const keptProfile = (dir: string, name: string, window: Window) => {
  const keep = process.env["BENCH_PROFILE_DIR"]
  if (keep !== undefined) {
    cpSync(dir, join(keep, name), { recursive: true })
    writeFileSync(join(keep, name, "window.json"), JSON.stringify(window))
  }
  return summarise(dir, 15, window)
}

export interface IngestionResult {
  readonly trigger: IngestionTrigger
  readonly seconds: number
  readonly connections: number
  /** Sent in both loads, and of those not answered 2xx, or not answered. */
  readonly sent: number
  readonly refused: number
  readonly errors: number
  /** The measured load's. */
  readonly acknowledged: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMb: number
  /** Accepted by the runner in both loads. */
  readonly accepted: number
  /** Acknowledged in both loads (`acknowledged` is the measured one's). */
  readonly acknowledgedInAll: number
  readonly runs: number
  readonly runsSucceeded: number
  readonly drainSeconds: number
  /** One-step runs per second once the deliveries stopped (execution alone). */
  readonly executionPerSecond: number
  /** The serving (main) thread's CPU while the load ran, per acknowledged delivery (from /proc, 10 ms ticks). */
  readonly servingCpuUsPerDelivery: number
  /** The serve process's (every thread's: the engine's runs too) over the same time, per acknowledged delivery. */
  readonly processCpuUsPerDelivery: number
  /** The yardstick measured just before, by the same load: a bare `node:http` server answering 200. */
  readonly bareHttp: { readonly perSecond: number; readonly p50Ms: number; readonly p99Ms: number }
  /**
   * The first load, on the runner just started (the figures above are the second's, once the
   * first's runs have ended): V8 compiles the hot path meanwhile, on threads beside the serving one.
   */
  readonly cold: LoadFigures
  /** With BENCH_PROFILE=1: where each thread of the serve process spent its time (the measured load's). */
  readonly profile?: ReadonlyArray<ThreadProfile> | undefined
}

/** One load's figures. */
export interface LoadFigures {
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly acknowledged: number
  readonly servingCpuUsPerDelivery: number
  readonly processCpuUsPerDelivery: number
}

/**
 * The Trello simulator (the sandbox's credentials and seed) in a process of its own: the provider
 * is not served by the runner's serving thread. `latencyMs` holds each of its answers that long.
 */
const startTrelloProcess = async (dir: string, latencyMs = 0) => {
  const script = join(dir, "trello.mjs")
  writeFileSync(script, `import * as Simulator from ${JSON.stringify(import.meta.resolve("@x/boardtool/testing"))}
const sim = await Simulator.start({ key: "sandbox-trello-key", token: "sandbox-trello-token", secret: ${JSON.stringify(sandboxSecret)}, rateLimits: false, latencyMs: ${latencyMs} })
console.log(JSON.stringify({ key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl }))\n`)
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] })
  const connection = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!))
    })
    child.once("exit", (code) => reject(new Error(`the Trello simulator exited (${code})`)))
  })
  // The connections file a runner is given (`--connections`) for it.
  const connectionsFile = join(dir, "connections.json")
  writeFileSync(connectionsFile, JSON.stringify({
    boardtool: connection,
    // Nothing is requested from Browser Use: its deliveries are only verified.
    browseragent: { value: "bu_bench_unused_key", webhookSecret: Redacted.value(sandboxBrowserUseSecret), baseUrl: "http://127.0.0.1:9/api/v3" }
  }), { mode: 0o600 })
  return { connectionsFile, pid: child.pid!, stop: () => void child.kill("SIGKILL") }
}

/**
 * Parts 1 and 2 (embedded): deliveries for `seconds` on the runner just started, the drain of
 * their runs, then deliveries for `seconds` again, measured, and their drain. The first load
 * warms the runner as hours of serving would (V8 compiles the hot path on threads of its own
 * meanwhile: RESULTS.md, "warm"), and is reported too (`cold`); the yardstick is warmed the same
 * way. The runner serves the sandbox's credentials and seed, but the Trello simulator runs in a
 * process of its own (a provider is elsewhere; in `--sandbox` it would be served by the thread
 * that acknowledges).
 */
export const ingestionBench = async (
  trigger: IngestionTrigger,
  seconds = 3,
  connections = 16,
  profile = process.env["BENCH_PROFILE"] === "1",
  // BENCH_INGESTION_RATE=<deliveries/s>: the runner's load paced at that rate (the yardstick's
  // is not), so that its latency is seen below saturation, where a stall shows in the p99
  // instead of the queue of a thread that is never idle.
  rate = Number(process.env["BENCH_INGESTION_RATE"] ?? "") || undefined
): Promise<IngestionResult> => {
  const bareHttp = await bareHttpBench(trigger, { connections, seconds })
  const dir = mkdtempSync(join(tmpdir(), "x-runner-ingest-"))
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}/hooks/ingest`
  const workflow = trigger === "newCard" ? ingestWorkflow : ingestStaticWorkflow
  const trello = await startTrelloProcess(dir)
  const runner = await startRunner(
    ["--connections", trello.connectionsFile, "--without-rate-limits", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", join(dir, "data")],
    dir,
    "serve",
    {},
    profile
  ).catch((error) => {
    trello.stop()
    throw error
  })
  let stopped = false
  try {
    const counts = embeddedCounts(join(dir, "data"))
    const measured = async () => {
      const cpuBefore = { serving: cpuMs(runner.pid, runner.pid), all: cpuMs(runner.pid) }
      const { result, window } = await load(trigger, port, publicUrl, { connections, seconds, mode: "fresh", rate })
      const cpu = { serving: cpuMs(runner.pid, runner.pid) - cpuBefore.serving, all: cpuMs(runner.pid) - cpuBefore.all }
      const acknowledged = result["2xx"]
      const figures: LoadFigures = {
        perSecond: acknowledged / result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        acknowledged,
        servingCpuUsPerDelivery: cpu.serving * 1000 / Math.max(acknowledged, 1),
        processCpuUsPerDelivery: cpu.all * 1000 / Math.max(acknowledged, 1)
      }
      const drained = await drain(counts, Date.now(), 300_000)
      return { result, window, figures, drained }
    }
    const cold = await measured()
    const warm = await measured()
    const rss = peakRssMb(runner.pid)
    await stop(runner)
    stopped = true
    return {
      trigger,
      seconds,
      connections,
      sent: cold.result.requests.sent + warm.result.requests.sent,
      acknowledged: warm.figures.acknowledged,
      refused: cold.result.non2xx + warm.result.non2xx,
      errors: cold.result.errors + cold.result.timeouts + warm.result.errors + warm.result.timeouts,
      perSecond: warm.figures.perSecond,
      p50Ms: warm.figures.p50Ms,
      p99Ms: warm.figures.p99Ms,
      peakRssMb: rss,
      // Both loads' runs: every delivery either acknowledged is run once.
      accepted: warm.drained.counts.accepted,
      acknowledgedInAll: cold.figures.acknowledged + warm.figures.acknowledged,
      runs: warm.drained.counts.finished,
      runsSucceeded: warm.drained.counts.succeeded,
      drainSeconds: warm.drained.seconds,
      executionPerSecond: warm.drained.perSecond,
      bareHttp,
      servingCpuUsPerDelivery: warm.figures.servingCpuUsPerDelivery,
      processCpuUsPerDelivery: warm.figures.processCpuUsPerDelivery,
      cold: cold.figures,
      profile: profile ? keptProfile(join(dir, "serve-profile"), `ingestion-${trigger}`, warm.window) : undefined
    }
  } finally {
    if (!stopped) await stop(runner)
    trello.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface ExecutionResult {
  readonly label: string
  readonly runners: number
  readonly runs: number
  readonly succeeded: number
  readonly perSecond: number
  /** The runners' CPU (every thread of every runner) from the first one serving to the last run's end, per run. */
  readonly runnerCpuMsPerRun: number
  /** PostgreSQL's CPU (its server and sessions) over the same time, per run (NaN on the embedded database). */
  readonly postgresCpuMsPerRun: number
  /** The provider's (the simulator's process, when not the sandbox) over the same time, per run (NaN otherwise). */
  readonly providerCpuMsPerRun: number
  /** PostgreSQL's transactions over the same time (the runners' and the bench's few), per run (NaN on the embedded database). */
  readonly postgresTransactionsPerRun: number
  /** The machine's CPU busy over the same time (everything on it: PostgreSQL, the simulator, the bench, other work), 0–1. */
  readonly machineBusy: number
  /** The runs started and not ended, on average over the time (sampled every 250 ms): what the runners kept in flight. */
  readonly meanRunning: number
  /** With BENCH_PROFILE=1 (one runner on the embedded database): where each of its threads spent its time. */
  readonly profile?: ReadonlyArray<ThreadProfile> | undefined
}

/** The event of a seeded run: the sandbox's seeded card, as newCard outputs it. */
const seededEvent = JSON.stringify({ id: seeded.card, name: "Write the launch post", desc: "", idBoard: seeded.board, idList: seeded.list })
const insertRun = "INSERT INTO xr_runs (id, workflow, event_id, event, status, accepted_at) VALUES ($1, 'ingest', $2, $3, 'accepted', $4)"

/** `runs` rows for `insertRun`: runs of the seeded card's event, their ids from `firstId` on. */
const seededRuns = (runs: number, firstId: number) =>
  Array.from({ length: runs }, (_, n) => [`${(firstId + n).toString(16)}00000000`, `seeded-${n}`, seededEvent, Date.now()] as const)

/** Runs committed in an embedded data directory's runs' table (rows for `insertRun`), in one transaction. */
const insertEmbeddedRuns = (dataDir: string, rows: ReadonlyArray<ReadonlyArray<unknown>>, statement = insertRun) => {
  const Database = require("better-sqlite3") as new(file: string) => {
    prepare: (sql: string) => { run: (...values: ReadonlyArray<unknown>) => unknown }
    transaction: (f: () => void) => () => void
    close: () => void
  }
  const db = new Database(join(dataDir, "runs.db"))
  try {
    const insert = db.prepare(statement.replace(/\$\d/g, "?"))
    db.transaction(() => {
      for (const row of rows) insert.run(...row)
    })()
  } finally {
    db.close()
  }
}

/** Runs committed in a PostgreSQL's runs' table (rows for `insertRun`), in one transaction. */
const insertPostgresRuns = async (url: string, rows: ReadonlyArray<ReadonlyArray<unknown>>) => {
  const { Client } = require("pg") as { Client: new(options: { connectionString: string }) => { connect: () => Promise<void>; query: (sql: string, values?: ReadonlyArray<unknown>) => Promise<unknown>; end: () => Promise<void> } }
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN")
    for (const row of rows) await client.query(insertRun, row)
    await client.query("COMMIT")
  } finally {
    await client.end()
  }
}

/** The machine's CPU time so far, busy and in all, in clock ticks (`/proc/stat`'s first line). */
const machineCpu = () => {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!
  return { busy: total - idle! - iowait!, total }
}

/** The processes whose parent is `pid`. */
const childrenOf = (pid: number) =>
  readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number).filter((child) => {
    try {
      const stat = readFileSync(`/proc/${child}/stat`, "utf8")
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid
    } catch {
      return false
    }
  })

/** The CPU so far of the PostgreSQL serving `port` (its server process, found by its command line, and its sessions), in milliseconds. */
const postgresCpuMs = (port: number) => {
  const server = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number).find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      return basename(args[0] ?? "") === "postgres" && args.join(" ").includes(`-p ${port} `)
    } catch {
      return false
    }
  })
  if (server === undefined) return Number.NaN
  return [server, ...childrenOf(server)].reduce((sum, pid) => {
    try {
      return sum + cpuMs(pid)
    } catch {
      return sum
    }
  }, 0)
}

/** With BENCH_PG_TABLES=1: each table's row writes and scans since PostgreSQL started, per run (what a run costs the database, by table). */
const printTableActivity = async (url: string, label: string, runs: number) => {
  const { Client } = require("pg") as { Client: new(options: { connectionString: string }) => { connect: () => Promise<void>; query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>; end: () => Promise<void> } }
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query(
      "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, seq_scan, idx_scan FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del + seq_scan + COALESCE(idx_scan, 0) > 0 ORDER BY relname"
    )
    const per = (value: unknown) => Number((Number(value ?? 0) / Math.max(runs, 1)).toFixed(2))
    console.log(`\nPostgreSQL's tables per run (${label}, ${runs} runs; the setup's and the bench's own included):`)
    console.table(rows.map((row) => ({
      table: row["relname"],
      inserts: per(row["n_tup_ins"]),
      updates: per(row["n_tup_upd"]),
      deletes: per(row["n_tup_del"]),
      "sequential scans": per(row["seq_scan"]),
      "index scans": per(row["idx_scan"])
    })))
  } finally {
    await client.end()
  }
}

/**
 * Runs per second from the first run's start to the last one's end, once `runs` have ended; the
 * CPU spent from the call on, by the runners, PostgreSQL (on `postgresPort`) and the provider's
 * process (`providerPid`), and the runs in flight.
 */
const executed = async (
  counts: () => Promise<RunCounts>,
  runs: number,
  label: string,
  runners: ReadonlyArray<Runner>,
  others: { readonly postgres?: { readonly url: string; readonly port: number } | undefined; readonly providerPid?: number | undefined } = {}
): Promise<ExecutionResult> => {
  const transactions = () => others.postgres === undefined ? Promise.resolve(Number.NaN) : postgresTransactions(others.postgres.url)
  const spent = () => ({
    runners: runners.reduce((sum, runner) => sum + cpuMs(runner.pid), 0),
    postgres: others.postgres === undefined ? Number.NaN : postgresCpuMs(others.postgres.port),
    provider: others.providerPid === undefined ? Number.NaN : cpuMs(others.providerPid),
    machine: machineCpu()
  })
  const before = { ...spent(), transactions: await transactions() }
  const deadline = Date.now() + 300_000
  let now = await counts()
  const running: Array<number> = []
  while (now.finished < runs && Date.now() < deadline) {
    await sleep(250)
    now = await counts()
    if (now.finished < runs) running.push(now.running)
  }
  const after = spent()
  // The statistics collector reports what a session did at most every 0.5 s.
  await sleep(1000)
  const transactionsAfter = await transactions()
  if (process.env["BENCH_PG_TABLES"] === "1" && others.postgres !== undefined) await printTableActivity(others.postgres.url, label, now.finished)
  const perRun = (ms: number) => ms / Math.max(now.finished, 1)
  const seconds = ((now.lastFinish ?? 0) - (now.firstStart ?? 0)) / 1000
  return {
    label,
    runners: runners.length,
    runs: now.finished,
    succeeded: now.succeeded,
    perSecond: now.finished / Math.max(seconds, 0.001),
    runnerCpuMsPerRun: perRun(after.runners - before.runners),
    postgresCpuMsPerRun: perRun(after.postgres - before.postgres),
    providerCpuMsPerRun: perRun(after.provider - before.provider),
    postgresTransactionsPerRun: perRun(transactionsAfter - before.transactions),
    machineBusy: (after.machine.busy - before.machine.busy) / Math.max(after.machine.total - before.machine.total, 1),
    meanRunning: running.reduce((sum, n) => sum + n, 0) / Math.max(running.length, 1)
  }
}

/** How the execution part's runs are run. */
export interface ExecutionOptions {
  /** Profile the first runner (BENCH_PROFILE=1). */
  readonly profile?: boolean
  /**
   * The provider: by default each runner's sandbox (`--sandbox`); with `latencyMs`, a Trello
   * simulator in a process of its own (the sandbox's credentials and seed) holding each answer
   * that long, shared by the runners, as a provider far away is.
   */
  readonly latencyMs?: number
  /** Each runner's `--concurrency` (the runner's default when absent). */
  readonly concurrency?: number
}

/**
 * Part 2, execution alone: `runs` one-step runs committed before any runner serves (as
 * deliveries accepted during a stop would be), then one runner on the embedded default, or one
 * or two runners on PostgreSQL, started: runs per second from the first start to the last end.
 * The latency part runs the same against a provider whose answers wait (`options.latencyMs`).
 */
export const executionBench = async (where: "embedded" | "postgres", runners: 1 | 2, runs = 3000, options: ExecutionOptions = {}): Promise<ExecutionResult> => {
  const { concurrency, latencyMs, profile = false } = options
  const dir = mkdtempSync(join(tmpdir(), "x-runner-execution-"))
  const postgres = where === "postgres" ? await startPostgres() : undefined
  const trello = latencyMs === undefined ? undefined : await startTrelloProcess(dir, latencyMs)
  const started: Array<Runner> = []
  // One public URL for every runner (a load balancer's; here the first runner's port, where the
  // provider's check of it is answered): the webhook is registered once, for it.
  const ports = [await freePort(), await freePort()]
  const publicUrl = `http://127.0.0.1:${ports[0]}/hooks/ingest`
  const serveArgs = async (i: number) => {
    const port = ports[i]!
    return [
      ...(trello === undefined ? ["--sandbox"] : ["--connections", trello.connectionsFile]),
      "--without-rate-limits", ingestWorkflow, "--public-url", publicUrl, "--port", String(port),
      ...(concurrency === undefined ? [] : ["--concurrency", String(concurrency)]),
      ...(postgres === undefined ? ["--data-dir", join(dir, "data")] : ["--database", postgres.url, "--data-dir", join(dir, `data-${i}`)])
    ]
  }
  try {
    // The tables first (a runner started and stopped), then the runs.
    await stop(await startRunner(await serveArgs(0), dir, "setup"))
    const rows = seededRuns(runs, 0xe0000000)
    let counts: () => Promise<RunCounts>
    if (postgres === undefined) {
      insertEmbeddedRuns(join(dir, "data"), rows)
      counts = embeddedCounts(join(dir, "data"))
    } else {
      await insertPostgresRuns(postgres.url, rows)
      counts = postgresCounts(postgres.url)
    }
    // Started at once: a runner started after another would find it running alone, and the
    // cluster engine would then move half of its shards (and their runs in flight) to it.
    const starting = await Promise.allSettled(Array.from({ length: runners }, async (_, i) => startRunner(await serveArgs(i), dir, `runner-${i}`, {}, profile)))
    for (const outcome of starting) if (outcome.status === "fulfilled") started.push(outcome.value)
    for (const outcome of starting) if (outcome.status === "rejected") throw outcome.reason
    const result = await executed(counts, runs, `${runners} runner${runners === 1 ? "" : "s"}, ${where === "postgres" ? "PostgreSQL" : "embedded SQLite"}`, started, {
      postgres,
      providerPid: trello?.pid
    })
    if (result.succeeded < runs) for (const runner of started) for (const line of runner.log().split("\n").filter((l) => l.startsWith("✘")).slice(0, 5)) console.log(`  runner: ${line}`)
    if (!profile) return result
    // The profiles are written when the runner exits.
    for (const runner of started.splice(0)) await stop(runner)
    return { ...result, profile: summarise(join(dir, "runner-0-profile")) }
  } finally {
    for (const runner of started) await stop(runner)
    trello?.stop()
    await postgres?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The figures of a number of `getCard` tasks run on one runner: in one run's loop, or one run each. */
export interface TasksResult {
  readonly tasks: number
  readonly runs: number
  readonly runsSucceeded: number
  /** The `getCard` tasks the runs recorded as succeeded (each task once: `tasks`). */
  readonly reads: number
  /** From the first run's start to the last one's end. */
  readonly seconds: number
  /** Tasks per second over `seconds`. */
  readonly perSecond: number
  /** The runner's CPU (all its threads: the engine's, the serving one with the sandbox, the garbage collector's) from the runs' commit to their end, per task. */
  readonly cpuMsPerTask: number
  /** With BENCH_PROFILE=1: where each of the runner's threads spent its time. */
  readonly profile?: ReadonlyArray<ThreadProfile> | undefined
}

/** The CPU a process has used, in milliseconds (user and system, all its threads; `thread`: that one alone, the main one's id being the process's). */
const cpuMs = (pid: number, thread?: number) => {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8")
  // The fields after the command's name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The `getCard` tasks an embedded data directory's runs recorded as succeeded, read-only. */
const succeededReads = (dataDir: string) => {
  const Database = require("better-sqlite3") as new(file: string, options: { readonly: boolean }) => {
    prepare: (sql: string) => { get: () => { reads: number } }
    close: () => void
  }
  const db = new Database(join(dataDir, "runs.db"), { readonly: true })
  try {
    return Number(db.prepare("SELECT COUNT(*) AS reads FROM xr_steps WHERE type = 'boardtool/v1/getCard' AND status = 'succeeded'").get().reads)
  } finally {
    db.close()
  }
}

/**
 * The loop's workflow: ingest.json's trigger and its one task (a `getCard` of the trigger's
 * card, the request each one-task run sends), inside a loop over the `items` numbers of an
 * input (CEL has no range, and an expression is at most 2,000 characters), `concurrency`
 * iterations at once.
 */
const loopWorkflow = (items: number, concurrency: number) => {
  const ingest = JSON.parse(readFileSync(ingestWorkflow, "utf8")) as { triggers: ReadonlyArray<unknown>; tasks: ReadonlyArray<unknown> }
  return {
    label: "Loop benchmark: read the new card once per item",
    description: `Served by the loop part of pnpm bench on the sandbox without rate limits: ingest.json's task in a loop of ${items} iterations, ${concurrency} at once.`,
    inputs: { items: Array.from({ length: items }, (_, n) => n) },
    triggers: ingest.triggers,
    tasks: [{ label: "Read the card once per item", name: "reads", forEach: "inputs.items", as: "item", concurrency, tasks: ingest.tasks }]
  }
}

/**
 * `runs` runs of a workflow on one runner on the embedded default, `--concurrency` given, the
 * sandbox without rate limits: the runner started and idle, the runs committed at once (its
 * dispatcher's poll finds them within a second), then awaited. Unlike the execution part, the
 * runs are committed after the start so that the runner's CPU is read around them alone.
 */
const tasksBench = async (workflow: string, runs: number, tasks: number, concurrency: number, profile: boolean): Promise<TasksResult> => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-tasks-"))
  const port = await freePort()
  const name = basename(workflow).replace(/\.json$/, "")
  let runner: Runner | undefined
  try {
    runner = await startRunner([
      "--sandbox", "--without-rate-limits", workflow, "--public-url", `http://127.0.0.1:${port}/hooks/${name}`, "--port", String(port),
      "--concurrency", String(concurrency), "--data-dir", join(dir, "data")
    ], dir, "runner-0", {}, profile)
    // What is left of its start (the webhook's registration) done.
    await sleep(500)
    const cpuBefore = cpuMs(runner.pid)
    insertEmbeddedRuns(join(dir, "data"), seededRuns(runs, 0xe1000000), insertRun.replace("'ingest'", `'${name}'`))
    const counts = embeddedCounts(join(dir, "data"))
    const deadline = Date.now() + 300_000
    let now = await counts()
    while (now.finished < runs && Date.now() < deadline) {
      await sleep(100)
      now = await counts()
    }
    const cpu = cpuMs(runner.pid) - cpuBefore
    if (now.succeeded < runs) for (const line of runner.log().split("\n").filter((l) => l.startsWith("✘")).slice(0, 5)) console.log(`  runner: ${line}`)
    const seconds = ((now.lastFinish ?? Date.now()) - (now.firstStart ?? Date.now())) / 1000
    const result: TasksResult = {
      tasks,
      runs: now.finished,
      runsSucceeded: now.succeeded,
      reads: succeededReads(join(dir, "data")),
      seconds,
      perSecond: tasks / Math.max(seconds, 0.001),
      cpuMsPerTask: cpu / tasks
    }
    if (!profile) return result
    // The profiles are written when the runner exits.
    await stop(runner)
    runner = undefined
    return { ...result, profile: summarise(join(dir, "runner-0-profile")) }
  } finally {
    if (runner !== undefined) await stop(runner)
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Part 4, a loop on the engine: one run whose loop reads the seeded card once per item of
 * `items`, `concurrency` iterations at once, the runner's `--concurrency` the same.
 */
export const loopBench = async (items = 1000, concurrency = 32, profile = false): Promise<TasksResult> => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-loop-"))
  const workflow = join(dir, "loop.json")
  writeFileSync(workflow, JSON.stringify(loopWorkflow(items, concurrency), null, 2))
  try {
    return await tasksBench(workflow, 1, items, concurrency, profile)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Beside it, as many one-task runs (ingest.json's: the same `getCard`), `concurrency` at once. */
export const oneTaskRunsBench = (runs = 1000, concurrency = 32, profile = false): Promise<TasksResult> =>
  tasksBench(ingestWorkflow, runs, runs, concurrency, profile)

/** The same figures as the one-process rate-limit part's. */
export type RunnersRateLimitResult = RateLimitResult

/**
 * Part 3: two runners on one PostgreSQL and one Trello token, a `createCard` per delivery
 * (Browser Use's static webhook as the trigger: no request of its own), against a simulator
 * enforcing Trello's 100 requests per 10 s per token. The minimum is calls ÷ the allowed rate.
 */
export const runnersRateLimitBench = async (calls = 300): Promise<RunnersRateLimitResult> => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-limits-"))
  const postgres = await startPostgres()
  const trello = await TrelloSimulator.start({ seed: true, rateLimits: { perToken: { limit: 100, intervalMs: 10_000 }, perKey: { limit: 300, intervalMs: 10_000 } } })
  const webhookSecret = "bench-browser-use-webhook-secret"
  const connections = join(dir, "connections.json")
  writeFileSync(connections, JSON.stringify({
    boardtool: { key: trello.key, token: trello.token, baseUrl: trello.baseUrl },
    browseragent: { value: "bu_bench_unused_key", webhookSecret }
  }), { mode: 0o600 })
  const workflow = join(dir, "card-per-task.json")
  writeFileSync(workflow, JSON.stringify({
    label: "A card for every finished task",
    triggers: [{ label: "A task ended", name: "ended", type: "browseragent/v1/taskStatusChanged", parameters: { statuses: ["stopped"] } }],
    tasks: [{ label: "Record it", name: "card", type: "boardtool/v1/createCard", parameters: { idList: TrelloSimulator.seed.lists.roadmapToDo, name: "Task ${trigger.taskId}" } }]
  }))
  const started: Array<Runner> = []
  try {
    const ports = [await freePort(), await freePort()]
    const publicUrl = `http://127.0.0.1:${ports[0]}/hooks/tasks`
    for (const [i, port] of ports.entries()) {
      started.push(await startRunner([
        workflow, "--connections", connections, "--public-url", publicUrl, "--port", String(port),
        "--database", postgres.url, "--data-dir", join(dir, `data-${i}`)
      ], dir, `runner-${i}`))
    }
    // Every delivery at once, alternately to each runner (a load balancer).
    await Promise.all(Array.from({ length: calls }, async (_, n) => {
      const timestamp = String(Math.floor(Date.now() / 1000))
      const body = { type: "agent.task.status_update", timestamp, payload: { task_id: `task-${n}`, session_id: `session-${n}`, status: "stopped" } }
      const response = await fetch(`http://127.0.0.1:${ports[n % 2]}/hooks/tasks`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-browser-use-timestamp": timestamp,
          "x-browser-use-signature": Webhook.hmacSha256SortedJsonHex(Redacted.make(webhookSecret), timestamp, body)
        },
        body: JSON.stringify(body)
      })
      if (response.status !== 200) throw new Error(`delivery ${n}: ${response.status} ${await response.text()}`)
    }))
    const counts = postgresCounts(postgres.url)
    const deadline = Date.now() + 180_000
    let now = await counts()
    while (now.finished < calls && Date.now() < deadline) {
      await sleep(500)
      now = await counts()
    }
    // What the runners said went wrong, if anything (e.g. the shared limits unreachable).
    for (const runner of started) for (const line of runner.log().split("\n").filter((l) => l.startsWith("✘")).slice(0, 5)) console.log(`  runner: ${line}`)
    return {
      calls,
      completed: now.succeeded,
      failed: calls - now.succeeded,
      answered429: trello.stats.rateLimited,
      wallSeconds: ((now.lastFinish ?? Date.now()) - (now.firstStart ?? Date.now())) / 1000,
      minimumSeconds: calls / (100 / 10)
    }
  } finally {
    for (const runner of started) await stop(runner)
    await trello.close()
    await postgres.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
