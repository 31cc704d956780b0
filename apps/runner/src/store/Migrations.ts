/**
 * The runs' database schema, in one place: numbered migrations run by `@effect/sql`'s
 * `Migrator` (as `@effect/cluster`'s `SqlMessageStorage` runs its own), recorded in
 * `xr_migrations`. A schema change is a new migration at the end, never an edit of one that
 * shipped.
 *
 * A database made before there were migrations has no `xr_migrations`: migration 1 is the
 * schema x-runner created then, each statement `IF NOT EXISTS`, so it finds those tables as
 * they are and records them; migration 2 then adds what was added to a table after it was
 * first created (`xr_runs.runner`), which `IF NOT EXISTS` left out of an older one.
 *
 * @since 0.4.1
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"

/**
 * The table that records which migrations ran.
 *
 * @since 0.4.1
 * @category constants
 */
export const table = "xr_migrations"

/** The schema x-runner created before it had migrations, `runner` included. */
const initialSchema = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const statements = [
    // The runs (`RunStore`): one per accepted event, and each step's record.
    `CREATE TABLE IF NOT EXISTS xr_runs (
      id TEXT PRIMARY KEY,
      workflow TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event TEXT NOT NULL,
      status TEXT NOT NULL,
      attempt INTEGER NOT NULL DEFAULT 0,
      from_step INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT,
      accepted_at BIGINT NOT NULL,
      started_at BIGINT,
      finished_at BIGINT,
      failed_step TEXT,
      runner TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS xr_runs_open ON xr_runs (status, accepted_at)`,
    `CREATE INDEX IF NOT EXISTS xr_runs_accepted ON xr_runs (accepted_at)`,
    `CREATE TABLE IF NOT EXISTS xr_steps (
      run_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      status TEXT NOT NULL,
      input TEXT,
      output TEXT,
      error TEXT,
      started_at BIGINT,
      duration_ms BIGINT,
      write_sent_at BIGINT,
      PRIMARY KEY (run_id, idx)
    )`,
    // The triggers' state and the runners' heartbeats (`TriggerStore`).
    `CREATE TABLE IF NOT EXISTS xr_triggers (
      workflow TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      parameters TEXT NOT NULL,
      url TEXT,
      state TEXT,
      cursor TEXT,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS xr_runners (
      id TEXT PRIMARY KEY,
      seen_at BIGINT NOT NULL,
      pid INTEGER
    )`,
    // The engine's journal (`SqlWorkflowEngine`).
    `CREATE TABLE IF NOT EXISTS xr_journal (
      execution_id TEXT NOT NULL,
      entry TEXT NOT NULL,
      exit TEXT NOT NULL,
      PRIMARY KEY (execution_id, entry)
    )`,
    // The row a probe rewrites to learn whether writes succeed again (`Database.RunsHealth`).
    `CREATE TABLE IF NOT EXISTS xr_write_probe (id TEXT PRIMARY KEY, written_at BIGINT NOT NULL)`
  ]
  for (const statement of statements) yield* sql.unsafe(statement)
  // Several runners' shared rate limits (`SharedRateLimiter`): PostgreSQL only.
  yield* sql.onDialectOrElse({
    pg: () =>
      sql.unsafe(`CREATE TABLE IF NOT EXISTS xr_rate_limits (
        key TEXT PRIMARY KEY,
        returns TEXT NOT NULL,
        next INTEGER NOT NULL
      )`),
    orElse: () => Effect.void
  })
})

/** `xr_runs.runner`, which `CREATE TABLE IF NOT EXISTS` left out of an `xr_runs` made before it. */
const runsRunner = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () => sql.unsafe("ALTER TABLE xr_runs ADD COLUMN IF NOT EXISTS runner TEXT"),
    orElse: () =>
      Effect.gen(function*() {
        // SQLite has no `ADD COLUMN IF NOT EXISTS`.
        const columns = yield* sql<{ readonly name: string }>`SELECT name FROM pragma_table_info('xr_runs')`
        if (!columns.some((column) => column.name === "runner")) yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN runner TEXT")
      })
  })
})

/**
 * The shared rate limits (`SharedRateLimiter`) as core's algorithm keeps them: a row per bucket,
 * its tokens (each free from a time, or held by a request) as JSON, where there was a ring of
 * return times. Rows of the old shape are only rate-limit state a few seconds old: the table
 * is replaced. PostgreSQL only.
 */
const rateLimitTokens = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.zipRight(
        sql.unsafe("DROP TABLE IF EXISTS xr_rate_limits"),
        sql.unsafe(`CREATE TABLE IF NOT EXISTS xr_rate_limit_tokens (
          key TEXT PRIMARY KEY,
          tokens TEXT NOT NULL
        )`)
      ),
    orElse: () => Effect.void
  })
})

/**
 * `xr_steps` keyed by a task's path in the run (`overdue[3].comment`), not by a top-level
 * index: one row per task of the tree (groups, loops and waits included), with its kind, its
 * attempts, its wait for rate limits, and the attempt its write marker belongs to. Neither
 * SQLite nor a portable `ALTER` changes a primary key: the table is rebuilt, each row of a
 * run made before keyed by its step's name (its path then).
 */
const stepsByPath = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE xr_steps_by_path (
    run_id TEXT NOT NULL,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    input TEXT,
    output TEXT,
    error TEXT,
    started_at BIGINT,
    duration_ms BIGINT,
    attempts INTEGER,
    rate_limit_wait_ms BIGINT,
    write_sent_at BIGINT,
    write_attempt INTEGER,
    PRIMARY KEY (run_id, path)
  )`)
  // A skipped step of before had no start: it sorts after the others of its run, in its order.
  yield* sql.unsafe(`INSERT INTO xr_steps_by_path (run_id, path, name, kind, type, status, input, output, error, started_at, duration_ms, write_sent_at, write_attempt)
    SELECT run_id, name, name, 'action', type, status, input, output, error, started_at, duration_ms, write_sent_at,
      CASE WHEN write_sent_at IS NULL THEN NULL ELSE 1 END
    FROM xr_steps`)
  yield* sql.unsafe("DROP TABLE xr_steps")
  yield* sql.unsafe("ALTER TABLE xr_steps_by_path RENAME TO xr_steps")
})

/**
 * `xr_runs.origin` and `xr_runs.file`: a run `x-runner run` made and recorded (`origin` =
 * `'run'`, with the workflow file it ran), which no serving runner claims; `NULL` for the runs
 * of `serve`, as before.
 */
const runsOrigin = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN origin TEXT")
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN file TEXT")
})

/**
 * `xr_runs.rerun`: how a run `x-runner run` recorded was run (its connection source and file
 * settings, the names of the inputs given and a salted digest of their values, never the
 * values), so that `runs retry` runs it again the same way.
 */
const runsRerun = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN rerun TEXT")
})

/**
 * Runs handed to a workflow engine, not leased to a runner: `xr_runs.handed_attempt` is the
 * attempt whose execution the engine holds (NULL: to hand over), `xr_runs.waiting_until` the
 * time a run in the engine waits until (it holds no place in the engine's backlog meanwhile),
 * and `lease_owner` (the runner that claimed a run, under the runners' own heartbeats) goes,
 * with those heartbeats (`xr_runners`). On PostgreSQL the engine is
 * `@effect/cluster`'s, which journals in its own tables: the journal of an unfinished run of
 * before goes (its recorded tasks in `xr_steps`, and its write markers, carry it over).
 */
const runsHanded = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN handed_attempt INTEGER")
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN waiting_until BIGINT")
  yield* sql.unsafe("ALTER TABLE xr_runs DROP COLUMN lease_owner")
  // The runners' own heartbeats: the cluster's runners table (the database's time) says who is alive.
  yield* sql.unsafe("DROP TABLE IF EXISTS xr_runners")
  yield* sql.onDialectOrElse({ pg: () => sql.unsafe("DELETE FROM xr_journal"), orElse: () => Effect.void })
})

/**
 * The runs page (`RunStore.page`, `changedSince`): `xr_runs.changed_at`, when a run's row last
 * changed (its runs of before: when they finished, started or were accepted), which the page
 * follows live; and indexes that give a page of runs newest first (`accepted_at` DESC, then
 * `id`), whole or of one workflow or status, by reading only its rows. They replace
 * `xr_runs_accepted` and `xr_runs_open`, which they cover (their leading columns): an accepted
 * event writes four secondary indexes where it wrote two (not five), and a run's every change of
 * status moves `changed_at` (RESULTS.md measures what that costs the writes).
 */
const runsPage = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe("ALTER TABLE xr_runs ADD COLUMN changed_at BIGINT")
  yield* sql.unsafe("UPDATE xr_runs SET changed_at = COALESCE(finished_at, started_at, accepted_at)")
  yield* sql.unsafe("DROP INDEX IF EXISTS xr_runs_accepted")
  yield* sql.unsafe("DROP INDEX IF EXISTS xr_runs_open")
  yield* sql.unsafe("CREATE INDEX xr_runs_newest ON xr_runs (accepted_at DESC, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_status_newest ON xr_runs (status, accepted_at DESC, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_workflow_newest ON xr_runs (workflow, accepted_at DESC, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_changed ON xr_runs (changed_at DESC, id)")
})

/**
 * The page's four indexes ascending, read backwards for a page newest first (`accepted_at DESC,
 * id DESC`). A new run's entries now go at the right end of `xr_runs_newest`, `xr_runs_changed`
 * and (one workflow) `xr_runs_workflow_newest`, where SQLite appends to the last page; in a
 * descending index they went at the left end, splitting its first page in two again and again
 * (a group of 12 accepted on 50,000 runs: INSERT 180 µs against 218, COMMIT 256 against 276).
 */
const runsPageAscending = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const name of ["xr_runs_newest", "xr_runs_status_newest", "xr_runs_workflow_newest", "xr_runs_changed"]) {
    yield* sql.unsafe(`DROP INDEX IF EXISTS ${name}`)
  }
  yield* sql.unsafe("CREATE INDEX xr_runs_newest ON xr_runs (accepted_at, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_status_newest ON xr_runs (status, accepted_at, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_workflow_newest ON xr_runs (workflow, accepted_at, id)")
  yield* sql.unsafe("CREATE INDEX xr_runs_changed ON xr_runs (changed_at, id)")
})

/**
 * The migrations, in order.
 *
 * @since 0.4.1
 * @category constants
 */
export const loader: Migrator.Loader = Migrator.fromRecord({
  "0001_initial_schema": initialSchema,
  "0002_runs_runner": runsRunner,
  "0003_rate_limit_tokens": rateLimitTokens,
  "0004_steps_by_path": stepsByPath,
  "0005_runs_origin": runsOrigin,
  "0006_runs_rerun": runsRerun,
  "0007_runs_handed": runsHanded,
  "0008_runs_page": runsPage,
  "0009_runs_page_ascending": runsPageAscending
})

/** The advisory lock that serialises runners migrating one PostgreSQL ("xrunner" in ASCII). */
const schemaLock = 0x78_72_75_6e_6e_65_72

/**
 * Brings the database to the latest migration (nothing to do when it is there). On PostgreSQL,
 * runners started together do not race: `Migrator` locks its table to run the migrations, and
 * the table itself is first created under an advisory lock (two `CREATE TABLE`s at once fail).
 *
 * @since 0.4.1
 * @category constructors
 */
export const run = (sql: SqlClient.SqlClient): Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, SqlError | Migrator.MigrationError> =>
  Effect.gen(function*() {
    yield* sql.onDialectOrElse({
      pg: () =>
        sql.withTransaction(Effect.zipRight(
          sql`SELECT pg_advisory_xact_lock(${schemaLock})`,
          // As `Migrator` creates it on PostgreSQL.
          sql.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (
            migration_id integer primary key,
            created_at timestamp with time zone not null default now(),
            name text not null
          )`)
        )),
      orElse: () => Effect.void
    })
    return yield* Migrator.make({})({ loader, table })
  }).pipe(
    Effect.tap(() => untilMigrated(sql)),
    Effect.provideService(SqlClient.SqlClient, sql)
  )

/**
 * Another process migrating the same embedded database: `Migrator` finds its table locked and
 * returns at once, as if done, while the other's transaction has not committed yet (seen: the
 * second process then read "no such table: xr_runs"). So this waits until the latest migration
 * this x-runner knows (or a newer one) is recorded, running `Migrator` again meanwhile: once the
 * other commits it finds nothing to do, and if the other failed it runs them itself.
 */
const untilMigrated = (sql: SqlClient.SqlClient) => {
  const check = Effect.gen(function*() {
    const latest = Math.max(...(yield* loader).map(([id]) => id))
    const [newest] = yield* sql<{ readonly migration_id: number }>`SELECT migration_id FROM ${sql(table)} ORDER BY migration_id DESC LIMIT 1`
    if (newest === undefined || newest.migration_id < latest) {
      yield* Migrator.make({})({ loader, table })
      return yield* Effect.fail(new MigrationsRunningElsewhere())
    }
  })
  return check.pipe(
    // A migration takes milliseconds; 30 s bounds a stalled other process, then its own error says so.
    Effect.retry({ while: (error) => error._tag === "MigrationsRunningElsewhere", schedule: Schedule.spaced("50 millis").pipe(Schedule.upTo("30 seconds")) }),
    Effect.catchTag("MigrationsRunningElsewhere", () =>
      Effect.fail(new Migrator.MigrationError({ reason: "locked", message: "another process is still migrating the runs' database after 30 s" })))
  )
}

class MigrationsRunningElsewhere extends Data.TaggedError("MigrationsRunningElsewhere") {}

/**
 * Fails with `NewerSchema` when the database records a migration this x-runner does not know
 * (after `run`, which leaves such a database as it is).
 *
 * @since 0.5.0
 * @category constructors
 */
export const refuseNewer = (sql: SqlClient.SqlClient): Effect.Effect<void, SqlError | Migrator.MigrationError | NewerSchema> =>
  Effect.gen(function*() {
    const latest = Math.max(...(yield* loader).map(([id]) => id))
    const [newest] = yield* sql<{ readonly migration_id: number; readonly name: string }>`SELECT migration_id, name FROM ${sql(table)} ORDER BY migration_id DESC LIMIT 1`
    if (newest !== undefined && newest.migration_id > latest) {
      return yield* new NewerSchema({ migration: newest.migration_id, name: newest.name, latest })
    }
  })

/**
 * The database records a migration this x-runner does not know: a newer x-runner migrated it,
 * and its schema may hold what this one would misread, or rows this one would write wrong. It
 * is refused before anything reads or writes it (the newer x-runner, or a later one, opens it).
 *
 * @since 0.5.0
 * @category errors
 */
export class NewerSchema extends Data.TaggedError("NewerSchema")<{
  readonly migration: number
  readonly name: string
  /** The latest migration this x-runner knows. */
  readonly latest: number
}> {
  override get message() {
    return `the runs' database was migrated by a newer x-runner: it is at migration ${this.migration} "${this.name}", ` +
      `this x-runner knows up to ${this.latest}: open it with that x-runner, or a newer one`
  }
}
