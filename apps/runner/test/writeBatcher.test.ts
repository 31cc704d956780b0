/**
 * The runs' group commit (`internal/writeBatcher`) in process, on an in-memory SQLite database:
 * writes submitted while a commit is under way go together into the next transaction, in the
 * order they came; a write that fails for what it is fails alone; a transaction the database
 * refuses (its COMMIT, on a full disk) fails every write of it. Nothing here waits on a clock:
 * the first write holds its transaction open until the others are queued behind it. With
 * `lockWait` (the runner's own, on a file, another connection holding its write lock), a write,
 * and a failed batch's write written again alone, waits for the lock without blocking its thread:
 * other fibers run meanwhile, and it commits once the lock is free.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberStatus from "effect/FiberStatus"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import * as WriteBatcher from "../src/store/internal/writeBatcher.js"
import { runsDatabase } from "./bin.js"

/** A batcher on a fresh database, counting its commits and the failures it was told of. */
const setup = (options: { readonly maxBatch?: number; readonly commitDelay?: Duration.DurationInput } = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE notes (seq INTEGER PRIMARY KEY AUTOINCREMENT, writer TEXT NOT NULL UNIQUE, transaction_no INTEGER NOT NULL)`
    const state = { commits: 0, diskFull: false, refusedCommits: 0, failed: [] as Array<SqlError> }
    const batcher = yield* WriteBatcher.make(sql, {
      maxBatch: options.maxBatch,
      commitDelay: options.commitDelay,
      afterCommit: Effect.sync(() => void state.commits++),
      // As the runner's injected full disk: SQLite refusing the COMMIT reaches here as a defect.
      beforeCommit: Effect.suspend(() => {
        if (!state.diskFull) return Effect.void
        state.refusedCommits++
        const cause = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" })
        return Effect.die(new SqlError({ cause, message: "Failed to execute statement" }))
      }),
      failed: (error) => Effect.sync(() => void state.failed.push(error))
    })
    /** A write of one row, recording which transaction it went into (the commits before it + 1). */
    const note = (writer: string) =>
      Effect.suspend(() => sql<{ seq: number }>`INSERT INTO notes (writer, transaction_no) VALUES (${writer}, ${state.commits + 1}) RETURNING seq`)
        .pipe(Effect.map((rows) => rows[0]!.seq))
    const rows = sql<{ writer: string; transaction_no: number }>`SELECT writer, transaction_no FROM notes ORDER BY seq`
      .pipe(Effect.map((rows) => rows.map((row) => `${row.writer}@${row.transaction_no}`)))
    /**
     * Starts a write that holds the batcher's transaction open until `release`: what comes
     * meanwhile queues for the next transaction.
     */
    const hold = Effect.gen(function*() {
      const inside = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(batcher.write(Deferred.succeed(inside, undefined).pipe(
        Effect.zipRight(Deferred.await(release)),
        Effect.zipRight(note("first"))
      )))
      yield* Deferred.await(inside)
      return { fiber, release: Deferred.succeed(release, undefined) }
    })
    /** Submits writes one after the other, each queued (its writer waiting) before the next. */
    const queue = <A>(writes: ReadonlyArray<Effect.Effect<A, SqlError>>) =>
      Effect.forEach(writes, (write) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(batcher.write(write))
          yield* Effect.repeat(Effect.zipRight(Effect.yieldNow(), Fiber.status(fiber)), { until: (status) => FiberStatus.isSuspended(status) })
          return fiber
        }))
    return { batcher, note, rows, hold, queue, state }
  })

/** A test on a fresh in-memory database: the batcher's scope closes before the database does. */
const withDatabase = <A, E>(test: Effect.Effect<A, E, SqlClient.SqlClient | Scope.Scope>) =>
  Effect.scoped(test).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })))

/**
 * A batcher on a file with the runner's own lock wait (`Database.sqliteLockWait`, its pauses
 * counted, its limit a minute), beside another connection to the file (another thread's, in serve) that the test
 * makes take the write lock. `triesBeyond(n)` waits, this fiber running all along (the thread is
 * not blocked), until the batcher has paused for the lock `n` times.
 */
const withLockedFile = <A, E>(
  test: (file: {
    readonly sql: SqlClient.SqlClient
    readonly batcher: WriteBatcher.WriteBatcher
    /** A connection outside @effect/sql (which would run its statements in the batcher's transaction). */
    readonly locker: ReturnType<typeof runsDatabase>
    readonly rows: Effect.Effect<ReadonlyArray<string>, SqlError>
    readonly busyTimeout: Effect.Effect<number, SqlError>
    readonly triesBeyond: (n: number) => Effect.Effect<void>
    readonly tries: () => number
  }) => Effect.Effect<A, E, Scope.Scope>,
  overrides: (sql: SqlClient.SqlClient) => Partial<WriteBatcher.LockWait> = () => ({})
) =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "write-batcher-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const file = join(dir, "runs.db")
    const locker = yield* Effect.acquireRelease(Effect.sync(() => runsDatabase(dir)), (db) => Effect.sync(() => db.close()))
    locker.exec("CREATE TABLE notes (writer TEXT NOT NULL)")
    return yield* Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runners = Database.sqliteLockWait(sql)
      let tries = 0
      const lockWait: WriteBatcher.LockWait = {
        ...runners,
        // However slow the machine, the batcher keeps trying without blocking the thread until the
        // test lets the lock go (past the runner's 5 s it would wait in SQLite's busy handler).
        limit: "1 minute",
        pause: (attempt) => {
          tries++
          return runners.pause(attempt)
        },
        ...overrides(sql)
      }
      // The connection's usual busy timeout, as the runner opens it.
      yield* lockWait.wait
      const batcher = yield* WriteBatcher.make(sql, { lockWait })
      const triesBeyond = (n: number) =>
        Effect.gen(function*() {
          for (let looks = 0; tries < n; looks++) {
            expect(looks).toBeLessThan(10_000)
            yield* Effect.sleep("1 millis")
          }
        })
      const rows = Effect.map(sql<{ writer: string }>`SELECT writer FROM notes ORDER BY rowid`, (rows) => rows.map((row) => row.writer))
      const busyTimeout = Effect.map(sql.unsafe<{ timeout: number }>("PRAGMA busy_timeout"), (rows) => rows[0]!.timeout)
      return yield* test({ sql, batcher, locker, rows, busyTimeout, triesBeyond, tries: () => tries })
    }).pipe(Effect.provide(SqliteClient.layer({ filename: file })))
  }).pipe(Effect.scoped)

/**
 * Submits `writes` so that they go into one transaction: queued while a write holds the one
 * before theirs open, then that one let go. Their fibers, each ending in its write's exit.
 */
const inOneBatch = (batcher: WriteBatcher.WriteBatcher, writes: ReadonlyArray<Effect.Effect<unknown, SqlError>>) =>
  Effect.gen(function*() {
    const inside = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const holding = yield* Effect.fork(batcher.write(Deferred.succeed(inside, undefined).pipe(Effect.zipRight(Deferred.await(release)))))
    yield* Deferred.await(inside)
    const fibers = yield* Effect.forEach(writes, (write) =>
      Effect.gen(function*() {
        const fiber = yield* Effect.fork(Effect.exit(batcher.write(write)))
        yield* Effect.repeat(Effect.zipRight(Effect.yieldNow(), Fiber.status(fiber)), { until: (status) => FiberStatus.isSuspended(status) })
        return fiber
      }))
    yield* Deferred.succeed(release, undefined)
    yield* Fiber.join(holding)
    return fibers
  })

describe("WriteBatcher", () => {
  it.effect("writes queued during a commit go together into the next transaction, in order; each writer gets its own write's result", () =>
    withDatabase(Effect.gen(function*() {
      const { hold, note, queue, rows, state } = yield* setup()
      const first = yield* hold
      const writers = yield* queue(["a", "b", "c", "d", "e"].map(note))
      yield* first.release
      expect(yield* Fiber.join(first.fiber)).toBe(1)
      expect(yield* Effect.forEach(writers, Fiber.join)).toEqual([2, 3, 4, 5, 6])
      expect(yield* rows).toEqual(["first@1", "a@2", "b@2", "c@2", "d@2", "e@2"])
      expect(state.commits).toBe(2)
      expect(state.failed).toEqual([])
    })))

  it.effect("a transaction takes at most maxBatch writes", () =>
    withDatabase(Effect.gen(function*() {
      const { hold, note, queue, rows, state } = yield* setup({ maxBatch: 2 })
      const first = yield* hold
      const writers = yield* queue(["a", "b", "c", "d", "e"].map(note))
      yield* first.release
      yield* Effect.forEach([first.fiber, ...writers], Fiber.join)
      expect(yield* rows).toEqual(["first@1", "a@2", "b@2", "c@3", "d@3", "e@4"])
      expect(state.commits).toBe(4)
    })))

  it.effect("with commitDelay, a batch waits that long after its first write: the writes arriving meanwhile go into its transaction", () =>
    withDatabase(Effect.gen(function*() {
      const { note, queue, rows, state } = yield* setup({ commitDelay: "1 millis" })
      // The batch waits 1 ms (on the TestClock) after its first write: the others arrive meanwhile.
      const writers = yield* queue(["a", "b", "c"].map(note))
      const whileWaiting = state.commits
      yield* TestClock.adjust("1 millis")
      yield* Effect.forEach(writers, Fiber.join)
      expect(whileWaiting).toBe(0)
      expect(yield* rows).toEqual(["a@1", "b@1", "c@1"])
      expect(state.commits).toBe(1)
    })))

  it.effect("a write that fails for what it is fails alone: the others of its batch are written, each in a transaction of its own, in order", () =>
    withDatabase(Effect.gen(function*() {
      const { hold, note, queue, rows, state } = yield* setup()
      const first = yield* hold
      const writers = yield* queue([note("a"), note("first"), note("c")]) // "first" again: UNIQUE refuses it
      yield* first.release
      yield* Fiber.join(first.fiber)
      const [a, duplicate, c] = yield* Effect.forEach(writers, Fiber.await)
      expect(Exit.isSuccess(a!) && Exit.isSuccess(c!)).toBe(true)
      expect(Exit.isFailure(duplicate!)).toBe(true)
      expect(state.failed.map((error) => (error.cause as { code?: string }).code)).toEqual(["SQLITE_CONSTRAINT_UNIQUE"])
      // The batch rolled back, then a and c each committed alone.
      expect(yield* rows).toEqual(["first@1", "a@2", "c@3"])
      expect(state.commits).toBe(3)
    })))

  it.effect("a refused COMMIT fails every write of its transaction (as a failure, to be retried), writes none, and the next transaction goes through", () =>
    withDatabase(Effect.gen(function*() {
      const { batcher, hold, note, queue, rows, state } = yield* setup()
      const first = yield* hold
      const writers = yield* queue(["a", "b", "c"].map(note))
      state.diskFull = true // from the second transaction on: the first's COMMIT has not run yet either
      yield* first.release
      const exits = yield* Effect.forEach([first.fiber, ...writers], Fiber.await)
      expect(exits.map((exit) => Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag === "SqlError")).toEqual([true, true, true, true])
      expect(state.failed).toHaveLength(4)
      expect(state.failed.every((error) => (error.cause as { code?: string }).code === "SQLITE_FULL")).toBe(true)
      expect(yield* rows).toEqual([])
      expect(state.commits).toBe(0)
      // Two transactions refused, neither tried again write by write: each alone would be refused too.
      expect(state.refusedCommits).toBe(2)
      state.diskFull = false
      expect(yield* batcher.write(note("again"))).toBeTypeOf("number")
      expect(yield* rows).toEqual(["again@1"])
    })))
  it.live("with lockWait, a write waits for another connection's write lock without blocking the thread, then commits; the busy timeout is restored", () =>
    withLockedFile(({ batcher, busyTimeout, locker, rows, sql, triesBeyond }) =>
      Effect.gen(function*() {
        // The other connection holds the write lock: the write is tried, and tried again.
        locker.exec("BEGIN IMMEDIATE")
        locker.exec("INSERT INTO notes (writer) VALUES ('other')")
        const write = yield* Effect.fork(batcher.write(sql`INSERT INTO notes (writer) VALUES ('batcher')`))
        yield* triesBeyond(3)
        expect(FiberStatus.isDone(yield* Fiber.status(write))).toBe(false)
        locker.exec("COMMIT")
        yield* Fiber.join(write)
        expect(yield* rows).toEqual(["other", "batcher"])
        expect(yield* busyTimeout).toBe(5000)
      })))

  it.live("with lockWait, a failed batch's writes, written again alone, wait for another connection's lock without blocking the thread too", () =>
    withLockedFile(({ batcher, busyTimeout, locker, rows, sql, triesBeyond }) =>
      Effect.gen(function*() {
        // Each alone is the good write's second run: before its INSERT, the other connection takes
        // the write lock (its transaction begun, nothing of ours written yet, so nothing waits).
        let runs = 0
        const good = Effect.suspend(() => {
          runs++
          const lock = runs === 2 ? Effect.sync(() => void locker.exec("BEGIN IMMEDIATE")) : Effect.void
          return Effect.zipRight(lock, sql`INSERT INTO notes (writer) VALUES ('good')`)
        })
        const bad = sql`INSERT INTO notes (writer) VALUES (NULL)`
        const writes = yield* inOneBatch(batcher, [good, bad])
        yield* triesBeyond(3)
        expect(FiberStatus.isDone(yield* Fiber.status(writes[0]!))).toBe(false)
        locker.exec("COMMIT")
        const [goodExit, badExit] = yield* Effect.forEach(writes, Fiber.join)
        expect(Exit.isSuccess(goodExit!)).toBe(true)
        expect(Exit.isFailure(badExit!)).toBe(true)
        expect(yield* rows).toEqual(["good"])
        expect(yield* busyTimeout).toBe(5000)
      })))
  it.live("with lockWait, a batch that still finds the lock taken past the wait's limit tells all its writers at once: no write after the first runs, none again alone", () =>
    withLockedFile(({ batcher, locker, sql, tries }) =>
      Effect.gen(function*() {
        locker.exec("BEGIN IMMEDIATE")
        const runs = { first: 0, second: 0 }
        const counted = (name: keyof typeof runs) =>
          Effect.suspend(() => {
            runs[name]++
            return sql`INSERT INTO notes (writer) VALUES (${name})`
          })
        const writes = yield* inOneBatch(batcher, [counted("first"), counted("second")])
        const exits = yield* Effect.forEach(writes, Fiber.join)
        const codes = exits.map((exit) =>
          Exit.isFailure(exit) ? Option.map(Cause.failureOption(exit.cause), (error) => (error as SqlError).cause) : Option.none()
        ).map((cause) => Option.match(cause, { onNone: () => "none", onSome: (c) => String((c as { code?: unknown }).code) }))
        expect(codes).toEqual(["SQLITE_BUSY", "SQLITE_BUSY"])
        // Each try of the batch stopped at its first write: one run a try (the last one waited in SQLite).
        expect(runs).toEqual({ first: tries() + 1, second: 0 })
        locker.exec("ROLLBACK")
      }), (sql) => ({
        // The limit passes at once, and SQLite's own wait is short: the test need not wait 5 s.
        limit: 0,
        wait: Effect.asVoid(sql.unsafe("PRAGMA busy_timeout = 20"))
      })))
})
