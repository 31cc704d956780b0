/**
 * The store's schema on migrations (`Migrations`): a runs' database made before there were
 * migrations (`fixtures/runs-before-migrations.sql`), opens with its runs, steps and triggers'
 * state intact and is recorded at the latest migration; an `xr_runs` made before its `runner`
 * column gets it; a row that does not decode is reported, not skipped. The same on PostgreSQL,
 * with two runners migrating it at once.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as Database from "../src/store/Database.js"
import * as Migrations from "../src/store/Migrations.js"
import * as RunStore from "../src/store/RunStore.js"
import * as TriggerStore from "../src/store/TriggerStore.js"
import { runner } from "./bin.js"

const fixture = readFileSync(new URL("./fixtures/runs-before-migrations.sql", import.meta.url), "utf8")
/** Its statements one by one (a prepared statement is one statement on PostgreSQL). */
const statements = fixture.split(/;\s*\n/).map((statement) => statement.replace(/^--.*\n/gm, "").trim()).filter((statement) => statement !== "")

/** better-sqlite3 (the runner's dependency, without types of its own). */
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new(file: string, options?: { readonly readonly?: boolean }) => {
  exec: (sql: string) => void
  prepare: (sql: string) => { all: () => Array<unknown> }
  close: () => void
}
const succeeded = RunStore.runIdOf("new-card", "a1")
const failed = RunStore.runIdOf("new-card", "a2")
const waiting = RunStore.runIdOf("card-moved", "m1")

/** A data directory whose runs.db is the fixture, after `alter` (an older shape of it). */
const dataDirOf = (alter: ReadonlyArray<string> = []) => {
  const dataDir = mkdtempSync(join(tmpdir(), "x-runner-migrations-"))
  const db = new Sqlite(join(dataDir, "runs.db"))
  db.exec(fixture)
  for (const statement of alter) db.exec(statement)
  db.close()
  return dataDir
}

const storesAt = (dataDir: string) =>
  Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
    Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer)
  )

const columnsOf = (dataDir: string, table: string) => {
  const db = new Sqlite(join(dataDir, "runs.db"), { readonly: true })
  try {
    return (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>).map((row) => row.name)
  } finally {
    db.close()
  }
}

const migrationsOf = (dataDir: string) => {
  const db = new Sqlite(join(dataDir, "runs.db"), { readonly: true })
  try {
    return db.prepare(`SELECT migration_id, name FROM ${Migrations.table} ORDER BY migration_id`).all()
  } finally {
    db.close()
  }
}

describe("Migrations on the embedded database", () => {
  it.effect("a database made before migrations opens with its runs intact, recorded at the latest migration", () => {
    const dataDir = dataDirOf()
    return Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const runs = yield* store.list({ limit: 10 })
      expect(runs.map((run) => [run.id, run.status])).toEqual([[waiting, "accepted"], [failed, "failed"], [succeeded, "succeeded"]])
      expect(runs[1]).toEqual({
        id: failed,
        workflow: "new-card",
        eventId: "a2",
        status: "failed",
        attempt: 0,
        acceptedAt: 1764000001000,
        startedAt: 1764000001100,
        finishedAt: 1764000001300,
        failedStep: "post",
        runner: "runner-0",
        origin: "serve"
      })
      const shown = Option.getOrThrow(yield* store.show(failed))
      expect(shown.event).toEqual({ name: "Mice" })
      // Each step of before keyed by its name, its path now.
      expect(shown.steps.map((step) => [step.path, step.kind, step.status, step.output ?? step.error])).toEqual([
        ["label", "action", "succeeded", { id: "l2" }],
        ["post", "action", "failed", { tag: "RateLimited", message: "429 Too Many Requests" }]
      ])
      // It goes on as a run of today's: retried, the step that succeeded kept.
      const retried = Option.getOrThrow(yield* store.retry(failed))
      expect(retried).toMatchObject({ status: "accepted", attempt: 1 })
      expect([...Option.getOrThrow(yield* store.load(failed)).steps].map(([path, step]) => [path, step.output])).toEqual([["label", { id: "l2" }]])
      const trigger = Option.getOrThrow(yield* (yield* TriggerStore.TriggerStore).get("card-moved"))
      expect(trigger.cursor).toEqual(Option.some({ since: "2025-11-24T12:00:00Z" }))
      expect(migrationsOf(dataDir)).toEqual([{ migration_id: 1, name: "initial_schema" }, { migration_id: 2, name: "runs_runner" }, { migration_id: 3, name: "rate_limit_tokens" }, {
        migration_id: 4,
        name: "steps_by_path"
      }, { migration_id: 5, name: "runs_origin" }, { migration_id: 6, name: "runs_rerun" }, { migration_id: 7, name: "runs_handed" }, {
        migration_id: 8,
        name: "runs_page"
      }, { migration_id: 9, name: "runs_page_ascending" }])
      // Runs are handed to the engine, not leased: the unfinished ones (the retried one included) are to hand over.
      expect(columnsOf(dataDir, "xr_runs")).toContain("handed_attempt")
      expect(columnsOf(dataDir, "xr_runs")).not.toContain("lease_owner")
      expect((yield* store.toHand(10)).map((run) => [run.runId, run.attempt])).toEqual([[failed, 1], [waiting, 0]])
      // Opened again, there is nothing left to run.
      expect(yield* Migrations.run(yield* Database.RunsSql)).toEqual([])
    }).pipe(Effect.provide(storesAt(dataDir)))
  })

  it("x-runner runs lists the runs of a database made before migrations, its xr_runs without runner", async () => {
    const dataDir = dataDirOf(["ALTER TABLE xr_runs DROP COLUMN runner"])
    const listed = await runner(["runs", "--data-dir", dataDir, "--output", "json"])
    // Before migrations, x-runner exited 2 here (SQLite: "no such column: runner").
    expect(listed).toMatchObject({ code: 0, stderr: "" })
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((run) => run.id)).toEqual([waiting, failed, succeeded])
  })

  it("a row the store cannot decode is said, naming it, not skipped (x-runner runs, exit 2)", async () => {
    const dataDir = dataDirOf([`UPDATE xr_runs SET status = 'paused' WHERE event_id = 'a1'`])
    const listed = await runner(["runs", "--data-dir", dataDir])
    expect(listed.code).toBe(2)
    expect(listed.stderr).toContain("the runs could not be read")
    expect(listed.stderr).toContain(`"paused"`)
  })

  it("a database that cannot be brought up to date is refused, naming the migration and why, nothing half done", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-migrations-"))
    const db = new Sqlite(join(dataDir, "runs.db"))
    db.exec("CREATE TABLE xr_runs (id TEXT PRIMARY KEY)")
    db.close()
    const listed = await runner(["runs", "--data-dir", dataDir])
    expect(listed.code).toBe(2)
    expect(listed.stderr).toContain(`the runs' database cannot be brought up to date: Migration "1_initial_schema" failed: no such column: status`)
    expect(migrationsOf(dataDir)).toEqual([])
  })

  it.effect("an xr_runs made before its runner column gets it, its runs kept", () => {
    const dataDir = dataDirOf(["ALTER TABLE xr_runs DROP COLUMN runner"])
    expect(columnsOf(dataDir, "xr_runs")).not.toContain("runner")
    return Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      expect(columnsOf(dataDir, "xr_runs")).toContain("runner")
      expect((yield* store.list({ limit: 10 })).map((run) => [run.id, run.runner])).toEqual([
        [waiting, undefined],
        [failed, undefined],
        [succeeded, undefined]
      ])
      yield* store.runStarted(waiting, 0, "runner-1")
      expect(Option.getOrThrow(yield* store.load(waiting)).run.runner).toBe("runner-1")
    }).pipe(Effect.provide(storesAt(dataDir)))
  })
})

describe("The schema in one place", () => {
  it("no source file but Migrations.ts creates or alters a table", () => {
    const src = fileURLToPath(new URL("../src/", import.meta.url))
    const ddl = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && basename(file) !== "Migrations.ts")
      .filter((file) => /\b(CREATE|ALTER)\s+(TABLE|INDEX)\b/i.test(readFileSync(join(src, file), "utf8")))
    expect(ddl).toEqual([])
  })
})

describe("Migrations on PostgreSQL", () => {
  let postgres: Postgres
  beforeAll(async () => {
    postgres = await startPostgres()
  })
  afterAll(() => postgres?.stop())

  it.scoped("two runners migrate a database made before migrations (its xr_runs without runner) at once: once, its runs kept", () =>
    Effect.gen(function*() {
      const pool = () => Effect.flatMap(Layer.build(PgClient.layer({ url: Redacted.make(postgres.url), maxConnections: 2 })), (context) =>
        Effect.provide(SqlClient.SqlClient, context))
      const sql = yield* pool()
      for (const statement of statements) yield* sql.unsafe(statement)
      yield* sql.unsafe("ALTER TABLE xr_runs DROP COLUMN runner")
      const [a, b] = yield* Effect.all([pool(), pool()])
      const ran = yield* Effect.all([Migrations.run(a), Migrations.run(b)], { concurrency: 2 })
      expect(ran.flat().map(([id]) => id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
      const columns = yield* sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'xr_runs'`
      expect(columns.map((row) => row.column_name)).toContain("runner")
      const runs = yield* sql<{ id: string }>`SELECT id FROM xr_runs ORDER BY accepted_at`
      expect(runs.map((row) => row.id)).toEqual([succeeded, failed, waiting])
    }))
})
