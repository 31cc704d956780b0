/**
 * Where `serve` keeps everything: one embedded SQLite database in the data directory by
 * default (nothing to install or start), or a PostgreSQL shared by several runners
 * (`--database postgres://…`). Out of it come the runs' client (`RunsSql`: accepted events,
 * runs, steps, the engine's journal, triggers) and its group-committed writes (`RunsWrites`).
 *
 * In SQLite it is one file, `runs.db`, created readable by the owner only, in WAL mode with
 * `synchronous = NORMAL` (a commit does not block the process on a disk flush); each batch of
 * commits is then flushed to disk by `RunsDurability` before its writers go on (a delivery is
 * acknowledged, a step's result is journaled): it survives a power cut. A file that is not a
 * database, or that fails SQLite's check, stops the start with its name: never silently skipped.
 *
 * Its schema is brought up to date when it is opened (`Migrations`), an older database's included.
 *
 * Whether writes succeed is kept (`RunsHealth`): a full disk, or PostgreSQL gone, makes them
 * refused until a probe write succeeds again; `serve` answers 503 meanwhile and its runs wait.
 *
 * @since 0.3.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { DamagedData, InvalidArguments, ServeProblem } from "../Errors.js"
import * as PrivateFile from "../internal/privateFile.js"
import * as WriteBatcher from "./internal/writeBatcher.js"
import * as Migrations from "./Migrations.js"

/**
 * Where `serve` keeps its runs: the data directory's SQLite files, or a PostgreSQL.
 *
 * @since 0.3.0
 * @category models
 */
export type Location =
  | { readonly _tag: "Embedded"; readonly dataDir: string }
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }

/**
 * The location named by `--database` (or `XRUNNER_DATABASE`), else the data directory's files.
 *
 * @since 0.3.0
 * @category constructors
 */
export const locateDatabase = (database: string | undefined, dataDir: string): Effect.Effect<Location, InvalidArguments> => {
  if (database === undefined || database === "") return Effect.succeed({ _tag: "Embedded", dataDir })
  if (/^postgres(ql)?:\/\//.test(database)) return Effect.succeed({ _tag: "Postgres", url: Redacted.make(database) })
  // The value may hold a password: only its scheme is named.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(database)?.[0] ?? "a value without a scheme"
  return Effect.fail(new InvalidArguments({ message: `--database takes a postgres:// URL (got ${scheme}); leave it out for the embedded database` }))
}

/**
 * Creates the data directory (mode 0700), or makes an existing one 0700: it holds payloads.
 * One that others may read and that belongs to another user is refused (not ours to change).
 *
 * @since 0.3.0
 * @category constructors
 */
export const makeDataDir = (dataDir: string): Effect.Effect<void, DamagedData, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const problem = (message: string) => new DamagedData({ file: dataDir, message })
    const cannot = (error: { readonly message: string }) => problem(`the data directory ${dataDir} cannot be used: ${error.message}`)
    if (!(yield* Effect.mapError(fs.exists(dataDir), cannot))) {
      return yield* Effect.mapError(fs.makeDirectory(dataDir, { recursive: true, mode: 0o700 }), (error) =>
        problem(`the data directory ${dataDir} cannot be created: ${error.message}`))
    }
    const info = yield* Effect.mapError(fs.stat(dataDir), cannot)
    if (info.type !== "Directory") return yield* problem(`the data directory ${dataDir} is not a directory`)
    if ((info.mode & 0o077) === 0) return
    const owner = Option.getOrUndefined(info.uid)
    if (owner !== undefined && owner !== process.getuid?.()) {
      return yield* problem(
        `the data directory ${dataDir} can be read by other users (mode ${(info.mode & 0o777).toString(8)}) and belongs to ` +
          `another user: make it 0700 (chmod 700 ${dataDir}) or choose another with --data-dir`
      )
    }
    yield* Effect.mapError(fs.chmod(dataDir, 0o700), cannot)
  })

/**
 * The runs' database client (`RunStore`'s, `TriggerStore`'s and the engine's journal's tables).
 *
 * @since 0.3.0
 * @category tags
 */
export class RunsSql extends Context.Tag("x-runner/RunsSql")<RunsSql, SqlClient.SqlClient>() {}

/**
 * What makes the runs' committed writes durable before a delivery is acknowledged: on
 * PostgreSQL the commit itself; on SQLite an `fsync` of `runs.db-wal` after the commit, on
 * Node's thread pool. SQLite runs `runs.db` with `synchronous = NORMAL` (a commit writes its
 * WAL frames without syncing them, so it does not block the process for a disk flush), and
 * this sync makes every frame written so far durable: one flush for a whole batch of
 * deliveries, the event loop free meanwhile. (SQLite syncs the WAL itself before each
 * checkpoint.)
 *
 * @since 0.3.0
 * @category tags
 */
export class RunsDurability extends Context.Tag("x-runner/RunsDurability")<RunsDurability, {
  readonly flush: Effect.Effect<void, ServeProblem>
}>() {}

/** How long a SQLite statement waits for another connection's write lock before it fails (`SQLITE_BUSY`). */
const busyTimeoutMs = 5000

/** SQLite's codes for a file that is not a database, or a damaged one. */
const damageCodes = new Set(["SQLITE_NOTADB", "SQLITE_CORRUPT"])

/**
 * The file's lock taken while it is opened: another process opening it at the same moment (a
 * `serve` and an `x-runner runs` started together) switches it to WAL or migrates it. SQLite
 * answers `SQLITE_BUSY` at once, without its busy handler, where waiting could deadlock (both
 * holding a shared lock, both asking for the exclusive one that turns on WAL): opened again.
 */
class OpenBusy extends Data.TaggedError("OpenBusy")<{ readonly problem: ServeProblem }> {}

/** A failure to open or check a SQLite file: damage when SQLite says so, the lock taken by another opening, else a problem of its own. */
const openFailed = (file: string, cause: unknown): DamagedData | ServeProblem | OpenBusy => {
  const error = (cause as { cause?: unknown })?.cause ?? cause
  const code = (error as { code?: unknown })?.code
  if (typeof code === "string" && damageCodes.has(code)) return damagedSqlite(file, error)
  const problem = new ServeProblem({ message: `the embedded database ${file} cannot be opened: ${String(error)}` })
  return typeof code === "string" && code.startsWith("SQLITE_BUSY") ? new OpenBusy({ problem }) : problem
}

/**
 * A layer built in a scope of its own, closed as soon as its building fails: a failed opening's
 * connection is closed before the next is tried (a layer's resources otherwise stay open until
 * the scope it was built in closes), else when the layer's scope closes.
 */
const closedWhenFailed = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.scopedContext(Effect.uninterruptibleMask((restore) =>
    Effect.gen(function*() {
      const own = yield* Scope.make()
      const context = yield* Effect.onError(restore(Layer.buildWithScope(layer, own)), (cause) => Scope.close(own, Exit.failCause(cause)))
      yield* Effect.addFinalizer((exit) => Scope.close(own, exit))
      return context
    })
  ))

/** How a SQLite file whose lock another opening holds is opened again: soon, for as long as a statement waits for a lock. */
const openAgain = Schedule.spaced("50 millis").pipe(
  Schedule.whileInput((error: DamagedData | ServeProblem | OpenBusy) => error._tag === "OpenBusy"),
  Schedule.upTo(Duration.millis(busyTimeoutMs))
)

/** What a damaged SQLite file says when it is opened or checked. */
const damagedSqlite = (file: string, cause: unknown) =>
  new DamagedData({
    file,
    message: `${file} is not a database x-runner can read (${
      String((cause as { cause?: unknown })?.cause ?? cause).replace(/^SqliteError: /, "")
    }). Nothing is skipped silently: move it aside (mv ${file} ${file}.damaged) to start empty, once you know which of its runs ran.`
  })

/**
 * A SQLite file created 0600 before SQLite opens it (its -wal and -shm files take its mode).
 * None of the three may be a symbolic link: SQLite would write through it, and making it
 * private would change the mode of what it points at. Such a link is refused, untouched.
 */
const privateFile = (file: string) =>
  Effect.gen(function*() {
    for (const own of [file, `${file}-wal`, `${file}-shm`]) yield* PrivateFile.notALink(own)
    yield* PrivateFile.ensure(file)
  }).pipe(Effect.mapError((problem) =>
    new DamagedData({
      file: problem.file,
      message: problem.link
        ? `${problem.file} is a symbolic link: x-runner keeps its runs in files of its own and follows no link there (nothing was changed). ` +
          `Put the file itself in its place, or choose another --data-dir`
        : problem.message
    })
  ))

/**
 * The runs' group commit on SQLite waits for another connection's write lock (the engine's
 * thread's, `x-runner runs`') without sleeping its thread in SQLite's busy handler, whose sleeps
 * (1, 2, 5, 10 ms… between looks) blocked the serving thread's event loop while deliveries
 * waited: it tries, and tries again after a millisecond or a few (`WriteBatcher.LockWait`).
 *
 * @internal
 */
export const sqliteLockWait = (sql: SqlClient.SqlClient): WriteBatcher.LockWait => ({
  noWait: Effect.asVoid(sql.unsafe("PRAGMA busy_timeout = 0")),
  wait: Effect.asVoid(sql.unsafe(`PRAGMA busy_timeout = ${busyTimeoutMs}`)),
  isBusy: (error) => {
    const code = (error.cause as { readonly code?: unknown } | undefined)?.code
    return typeof code === "string" && code.startsWith("SQLITE_BUSY")
  },
  pause: (attempt) => Math.min(1 + (attempt >> 1), 5),
  limit: busyTimeoutMs
})

const sqlite = (file: string, checkpointElsewhere: boolean) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    yield* privateFile(file)
    return SqliteClient.layer({ filename: file }).pipe(
      Layer.tap((context) =>
        Effect.gen(function*() {
          const sql = Context.get(context, SqlClient.SqlClient)
          const check = yield* sql.unsafe<{ readonly quick_check: string }>("PRAGMA quick_check")
          const verdict = check.map((row) => row.quick_check)
          if (verdict.join() !== "ok") return yield* Effect.fail(damagedSqlite(file, verdict.join("; ")))
          yield* sql.unsafe("PRAGMA synchronous = NORMAL")
          // A second process (x-runner runs) may write while serve does: wait for its lock.
          yield* sql.unsafe(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
          // The commit that finds the WAL past 1,000 pages copies it into the database and syncs
          // both, in the thread that committed, while the serving thread's deliveries wait. That
          // thread leaves it to the engine's connection (and SQLite's last close),
          // unless the WAL reaches ten times that: an engine thread that writes nothing meanwhile
          // must not let it grow without bound.
          if (checkpointElsewhere) yield* sql.unsafe("PRAGMA wal_autocheckpoint = 10000")
        }).pipe(Effect.catchAll((error) => Effect.fail(error instanceof DamagedData ? error : openFailed(file, error))))
      ),
      // better-sqlite3 throws when a file that is not a database is opened in WAL mode, or when
      // turning WAL on finds the lock taken.
      Layer.catchAllCause((cause) =>
        Layer.fail(
          cause._tag === "Fail" && (cause.error instanceof DamagedData || cause.error instanceof ServeProblem || cause.error instanceof OpenBusy)
            ? cause.error
            : openFailed(file, cause._tag === "Fail" ? cause.error : cause._tag === "Die" ? cause.defect : cause)
        )
      ),
      closedWhenFailed,
      Layer.retry(openAgain),
      Layer.mapError((error) => error._tag === "OpenBusy" ? error.problem : error),
      Layer.map((context) => Context.make(SqlClient.SqlClient, Context.get(context, SqlClient.SqlClient)))
    )
  }))

/**
 * The runs' writes, group-committed (`internal/writeBatcher`): a write waits for the next
 * commit, which takes every write waiting in one transaction, made durable once for all of them
 * (`RunsDurability`).
 *
 * @since 0.3.0
 * @category tags
 */
export class RunsWrites extends Context.Tag("x-runner/RunsWrites")<RunsWrites, WriteBatcher.WriteBatcher>() {}

/**
 * Whether the runs' database takes writes: it stops when a write is refused for a reason of the
 * storage's (a full disk, an I/O error, PostgreSQL gone: anything but a statement wrong in
 * itself), and it is back only once a write of its own (a probe, written and made durable as
 * every write is, retried meanwhile) succeeds: reads succeeding, or a write that changed
 * nothing, prove nothing.
 *
 * @since 0.4.0
 * @category tags
 */
export class RunsHealth extends Context.Tag("x-runner/RunsHealth")<RunsHealth, {
  /** Why writes are refused now; none while they succeed. */
  readonly failing: Effect.Effect<Option.Option<string>>
  /** Each change between failing and not (the state now first). */
  readonly changes: Stream.Stream<Option.Option<string>>
  /** Waits until writes succeed (at once while they do). */
  readonly writable: Effect.Effect<void>
  /** A write made without `RunsWrites` was refused: writes are probed until one succeeds (those of `RunsWrites` report themselves). */
  readonly refused: (why: string) => Effect.Effect<void>
}>() {}

/**
 * A full disk, injected by a test: while it is on, every transaction of `RunsWrites` is refused
 * as SQLite refuses the COMMIT of a full disk (rolled back, `SQLITE_FULL`, which `@effect/sql`
 * reports as a defect), so everything after it takes the path of a real one. It lives in shared
 * memory: the engine's thread gets its `buffer` and sees it switched. Only a layer's option
 * (`layer(location, { writeFault })`): nothing on the command line or in the environment reaches it.
 *
 * @since 0.4.0
 * @category testing
 */
export interface WriteFault {
  readonly buffer: SharedArrayBuffer
  readonly on: () => boolean
  readonly set: (on: boolean) => void
  /** How many transactions it refused, in every thread. */
  readonly refused: () => number
}

/**
 * A write fault, off, or the one whose buffer another thread made.
 *
 * @since 0.4.0
 * @category testing
 */
export const writeFault = (buffer: SharedArrayBuffer = new SharedArrayBuffer(8)): WriteFault => {
  const cells = new Int32Array(buffer)
  return {
    buffer,
    on: () => Atomics.load(cells, 0) === 1,
    set: (on) => void Atomics.store(cells, 0, on ? 1 : 0),
    refused: () => Atomics.load(cells, 1)
  }
}

/** The COMMIT a full disk refuses, as better-sqlite3 and `@effect/sql` report it. */
const diskFull = (fault: WriteFault) =>
  Effect.suspend(() => {
    if (!fault.on()) return Effect.void
    Atomics.add(new Int32Array(fault.buffer), 1, 1)
    const cause = Object.assign(new Error("database or disk is full"), { name: "SqliteError", code: "SQLITE_FULL" })
    return Effect.die(new SqlError({ cause, message: "Failed to execute statement" }))
  })

/**
 * A write that fails for what it is (a constraint, a value of the wrong type: SQLite's codes, and
 * PostgreSQL's classes 22 and 23) fails alone; anything else is the storage refusing writes.
 *
 * @since 0.13.0
 * @category utils
 */
export const wrongInItself = (error: SqlError): boolean => {
  const code = (error.cause as { readonly code?: unknown } | undefined)?.code
  return typeof code === "string" && (/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code) || /^2[23][0-9A-Z]{3}$/.test(code))
}

/**
 * What the database said of a failed statement, and its code (`@effect/sql`'s own message is
 * only "Failed to execute statement").
 *
 * @since 0.4.0
 * @category utils
 */
export const errorText = (error: SqlError): string => {
  const cause = error.cause as { readonly message?: unknown; readonly code?: unknown } | undefined
  const said = typeof cause?.message === "string" ? cause.message : error.message
  return typeof cause?.code === "string" ? `${said} (${cause.code})` : said
}

/** How often a refused database is tried again with a probe: soon at first, then every 2 seconds. */
const probeEvery = Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("2 seconds")))

const writesLayer = (fault: WriteFault | undefined, embedded: boolean, commitDelay: Duration.DurationInput | undefined) =>
  Layer.scopedContext(Effect.gen(function*() {
    const durability = yield* RunsDurability
    const sql = yield* RunsSql
    const state = yield* SubscriptionRef.make(Option.none<string>())
    const probeWanted = yield* Queue.sliding<void>(1)
    const refused = (why: string) => Effect.zipRight(SubscriptionRef.set(state, Option.some(why)), Queue.offer(probeWanted, undefined))
    const writes = yield* WriteBatcher.make(sql, {
      afterCommit: Effect.mapError(durability.flush, (problem) => new SqlError({ cause: problem, message: problem.message })),
      beforeCommit: fault === undefined ? undefined : diskFull(fault),
      failed: (error) => wrongInItself(error) ? Effect.void : refused(errorText(error)),
      lockWait: embedded ? sqliteLockWait(sql) : undefined,
      commitDelay
    })
    // A row that each probe changes, so that it is written to disk.
    const probe = Effect.suspend(() =>
      writes.write(
        sql`INSERT INTO xr_write_probe (id, written_at) VALUES ('probe', ${Date.now()})
          ON CONFLICT (id) DO UPDATE SET written_at = EXCLUDED.written_at`
      )
    )
    yield* Effect.forkScoped(Effect.forever(
      Queue.take(probeWanted).pipe(
        Effect.zipRight(Effect.retry(probe, probeEvery)),
        Effect.zipRight(SubscriptionRef.set(state, Option.none()))
      )
    ))
    const changes = Stream.changesWith(state.changes, (a, b) => Option.isSome(a) === Option.isSome(b))
    return Context.make(RunsWrites, writes).pipe(Context.add(RunsHealth, {
      failing: SubscriptionRef.get(state),
      changes,
      writable: Effect.asVoid(Stream.runHead(Stream.filter(state.changes, Option.isNone))),
      refused
    }))
  }))

/**
 * How long the group commit of the thread that acknowledges deliveries waits for more after its
 * first write: 1 ms, the most deliveries a second of 1, 2 and 3 ms (RESULTS.md, "acknowledging
 * first"), a millisecond more before a lone delivery's answer.
 *
 * @since 0.13.0
 * @category constants
 */
export const receivingCommitDelay = Duration.millis(1)

/**
 * The runs' client (`RunsSql`) at the location, its writes (`RunsWrites`), whether they succeed
 * (`RunsHealth`) and what makes them durable (`RunsDurability`). A test may inject a full disk
 * (`writeFault`). `serve`'s thread leaves checkpoints to its engine's (`checkpointElsewhere`),
 * unless its WAL passes 10,000 pages.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer = (
  location: Location,
  options: {
    readonly writeFault?: WriteFault | undefined
    /**
     * On SQLite, whether another connection to the file (the engine thread's, in `serve`)
     * checkpoints the WAL into the database for this one, whose commits then do only once the WAL
     * passes 10,000 pages (an engine that writes nothing must not let it grow without bound).
     */
    readonly checkpointElsewhere?: boolean | undefined
    /** How long a group commit waits for more writes after its first (`receivingCommitDelay` for the thread that acknowledges deliveries). */
    readonly commitDelay?: Duration.DurationInput | undefined
  } = {}
): Layer.Layer<RunsSql | RunsDurability | RunsWrites | RunsHealth, DamagedData | ServeProblem, FileSystem.FileSystem | Path.Path> => {
  const client: Layer.Layer<RunsSql | RunsDurability, DamagedData | ServeProblem, FileSystem.FileSystem | Path.Path> = location._tag === "Postgres"
    ? Layer.map(postgresClient(location), (context) =>
      Context.make(RunsSql, Context.get(context, SqlClient.SqlClient)).pipe(Context.add(RunsDurability, { flush: Effect.void })))
    : Layer.unwrapEffect(Effect.gen(function*() {
      yield* makeDataDir(location.dataDir)
      const file = (yield* Path.Path).join(location.dataDir, "runs.db")
      return Layer.merge(
        sqlite(file, options.checkpointElsewhere === true).pipe(Layer.map((context) => Context.make(RunsSql, Context.get(context, SqlClient.SqlClient)))),
        Layer.scoped(RunsDurability, walSync(`${file}-wal`))
      )
    }))
  return Layer.provideMerge(writesLayer(options.writeFault, location._tag === "Embedded", options.commitDelay), Layer.tap(client, (context) => migrate(Context.get(context, RunsSql))))
}

/** The schema brought up to date (`Migrations`) before anything reads or writes the database. */
const migrate = (sql: SqlClient.SqlClient) =>
  Migrations.run(sql).pipe(
    // `Migrator` reports a migration that failed as a defect.
    Effect.catchAllDefect((defect) => defect instanceof Migrator.MigrationError ? Effect.fail(defect) : Effect.die(defect)),
    // A database a newer x-runner migrated is not read or written on a schema this one cannot know.
    Effect.zipRight(Migrations.refuseNewer(sql)),
    Effect.mapError((error) =>
      new ServeProblem({
        message: error instanceof Migrations.NewerSchema ? error.message : `the runs' database cannot be brought up to date: ${
          error instanceof SqlError
            ? errorText(error)
            : error.cause instanceof SqlError
            ? `${error.message}: ${errorText(error.cause)}`
            : error.message
        }`
      })
    )
  )

/** The fsync of a WAL file, opened at its first flush (SQLite creates it with the first write) and kept open. */
const walSync = (wal: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const scope = yield* Effect.scope
    let opened: FileSystem.File | undefined
    const cannot = (error: { readonly message: string }) => new ServeProblem({ message: `${wal} cannot be flushed to disk: ${error.message}` })
    const flush = Effect.gen(function*() {
      if (opened === undefined) opened = yield* Effect.mapError(Scope.extend(fs.open(wal, { flag: "r" }), scope), cannot)
      yield* Effect.mapError(opened.sync, cannot)
    })
    // One flush at a time: a flush that starts after a commit covers it.
    const lock = yield* Effect.makeSemaphore(1)
    return { flush: lock.withPermits(1)(flush) }
  })

const postgresClient = (location: Location & { readonly _tag: "Postgres" }) =>
  PgClient.layer({ url: location.url, applicationName: "x-runner" }).pipe(
    Layer.mapError((error) => new ServeProblem({ message: `the database cannot be reached: ${error.message}` }))
  )
