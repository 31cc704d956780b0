/**
 * The store's side of the runs page (`RunStore.page`, `workflowNames`, `perMinute`,
 * `changedSince`, `markDone`, migration 8), on the embedded database and on a PostgreSQL the
 * test starts: the list's filters (a run that waits apart from one running), its search taken
 * literally, its pages over runs accepted in the same millisecond, the chart's minutes, the
 * changes every write of a run's row makes visible, marking an unknown step done, and a first
 * page of 10,000 runs read by an index (the plans are asserted, never the time it takes).
 * Times are set on the rows, never waited for.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as Database from "../src/store/Database.js"
import * as Migrations from "../src/store/Migrations.js"
import * as RunStore from "../src/store/RunStore.js"

type Stores = Layer.Layer<RunStore.RunStore | Database.RunsSql, unknown>

const embedded = (dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-"))): Stores =>
  RunStore.layer.pipe(
    Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  )

/** Sets columns of a run's row (times the test chooses, never waited for). */
const setRow = (runId: string, columns: Record<string, number | string | null>) =>
  Effect.gen(function*() {
    const sql = yield* Database.RunsSql
    yield* sql`UPDATE xr_runs SET ${sql.update(columns)} WHERE id = ${runId}`
  })

const ids = (runs: ReadonlyArray<{ readonly id: string }>) => runs.map((run) => run.id)

const action = (path: string, status: RunStore.StepStatus, more: Partial<RunStore.Step> = {}): RunStore.Step => ({
  path,
  name: path,
  kind: "action",
  type: "boardtool/v1/createCard",
  status,
  startedAt: 1000,
  ...more
})

/** Every statement the effect runs, compiled (its SQL and parameters), in order. */
const statementsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const statements: Array<readonly [string, ReadonlyArray<unknown>]> = []
    yield* Statement.withTransformer(effect, (statement) =>
      Effect.sync(() => {
        statements.push(statement.compile())
        return statement
      }))
    return statements
  })

/** The tests, on one kind of database (`stores` opens a fresh one each call). */
const suite = (dialect: "sqlite" | "pg", stores: () => Stores) => {
  it.effect("filters by workflow, status (a run that waits apart from one running) and time; lists skipped tasks and when it waits", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const run = (workflow: string, id: string, acceptedAt: number) =>
        Effect.tap(Effect.map(store.accept(workflow, { id, output: { id } }), ({ runId }) => runId), (runId) => setRow(runId, { accepted_at: acceptedAt }))
      const accepted = yield* run("new-card", "e1", 1_000)
      const running = yield* run("new-card", "e2", 2_000)
      const waiting = yield* run("card-moved", "e3", 3_000)
      const succeeded = yield* run("card-moved", "e4", 4_000)
      const failed = yield* run("new-card", "e5", 5_000)
      for (const runId of [running, waiting, succeeded, failed]) yield* store.runStarted(runId, 0, "runner-a")
      yield* store.waiting(waiting, 9_000_000_000_000)
      yield* store.stepFinished(succeeded, action("copy", "succeeded"))
      yield* store.stepFinished(succeeded, action("late", "skipped"))
      yield* store.stepFinished(succeeded, { ...action("branch", "skipped"), kind: "group", type: "group" })
      yield* store.runFinished(succeeded, 0, "succeeded", undefined)
      yield* store.runFinished(failed, 0, "failed", "copy")

      const all = yield* store.page({ limit: 50 })
      expect(ids(all.runs)).toEqual([failed, succeeded, waiting, running, accepted])
      expect(all.next).toBeUndefined()
      const byId = new Map(all.runs.map((listed) => [listed.id, listed]))
      expect(byId.get(waiting)).toMatchObject({ status: "running", waitingUntil: 9_000_000_000_000, skipped: 0 })
      expect(byId.get(running)).toMatchObject({ status: "running", waitingUntil: undefined })
      expect(byId.get(succeeded)).toMatchObject({ status: "succeeded", skipped: 2, workflow: "card-moved", eventId: "e4", acceptedAt: 4_000, origin: "serve" })
      expect(byId.get(failed)).toMatchObject({ status: "failed", failedStep: "copy", runner: "runner-a" })
      for (const listed of all.runs) expect(typeof listed.changedAt).toBe("number")
      // One run alone, as listed.
      expect(yield* store.listed(waiting)).toEqual(Option.some(byId.get(waiting)))
      expect(yield* store.listed("0000000000000000")).toEqual(Option.none())

      const page = (query: Omit<RunStore.RunsQuery, "limit">) => Effect.map(store.page({ limit: 50, ...query }), (found) => ids(found.runs))
      expect(yield* page({ status: "running" })).toEqual([running])
      expect(yield* page({ status: "waiting" })).toEqual([waiting])
      expect(yield* page({ status: "accepted" })).toEqual([accepted])
      expect(yield* page({ status: "failed" })).toEqual([failed])
      expect(yield* page({ workflow: "card-moved" })).toEqual([succeeded, waiting])
      expect(yield* page({ workflow: "card-moved", status: "waiting" })).toEqual([waiting])
      expect(yield* page({ workflow: "nothing" })).toEqual([])
      // from inclusive, to exclusive.
      expect(yield* page({ from: 2_000, to: 4_000 })).toEqual([waiting, running])
      expect(yield* page({ from: 4_000 })).toEqual([failed, succeeded])
      expect(yield* page({ to: 1_001 })).toEqual([accepted])
      expect(yield* store.workflowNames).toEqual(["card-moved", "new-card"])
    }).pipe(Effect.provide(stores())))

  it.effect("pages newest first, runs accepted in the same millisecond each once, across pages of every size", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const accepted: Array<{ id: string; at: number }> = []
      // Eleven runs, eight of them in one millisecond.
      for (const [index, at] of [7_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 3_000, 3_000].entries()) {
        const { runId } = yield* store.accept("w", { id: `e${index}`, output: {} })
        yield* setRow(runId, { accepted_at: at })
        accepted.push({ id: runId, at })
      }
      const expected = [...accepted].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).map((run) => run.id)
      for (const limit of [1, 2, 3, 4, 11]) {
        const seen: Array<string> = []
        let after: RunStore.Cursor | undefined
        let pages = 0
        do {
          const found = yield* store.page({ limit, after })
          expect(found.runs.length).toBeLessThanOrEqual(limit)
          seen.push(...ids(found.runs))
          after = found.next
          pages++
        } while (after !== undefined && pages < 20)
        expect(seen).toEqual(expected)
        // A last page that is full says there is none after it.
        expect(pages).toBe(Math.ceil(expected.length / limit))
      }
      // A filter pages the same way.
      const first = yield* store.page({ limit: 5, from: 4_000, to: 6_000 })
      const second = yield* store.page({ limit: 5, from: 4_000, to: 6_000, after: first.next })
      expect([...ids(first.runs), ...ids(second.runs)]).toEqual(expected.slice(1, 9))
      expect(second.next).toBeUndefined()
      // A limit beyond 1..200 is brought within.
      expect((yield* store.page({ limit: 0 })).runs.length).toBe(1)
      expect((yield* store.page({ limit: Number.NaN })).runs.length).toBe(11)
    }).pipe(Effect.provide(stores())))

  it.effect("searches the trigger event and the steps' input, output and error, case-insensitively, its %, _ and \\ taken literally", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const event = (id: string, output: unknown) => Effect.map(store.accept("w", { id, output }), ({ runId }) => runId)
      const percent = yield* event("p", { name: "Sale 50% off" })
      const notPercent = yield* event("np", { name: "Sale 50 percent off" })
      const underscore = yield* event("u", { note: "a_b" })
      const notUnderscore = yield* event("nu", { note: "axb" })
      const backslash = yield* event("b", { path: "C:\\temp" })
      const slashed = yield* event("x", { path: "x\\y" })
      yield* event("nx", { path: "xy" })
      const quoted = yield* event("q", { said: `say "hi"` })
      const steps = yield* event("s", { name: "plain" })
      yield* store.runStarted(steps, 0, "runner-a")
      yield* store.stepFinished(steps, action("copy", "succeeded", { input: { list: "Backlog" }, output: { name: "Mechanical KEYBOARDS" } }))
      yield* store.stepFinished(steps, action("post", "failed", { error: { tag: "RateLimited", message: "429 Too Many Requests" } }))

      const search = (text: string, query: Omit<RunStore.RunsQuery, "limit" | "search"> = {}) =>
        Effect.map(store.page({ limit: 50, search: text, ...query }), (found) => ids(found.runs).sort())
      expect(yield* search("50%")).toEqual([percent])
      expect(yield* search("a_b")).toEqual([underscore])
      expect(yield* search("C:\\temp")).toEqual([backslash])
      // PostgreSQL's LIKE would take this backslash as an escape (and find "xy").
      expect(yield* search("x\\y")).toEqual([slashed])
      // As typed (text in a JSON string), and in the JSON's own syntax.
      expect(yield* search(`say "hi"`)).toEqual([quoted])
      expect(yield* search(`"note":"axb"`)).toEqual([notUnderscore])
      expect(yield* search("keyboards")).toEqual([steps])
      expect(yield* search("backlog")).toEqual([steps])
      expect(yield* search("too many")).toEqual([steps])
      expect(yield* search("ratelimited")).toEqual([steps])
      expect(yield* search("sale")).toEqual([percent, notPercent].sort())
      expect(yield* search("sale", { status: "running" })).toEqual([])
      expect(yield* search("%")).toEqual([percent])
      expect(yield* search("' OR 1=1 --")).toEqual([])
      // An empty search is none.
      expect((yield* search("")).length).toBe(9)
    }).pipe(Effect.provide(stores())))

  it.effect("counts the runs accepted per minute by their current status, a run that waits apart", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const minute = 60_000
      const base = 29_400_000 * minute
      const run = (id: string, acceptedAt: number) =>
        Effect.tap(Effect.map(store.accept("w", { id, output: {} }), ({ runId }) => runId), (runId) => setRow(runId, { accepted_at: acceptedAt }))
      yield* run("before", base - 1)
      const a = yield* run("a", base)
      yield* run("b", base + minute - 1)
      const c = yield* run("c", base + minute)
      const d = yield* run("d", base + 2 * minute + 5)
      const e = yield* run("e", base + 2 * minute + 6)
      yield* run("after", base + 3 * minute)
      yield* store.runStarted(a, 0, "r")
      yield* store.runFinished(a, 0, "failed", undefined)
      for (const runId of [c, d, e]) yield* store.runStarted(runId, 0, "r")
      yield* store.waiting(d, base + 10 * minute)
      yield* store.waiting(e, base + 10 * minute)
      expect(yield* store.perMinute(base, base + 3 * minute)).toEqual([
        { minute: base, status: "accepted", count: 1 },
        { minute: base, status: "failed", count: 1 },
        { minute: base + minute, status: "running", count: 1 },
        { minute: base + 2 * minute, status: "waiting", count: 2 }
      ])
      expect(yield* store.perMinute(base + 3 * minute, base + 4 * minute)).toEqual([{ minute: base + 3 * minute, status: "accepted", count: 1 }])
      expect(yield* store.perMinute(0, 1)).toEqual([])
    }).pipe(Effect.provide(stores())))

  it.effect("changedSince finds a run after each write of its row (not after a step's), newest change first", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const sql = yield* Database.RunsSql
      // Every run's change put far in the past: a write since is one since 1.
      const changedBy = <A, E, R>(write: Effect.Effect<A, E, R>) =>
        Effect.gen(function*() {
          yield* sql`UPDATE xr_runs SET changed_at = 0`
          const result = yield* write
          return { result, changed: ids(yield* store.changedSince(1, 10)) }
        })
      const { changed: afterAccept, result: { runId } } = yield* changedBy(store.accept("w", { id: "e1", output: {} }))
      expect(afterAccept).toEqual([runId])
      // Accepted again (a redelivery): nothing changed.
      expect((yield* changedBy(store.accept("w", { id: "e1", output: {} }))).changed).toEqual([])
      expect((yield* changedBy(store.handed(runId, 0))).changed).toEqual([])
      expect((yield* changedBy(store.runStarted(runId, 0, "runner-a"))).changed).toEqual([runId])
      expect((yield* changedBy(store.waiting(runId, 9_000_000_000_000))).changed).toEqual([runId])
      expect((yield* changedBy(store.waiting(runId, undefined))).changed).toEqual([runId])
      // Not per step: the engine's hot path writes no more than before.
      expect((yield* changedBy(store.writeSent(runId, { path: "post", name: "post", type: "t", attempt: 1 }))).changed).toEqual([])
      expect((yield* changedBy(store.stepFinished(runId, action("post", "unknown")))).changed).toEqual([])
      expect((yield* changedBy(store.runFinished(runId, 0, "unknown", "post"))).changed).toEqual([runId])
      expect((yield* changedBy(store.markDone(runId, "post", { id: "c1" }))).changed).toEqual([runId])
      yield* store.runStarted(runId, 1, "runner-a")
      yield* store.runFinished(runId, 1, "failed", "post")
      expect((yield* changedBy(store.retry(runId))).changed).toEqual([runId])
      const rerun = { sandbox: true, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "s", inputsDigest: "d" }
      const recorded = yield* changedBy(store.recordStarted({ workflow: "w", file: "/w.json", runner: "run:1", rerun }))
      expect(recorded.changed).toEqual([recorded.result])
      yield* store.runFinished(recorded.result, 0, "failed", undefined)
      expect((yield* changedBy(store.retryHere(recorded.result, "run:2"))).changed).toEqual([recorded.result])
      // Newest change first, from `since` on.
      yield* setRow(runId, { changed_at: 20 })
      yield* setRow(recorded.result, { changed_at: 10 })
      expect(ids(yield* store.changedSince(0, 10))).toEqual([runId, recorded.result])
      expect(ids(yield* store.changedSince(11, 10))).toEqual([runId])
      expect(ids(yield* store.changedSince(0, 1))).toEqual([runId])
      expect((yield* store.changedSince(0, 10))[0]).toMatchObject({ id: runId, changedAt: 20, status: "accepted", attempt: 2 })
    }).pipe(Effect.provide(stores())))

  it.effect("marks an unknown step of a failed or unknown run done: its output kept, the run retried; refused otherwise", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const { runId } = yield* store.accept("copy", { id: "e1", output: {} })
      yield* store.runStarted(runId, 0, "runner-a")
      yield* store.stepFinished(runId, action("label", "succeeded", { output: { id: "l1" } }))
      yield* store.writeSent(runId, { path: "post", name: "post", type: "boardtool/v1/createCard", attempt: 1 })
      yield* store.stepFinished(runId, action("post", "unknown", { input: { name: "x" }, error: { tag: "OutcomeUnknown", message: "cut short" } }))
      // While the run is running (a runner executes it): refused.
      expect(yield* store.markDone(runId, "post", { id: "c1" })).toEqual(Option.none())
      expect(Option.getOrThrow(yield* store.step(runId, "post")).status).toBe("unknown")
      yield* store.stepFinished(runId, action("notify", "failed", { error: { tag: "NotFound", message: "gone" } }))
      yield* store.stepFinished(runId, action("after", "skipped"))
      yield* store.runFinished(runId, 0, "unknown", "post")
      // Not an unknown step, no such step, no such run: refused, nothing changed.
      expect(yield* store.markDone(runId, "label", { id: "c1" })).toEqual(Option.none())
      expect(yield* store.markDone(runId, "notify", { id: "c1" })).toEqual(Option.none())
      expect(yield* store.markDone(runId, "missing", { id: "c1" })).toEqual(Option.none())
      expect(yield* store.markDone("0000000000000000", "post", { id: "c1" })).toEqual(Option.none())
      expect(Option.getOrThrow(yield* store.load(runId)).run).toMatchObject({ status: "unknown", attempt: 0 })

      const done = Option.getOrThrow(yield* store.markDone(runId, "post", { id: "c1", name: "x" }))
      expect(done).toMatchObject({ id: runId, status: "accepted", attempt: 1, finishedAt: undefined, failedStep: undefined })
      const loaded = Option.getOrThrow(yield* store.load(runId))
      // The step marked done kept as succeeded with its output (its write marker kept); the others that did not succeed run again.
      expect([...loaded.steps.keys()]).toEqual(["label", "post"])
      expect(loaded.steps.get("post")).toMatchObject({ status: "succeeded", output: { id: "c1", name: "x" }, error: undefined, input: { name: "x" }, writeAttempt: 1 })
      // The run is the engine's again: to hand, and not to mark again.
      expect((yield* store.toHand(10)).map((run) => [run.runId, run.attempt])).toEqual([[runId, 1]])
      expect(yield* store.markDone(runId, "post", { id: "c2" })).toEqual(Option.none())

      // An accepted run (never started) and a run of `x-runner run`: refused.
      const other = yield* store.accept("copy", { id: "e2", output: {} })
      expect(yield* store.markDone(other.runId, "post", null)).toEqual(Option.none())
      const rerun = { sandbox: true, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "s", inputsDigest: "d" }
      const ran = yield* store.recordStarted({ workflow: "copy", file: "/copy.json", runner: "run:1", rerun })
      yield* store.stepFinished(ran, action("post", "unknown"))
      yield* store.runFinished(ran, 0, "unknown", "post")
      expect(yield* store.markDone(ran, "post", { id: "c1" })).toEqual(Option.none())
      expect(Option.getOrThrow(yield* store.step(ran, "post")).status).toBe("unknown")
      // A failed run's unknown step (another step failed after it) may be marked too.
      const third = yield* store.accept("copy", { id: "e3", output: {} })
      yield* store.runStarted(third.runId, 0, "runner-a")
      yield* store.stepFinished(third.runId, action("post", "unknown"))
      yield* store.runFinished(third.runId, 0, "failed", "notify")
      expect(Option.getOrThrow(yield* store.markDone(third.runId, "post", undefined))).toMatchObject({ status: "accepted", attempt: 1 })
      expect(Option.getOrThrow(yield* store.step(third.runId, "post"))).toMatchObject({ status: "succeeded", output: undefined })
    }).pipe(Effect.provide(stores())))

  it.effect("a first page of 10,000 runs, whole or of one workflow or status, is read by an index, without a sort", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const sql = yield* Database.RunsSql
      // Five workflows and five statuses in turn; 100 runs in each second (equal times).
      yield* sql.unsafe(`INSERT INTO xr_runs (id, workflow, event_id, event, status, accepted_at, changed_at)
        WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
        SELECT 'r' || i, 'w' || (i % 5), 'e' || i, '{}',
          CASE i % 7 WHEN 0 THEN 'failed' WHEN 1 THEN 'running' WHEN 2 THEN 'accepted' WHEN 3 THEN 'unknown' ELSE 'succeeded' END,
          1764000000000 + (i / 100) * 1000, 1764000000000 + i
        FROM n`)
      // Of the running runs, every other one waits.
      yield* sql.unsafe(`UPDATE xr_runs SET waiting_until = 1764100000000 WHERE status = 'running' AND accepted_at % 2000 = 0`)
      if (dialect === "pg") yield* sql.unsafe("ANALYZE xr_runs")
      const planOf = ([text, params]: readonly [string, ReadonlyArray<unknown>]) =>
        Effect.map(
          sql.unsafe<Record<string, unknown>>(`${dialect === "pg" ? "EXPLAIN" : "EXPLAIN QUERY PLAN"} ${text}`, params),
          (rows) => rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n")
        )
      const reads = {
        whole: store.page({ limit: 50 }),
        workflow: store.page({ limit: 50, workflow: "w3" }),
        failed: store.page({ limit: 50, status: "failed" }),
        running: store.page({ limit: 50, status: "running" }),
        waiting: store.page({ limit: 50, status: "waiting" }),
        workflowAndStatus: store.page({ limit: 50, workflow: "w3", status: "succeeded" }),
        range: store.page({ limit: 50, from: 1764000050000, to: 1764000060000 }),
        next: Effect.flatMap(store.page({ limit: 50 }), (first) => store.page({ limit: 50, after: first.next })),
        changed: store.changedSince(1764000009000, 200),
        // The last six hours: the last five seconds of these runs (a chart over all of them may read them all).
        chart: store.perMinute(1764000095000, 1764000095000 + 6 * 3_600_000),
        workflows: store.workflowNames
      }
      // What may sort the rows it found by an index: the chart groups a range's runs by minute;
      // PostgreSQL may sort the few runs waiting, found by the status's index, rather than walk it.
      const mayGroup = new Set(["chart", ...(dialect === "pg" ? ["waiting", "workflowAndStatus"] : [])])
      for (const [name, read] of Object.entries(reads)) {
        const statements = yield* statementsOf(read as Effect.Effect<unknown, RunStore.StoreFailed>)
        const plan = yield* planOf(statements[statements.length - 1]!)
        if (dialect === "sqlite") {
          if (!mayGroup.has(name)) expect(plan, name).not.toMatch(/TEMP B-TREE/)
          // Each read of xr_runs by one of its indexes (a scan of an index in its order stops at the page's end).
          expect(plan, name).not.toMatch(/SCAN r(\n|$)|SCAN xr_runs(\n|$)/)
          expect(plan, name).toMatch(/(SCAN|SEARCH) (r|xr_runs) USING (COVERING )?INDEX xr_runs_/)
        } else {
          expect(plan, name).not.toMatch(/Seq Scan on xr_runs/)
          if (!mayGroup.has(name)) expect(plan, name).not.toMatch(/\bSort\b/)
          expect(plan, name).toMatch(/Index (Only )?Scan/)
        }
      }
      // What the first pages hold.
      const whole = yield* reads.whole
      // Those of the last second, by id from the last.
      expect(ids(whole.runs)).toEqual(Array.from({ length: 50 }, (_, i) => `r${9950 + i}`).sort().reverse())
      const next = yield* reads.next
      expect(next.runs[0]?.acceptedAt).toBe(1764000000000 + 99 * 1000)
      expect((yield* reads.workflow).runs.every((run) => run.workflow === "w3")).toBe(true)
      expect((yield* reads.failed).runs.map((run) => run.status)).toEqual(Array(50).fill("failed"))
      expect(yield* reads.workflows).toEqual(["w0", "w1", "w2", "w3", "w4"])
      expect((yield* reads.changed).length).toBe(200)
    }).pipe(Effect.provide(stores())), 60_000)
}

/**
 * Migration 8 on a database at migration 7 (the fixture of before migrations, brought to 7 by
 * `Migrator` alone): `client` reaches it directly, `stores` opens it as the runner does.
 */
const fromMigration7 = (dialect: "sqlite" | "pg", open: () => Effect.Effect<{ readonly client: Layer.Layer<SqlClient.SqlClient, unknown>; readonly stores: Stores }>) =>
  it.effect("migration 8 takes a database at migration 7: changed_at from each run's last time, the page's indexes in place of the old", () =>
    Effect.gen(function*() {
      const fixture = readFileSync(new URL("./fixtures/runs-before-migrations.sql", import.meta.url), "utf8")
      const succeeded = RunStore.runIdOf("new-card", "a1")
      const failed = RunStore.runIdOf("new-card", "a2")
      const waiting = RunStore.runIdOf("card-moved", "m1")
      const { client, stores } = yield* open()
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // One statement at a time (a prepared statement is one statement on PostgreSQL).
        for (const statement of fixture.split(/;\s*\n/).map((text) => text.replace(/^--.*\n/gm, "").trim()).filter((text) => text !== "")) {
          yield* sql.unsafe(statement)
        }
        const ran = yield* Migrator.make({})({ loader: Effect.map(Migrations.loader, (all) => all.filter(([id]) => id <= 7)), table: Migrations.table })
        expect(ran.map(([id]) => id)).toEqual([1, 2, 3, 4, 5, 6, 7])
      }).pipe(Effect.scoped, Effect.provide(client), Effect.orDie)
      yield* Effect.gen(function*() {
        const store = yield* RunStore.RunStore
        const sql = yield* Database.RunsSql
        const rows = yield* sql<{ id: string; changed_at: number | string }>`SELECT id, changed_at FROM xr_runs ORDER BY accepted_at`
        // The fixture's times: finished, else started, else accepted.
        expect(rows.map((row) => [row.id, Number(row.changed_at)])).toEqual([
          [succeeded, 1764000000400],
          [failed, 1764000001300],
          [waiting, 1764000002000]
        ])
        const indexes = dialect === "sqlite"
          ? yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'xr_runs' AND name NOT LIKE 'sqlite_%' ORDER BY name`
          : yield* sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'xr_runs' AND indexname NOT LIKE '%_pkey' ORDER BY indexname`
        expect(indexes.map((row) => row.name)).toEqual(["xr_runs_changed", "xr_runs_newest", "xr_runs_status_newest", "xr_runs_workflow_newest"])
        expect(ids((yield* store.page({ limit: 10 })).runs)).toEqual([waiting, failed, succeeded])
        expect(ids(yield* store.changedSince(1764000001300, 10))).toEqual([waiting, failed])
      }).pipe(Effect.provide(stores))
    }))

describe("The runs page's store on the embedded database", () => {
  suite("sqlite", () => embedded())

  fromMigration7("sqlite", () =>
    Effect.sync(() => {
      const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-"))
      return { client: SqliteClient.layer({ filename: join(dataDir, "runs.db") }), stores: embedded(dataDir) }
    }))
})

describe("The runs page's store on PostgreSQL", () => {
  let postgres: Postgres
  let databases = 0
  beforeAll(async () => {
    postgres = await startPostgres()
  }, 180_000)
  afterAll(() => postgres?.stop())

  /** A database of its own on the test's PostgreSQL: its URL. */
  const freshDatabase = Effect.gen(function*() {
    const name = `page${++databases}`
    yield* Effect.scoped(Effect.flatMap(
      Layer.build(PgClient.layer({ url: Redacted.make(postgres.url), maxConnections: 1 })),
      (context) => Context.get(context, PgClient.PgClient).unsafe(`CREATE DATABASE ${name}`)
    ))
    return Redacted.make(postgres.url.replace(/\/[^/]*$/, `/${name}`))
  }).pipe(Effect.orDie)
  const storesAt = (url: Redacted.Redacted<string>): Stores =>
    RunStore.layer.pipe(
      Layer.provideMerge(Database.layer({ _tag: "Postgres", url })),
      Layer.provide(NodeContext.layer)
    )

  suite("pg", () => Layer.unwrapEffect(Effect.map(freshDatabase, storesAt)))
  fromMigration7("pg", () => Effect.map(freshDatabase, (url) => ({ client: PgClient.layer({ url, maxConnections: 1 }), stores: storesAt(url) })))
})

