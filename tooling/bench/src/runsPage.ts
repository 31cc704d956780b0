/**
 * The runs page's list on the embedded database: 10,000 runs (one every 2 s over the last
 * 5.5 hours, five workflows and one of 10 runs, three tasks each with their input and output, a twentieth failed)
 * in a fresh `runs.db`, then the queries the page makes, each in sequence, p50 and p99 of their
 * wall time through the runner's `RunStore` (imported from the runner's tsc output,
 * `apps/runner/dist`): its first page of 50 whole, by workflow and by status, the next page, a
 * search in the runs' data, the chart's six hours by minute and the workflows' names. The
 * yardsticks: a bare `SELECT * FROM xr_runs LIMIT 50` on the same file and client, the least a
 * page of 50 rows costs; and the first pages again on migration 7's indexes (`xr_runs_accepted`,
 * `xr_runs_open`, no workflow index), what migration 8's indexes buy.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
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
}

/** What the list's first page is measured by (its p99 against the 200 ms). */
export const FIRST_PAGE = "first page of 50 (whole)"
export const YARDSTICK = "yardstick: SELECT * FROM xr_runs LIMIT 50"

export const runsPageBench = async (runs = 10_000, iterations = Number(process.env["BENCH_PAGE_ITERATIONS"] ?? 300)): Promise<RunsPageResult> => {
  const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-"))
  const runtime = ManagedRuntime.make(RunStore.layer.pipe(
    Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  ))
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
    const store = await runtime.runPromise(RunStore.RunStore)
    const sql = await runtime.runPromise(Database.RunsSql)
    const firstPage = await runtime.runPromise(store.page({ limit: 50 }))
    const queries: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]> = [
      [FIRST_PAGE, store.page({ limit: 50 })],
      ["first page of 50, one workflow", store.page({ limit: 50, workflow: "workflow-3" })],
      ["first page of 50, failed", store.page({ limit: 50, status: "failed" })],
      ["first page, a workflow of 10 runs", store.page({ limit: 50, workflow: "seldom" })],
      ["next page of 50 (cursor)", store.page({ limit: 50, after: firstPage.next })],
      ["first page of 50, search (in every run's data)", store.page({ limit: 50, search: "copy-9" })],
      ["search found in no run (reads them all)", store.page({ limit: 50, search: "no such text" })],
      ["chart: runs per minute, 6 hours", store.perMinute(now - 6 * 3_600_000, now + 60_000)],
      ["workflow names", store.workflowNames],
      [YARDSTICK, sql`SELECT * FROM xr_runs LIMIT 50`]
    ]
    const rows: Array<RunsPageRow> = []
    const measure = async (list: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]>) => {
      for (const [query, effect] of list) {
        // Warmed up: SQLite's page cache and the statement's first preparation are not what a page waits on.
        for (let i = 0; i < 10; i++) await runtime.runPromise(effect)
        const latencies: Array<number> = []
        let found = 0
        const started = performance.now()
        for (let i = 0; i < iterations; i++) {
          const start = performance.now()
          const result = await runtime.runPromise(effect)
          latencies.push(performance.now() - start)
          found = Array.isArray(result) ? result.length : (result as { runs: ReadonlyArray<unknown> }).runs.length
        }
        const measured = summarize(latencies, (performance.now() - started) / 1000)
        rows.push({ query, rows: found, p50Ms: measured.p50, p99Ms: measured.p99 })
      }
    }
    await measure(queries)
    await runtime.runPromise(Effect.gen(function*() {
      for (const index of ["xr_runs_newest", "xr_runs_status_newest", "xr_runs_workflow_newest"]) yield* sql.unsafe(`DROP INDEX ${index}`)
      yield* sql.unsafe("CREATE INDEX xr_runs_open ON xr_runs (status, accepted_at)")
      yield* sql.unsafe("CREATE INDEX xr_runs_accepted ON xr_runs (accepted_at)")
    }))
    await measure(queries.slice(0, 4).map(([query, effect]) => [`${query}, migration 7's indexes`, effect] as const))
    return { runs, iterations, rows }
  } finally {
    await runtime.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
