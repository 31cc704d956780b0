/**
 * The runs page's list on the embedded database: 10,000 runs (one every 2 s over the last
 * 5.5 hours, five workflows and one of 10 runs, three tasks each with their input and output, a twentieth failed)
 * in a fresh `runs.db`, then the queries the page makes, each in sequence, p50 and p99 of their
 * wall time through the runner's `RunStore` (imported from the runner's tsc output,
 * `apps/runner/dist`): its first page of 50 whole, by workflow and by status, the next page, a
 * search in the runs' data, the chart's six hours by minute and the workflows' names. The
 * yardsticks: a bare `SELECT * FROM xr_runs LIMIT 50` on the same file and client, the least a
 * page of 50 rows costs; the first page's own SQL without decoding its rows; and the first pages on a copy of the file with migration 7's indexes
 * (`xr_runs_accepted`, `xr_runs_open`, no workflow index), measured in turn with the same pages
 * on migration 8's, what those buy.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../../../apps/runner/dist/store/Database.js"
import * as RunStore from "../../../apps/runner/dist/store/RunStore.js"
import { summarize } from "./measure.js"

export interface RunsPageRow {
  readonly query: string
  readonly rows: number
  readonly p50Ms: number
  readonly p99Ms: number
}

export interface RunsPageResult {
  readonly runs: number
  readonly iterations: number
  readonly rows: ReadonlyArray<RunsPageRow>
  /** What the indexes cost the runs' writes (`writeCost`). */
  readonly writes: ReadonlyArray<WriteCostRow>
}

export interface WriteCostRow {
  readonly writes: string
  /** Runs/s, each round's, on migration 8's indexes and on migration 7's. */
  readonly rounds: ReadonlyArray<{ readonly indexes8: number; readonly indexes7: number }>
  readonly medianIndexes8: number
  readonly medianIndexes7: number
}

/** Migration 8's indexes replaced by migration 7's (the schema otherwise the same). */
const indexesOf7 = [
  "DROP INDEX xr_runs_newest",
  "DROP INDEX xr_runs_status_newest",
  "DROP INDEX xr_runs_workflow_newest",
  "DROP INDEX xr_runs_changed",
  "CREATE INDEX xr_runs_open ON xr_runs (status, accepted_at)",
  "CREATE INDEX xr_runs_accepted ON xr_runs (accepted_at)"
]

/** What the list's first page is measured by (its p99 against the 200 ms). */
export const FIRST_PAGE = "first page of 50 (whole)"
export const YARDSTICK = "yardstick: SELECT * FROM xr_runs LIMIT 50"

type Query = (store: RunStore.RunStore, sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>

/** The runner's store on a data directory's `runs.db` (migrated to the latest when opened). */
const storeAt = (dataDir: string) =>
  ManagedRuntime.make(RunStore.layer.pipe(
    Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  ))

export const runsPageBench = async (runs = 10_000, iterations = Number(process.env["BENCH_PAGE_ITERATIONS"] ?? 300)): Promise<RunsPageResult> => {
  const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-"))
  const olderDir = mkdtempSync(join(tmpdir(), "x-runner-page-7-"))
  const runtime = storeAt(dataDir)
  let older: ReturnType<typeof storeAt> | undefined
  try {
    const now = Date.now()
    const first = now - (runs - 1) * 2000
    await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* Database.RunsSql
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql.unsafe(`INSERT INTO xr_runs (id, workflow, event_id, event, status, attempt, accepted_at, started_at, finished_at, failed_step, runner, changed_at)
          WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${runs - 1})
          SELECT printf('%016x', i), CASE WHEN i % 1000 = 3 THEN 'seldom' ELSE 'workflow-' || (i % 5) END, 'card-' || i,
            '{"id":"card-' || i || '","name":"Card ' || i || '","list":"Backlog","desc":"' || substr(hex(randomblob(100)), 1, 200) || '"}',
            CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'succeeded' END, 0,
            ${first} + i * 2000, ${first} + i * 2000 + 5, ${first} + i * 2000 + 300,
            CASE WHEN i % 20 = 0 THEN 'post' END, 'runner-0', ${first} + i * 2000 + 300
          FROM n`)
        yield* sql.unsafe(`INSERT INTO xr_steps (run_id, path, name, kind, type, status, input, output, error, started_at, duration_ms, attempts)
          WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${runs - 1})
          SELECT printf('%016x', i), 'find', 'find', 'action', 'boardtool/v1/getCard', 'succeeded', '{"card":"card-' || i || '"}',
            '{"id":"card-' || i || '","labels":["red","blue"],"due":null}', NULL, ${first} + i * 2000 + 10, 80, 1 FROM n
          UNION ALL
          SELECT printf('%016x', i), 'post', 'post', 'action', 'boardtool/v1/createCard',
            CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'succeeded' END, '{"list":"Done","name":"Card ' || i || '"}',
            CASE WHEN i % 20 = 0 THEN NULL ELSE '{"id":"copy-' || i || '"}' END,
            CASE WHEN i % 20 = 0 THEN '{"tag":"RateLimited","message":"429 Too Many Requests"}' END, ${first} + i * 2000 + 100, 150, 1 FROM n
          UNION ALL
          SELECT printf('%016x', i), 'notify', 'notify', 'action', 'boardtool/v1/addComment', 'skipped', NULL, NULL, NULL, NULL, NULL, NULL FROM n`)
      }))
    }))
    // The same runs on migration 7's indexes, in a copy: what migration 8's buy.
    await runtime.runPromise(Effect.flatMap(Database.RunsSql, (sql) => sql.unsafe(`VACUUM INTO '${join(olderDir, "runs.db")}'`)))
    older = storeAt(olderDir)
    await older.runPromise(Effect.flatMap(Database.RunsSql, (sql) => Effect.forEach(indexesOf7, (statement) => sql.unsafe(statement))))
    // The first page, and its SQL as the store sends it.
    let pageSql: readonly [string, ReadonlyArray<unknown>] = ["", []]
    const firstPage = await runtime.runPromise(Effect.flatMap(RunStore.RunStore, (store) =>
      Statement.withTransformer(store.page({ limit: 50 }), (statement) =>
        Effect.sync(() => {
          pageSql = statement.compile()
          return statement
        }))))
    // [what, the query, measured on migration 7's indexes too]
    const queries: ReadonlyArray<readonly [string, Query, boolean]> = [
      [FIRST_PAGE, (store) => store.page({ limit: 50 }), true],
      ["first page of 50, one workflow", (store) => store.page({ limit: 50, workflow: "workflow-3" }), true],
      ["first page of 50, failed", (store) => store.page({ limit: 50, status: "failed" }), true],
      ["first page, a workflow of 10 runs", (store) => store.page({ limit: 50, workflow: "seldom" }), true],
      ["next page of 50 (cursor)", (store) => store.page({ limit: 50, after: firstPage.next }), false],
      ["first page of 50, search (in every run's data)", (store) => store.page({ limit: 50, search: "copy-9" }), false],
      ["search found in no run (reads them all)", (store) => store.page({ limit: 50, search: "no such text" }), false],
      ["chart: runs per minute, 6 hours", (store) => store.perMinute(now - 6 * 3_600_000, now + 60_000), false],
      ["workflow names", (store) => store.workflowNames, false],
      [YARDSTICK, (_, sql) => sql`SELECT * FROM xr_runs LIMIT 50`, false],
      ["yardstick: the first page's SQL alone (its rows not decoded)", (_, sql) => sql.unsafe(pageSql[0], pageSql[1]), false]
    ]
    const on = (at: ReturnType<typeof storeAt>, query: Query) =>
      at.runPromise(Effect.flatMap(Effect.zip(RunStore.RunStore, Database.RunsSql), ([store, sql]) => query(store, sql)))
    const rows: Array<RunsPageRow> = []
    const olderRows: Array<RunsPageRow> = []
    for (const [what, query, onOlder] of queries) {
      const stores = onOlder ? [runtime, older] : [runtime]
      // Warmed up: SQLite's page cache and the statement's first preparation are not what a page waits on.
      for (const at of stores) for (let i = 0; i < 10; i++) await on(at, query)
      // Each iteration on both files in turn, so that neither gets a quieter moment of the machine.
      const latencies = stores.map(() => [] as Array<number>)
      const found = stores.map(() => 0)
      for (let i = 0; i < iterations; i++) {
        for (const [index, at] of stores.entries()) {
          const start = performance.now()
          const result = await on(at, query)
          latencies[index]!.push(performance.now() - start)
          found[index] = Array.isArray(result) ? result.length : (result as { runs: ReadonlyArray<unknown> }).runs.length
        }
      }
      for (const [index] of stores.entries()) {
        const measured = summarize(latencies[index]!, 1)
        const into = index === 0 ? rows : olderRows
        into.push({
          query: index === 0 ? what : `${what}, migration 7's indexes`,
          rows: found[index]!,
          p50Ms: measured.p50,
          p99Ms: measured.p99
        })
      }
    }
    return { runs, iterations, rows: [...rows, ...olderRows], writes: await writeCost() }
  } finally {
    await runtime.dispose()
    await older?.dispose()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(olderDir, { recursive: true, force: true })
  }
}

/**
 * What the page's indexes cost the writes, on two fresh files, one on migration 7's indexes:
 * 3,000 events accepted (serve's write for a delivery), then 3,000 runs written as the engine
 * writes them (accepted, started, two tasks' ends, finished), 32 at a time through the
 * group-commit writer; rounds alternate the two files (the machine's load moves a round by
 * ±30 %), medians compared.
 */
const writeCost = async (rounds = 8, count = 3000): Promise<ReadonlyArray<WriteCostRow>> => {
  const dirs = [mkdtempSync(join(tmpdir(), "x-runner-writes-8-")), mkdtempSync(join(tmpdir(), "x-runner-writes-7-"))] as const
  const stores = [storeAt(dirs[0]), storeAt(dirs[1])] as const
  try {
    await stores[1].runPromise(Effect.flatMap(Database.RunsSql, (sql) => Effect.forEach(indexesOf7, (statement) => sql.unsafe(statement))))
    let next = 0
    const accept = (store: RunStore.RunStore, i: number) => store.accept(`workflow-${i % 5}`, { id: `e${i}`, output: { id: `card-${i}`, desc: "x".repeat(200) } })
    const task = (path: string, i: number): RunStore.Step => ({
      path,
      name: path,
      kind: "action",
      type: "boardtool/v1/getCard",
      status: "succeeded",
      input: { card: `card-${i}` },
      output: { id: `card-${i}` },
      startedAt: 1,
      durationMs: 2,
      attempts: 1
    })
    const wholeRun = (store: RunStore.RunStore, i: number) =>
      Effect.flatMap(accept(store, i), ({ runId }) =>
        Effect.all([
          store.runStarted(runId, 0, "runner-0"),
          store.stepFinished(runId, task("find", i)),
          store.stepFinished(runId, task("post", i)),
          store.runFinished(runId, 0, "succeeded", undefined)
        ], { discard: true }))
    const round = async (at: ReturnType<typeof storeAt>, write: (store: RunStore.RunStore, i: number) => Effect.Effect<unknown, unknown>) => {
      const store = await at.runPromise(RunStore.RunStore)
      const started = performance.now()
      await at.runPromise(Effect.forEach(Array.from({ length: count }, () => next++), (i) => write(store, i), { concurrency: 32, discard: true }))
      return count / ((performance.now() - started) / 1000)
    }
    const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const rows: Array<WriteCostRow> = []
    for (const [writes, write] of [["events accepted", accept], ["runs written (accept, start, two tasks, finish)", wholeRun]] as const) {
      const measured: Array<{ indexes8: number; indexes7: number }> = []
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) {
          const indexes8 = await round(stores[0], write)
          measured.push({ indexes8, indexes7: await round(stores[1], write) })
        } else {
          const indexes7 = await round(stores[1], write)
          measured.push({ indexes8: await round(stores[0], write), indexes7 })
        }
      }
      rows.push({ writes, rounds: measured, medianIndexes8: median(measured.map((m) => m.indexes8)), medianIndexes7: median(measured.map((m) => m.indexes7)) })
    }
    return rows
  } finally {
    for (const store of stores) await store.dispose()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}
