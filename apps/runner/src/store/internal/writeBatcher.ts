/**
 * Group commit on a SQL database: writes submitted while a commit is under way wait for the
 * next one, and each commit takes all of them in one transaction, made durable once by
 * `afterCommit` (one flush to disk for many deliveries). A batch whose writes failed is retried
 * write by write, so that one bad write fails alone; a transaction the database refused (its
 * COMMIT, on a full disk) fails every write of it, as a failure its writer can retry. A write is
 * whatever its writer gives: `RunStore.accept`'s group of accepts is one (one INSERT), which
 * RunStore writes again row by row when a row is at fault, so that a bad row is refused alone there too.
 *
 * With `lockWait` (SQLite, whose statements run on the thread that calls them), a batch (and each
 * write of a failed one, written again alone) does not wait for another connection's write lock
 * inside SQLite's busy handler, which sleeps the whole
 * thread (1, 2, 5, 10 ms… between looks): its transaction is tried without waiting, and when the
 * lock is taken it is rolled back and tried again after a short asynchronous sleep, the thread
 * serving meanwhile. After `lockWait.limit` of that it waits in the busy handler as before, and
 * a lock still taken then fails the batch's writes together.
 *
 * @internal
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"

interface Pending {
  readonly write: Effect.Effect<unknown, SqlError>
  readonly done: Deferred.Deferred<unknown, SqlError>
}

export interface WriteBatcher {
  /** Succeeds once the write is committed. */
  readonly write: <A>(write: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
}

export interface Options {
  /** After a commit, before its writers are told: what makes it durable (a WAL's fsync). */
  readonly afterCommit?: Effect.Effect<void, SqlError> | undefined
  /** Inside each transaction, after its writes and before its COMMIT (a test's injected fault). */
  readonly beforeCommit?: Effect.Effect<void> | undefined
  /** Told of each write that failed (the database refusing writes is told as it happens). */
  readonly failed?: ((error: SqlError) => Effect.Effect<void>) | undefined
  readonly maxBatch?: number | undefined
  /**
   * After a batch's first write is taken, how long the batch waits for others before its
   * transaction (PostgreSQL's `commit_delay`): without it, a batch taken as soon as the last one
   * ended often held one write (the first delivery answered, each with a flush of its own) while
   * the others arriving a moment later waited for the next.
   */
  readonly commitDelay?: Duration.DurationInput | undefined
  /** A batch's transaction tried without waiting in the database's busy handler (SQLite). */
  readonly lockWait?: LockWait | undefined
}

/**
 * How a batch tries its transaction without waiting for another connection's write lock.
 */
export interface LockWait {
  /** Run first in the transaction: later statements do not wait for the lock (SQLite: `PRAGMA busy_timeout = 0`). */
  readonly noWait: Effect.Effect<void, SqlError>
  /** Run last in it, whatever its end: they wait again (SQLite: the usual `busy_timeout`). */
  readonly wait: Effect.Effect<void, SqlError>
  /** Whether a write failed because the lock was taken (SQLite: `SQLITE_BUSY`). */
  readonly isBusy: (error: SqlError) => boolean
  /** The sleep before each new try (growing), and the total after which a try waits in the busy handler. */
  readonly pause: (attempt: number) => Duration.DurationInput
  readonly limit: Duration.DurationInput
}

/** A batch fails as a whole when one of its writes failed: then each is written alone. */
class BatchFailed {
  readonly _tag = "BatchFailed"
}

/** A batch whose transaction found the write lock taken (`lockWait`): rolled back, tried again. */
class LockTaken {
  readonly _tag = "LockTaken"
}

/**
 * `@effect/sql` reports a COMMIT (or ROLLBACK) that fails as a defect: SQLite refuses the COMMIT
 * of a full disk (SQLITE_FULL) and rolls the transaction back itself. Here it is the failure of
 * the transaction's writes, which they retry, not the end of whoever waited on them.
 */
const refusedCommit = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
  Effect.catchSomeDefect(transaction, (defect) =>
    Predicate.isTagged(defect, "SqlError") ? Option.some(Effect.fail(defect as SqlError)) : Option.none())

export const make = (sql: SqlClient.SqlClient, options: Options = {}): Effect.Effect<WriteBatcher, never, Scope.Scope> =>
  Effect.gen(function*() {
    const afterCommit = options.afterCommit ?? Effect.void
    const beforeCommit = options.beforeCommit ?? Effect.void
    const failed = options.failed ?? (() => Effect.void)
    const queue = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    /** The writers told their writes' ends; a failure also to `failed`. */
    const tell = (pending: Pending, exit: Exit.Exit<unknown, SqlError>) =>
      Effect.zipRight(
        Exit.isFailure(exit) ? Option.match(Cause.failureOption(exit.cause), { onNone: () => Effect.void, onSome: failed }) : Effect.void,
        Deferred.done(pending.done, exit)
      )
    const lockWait = options.lockWait
    const limitMs = lockWait === undefined ? 0 : Duration.toMillis(lockWait.limit)
    // The Clock's monotonic time, as the pauses' sleeps: a wall clock set back does not stretch the wait.
    const nowMs = Effect.map(Clock.currentTimeNanos, (nanos) => Number(nanos / 1_000_000n))
    const busy = (exit: Exit.Exit<unknown, SqlError>) =>
      lockWait !== undefined && Exit.isFailure(exit) && Option.exists(Cause.failureOption(exit.cause), lockWait.isBusy)
    // `alone`: a batch of one write, whose failure is its own (not a `BatchFailed` to write it again).
    const together = (batch: ReadonlyArray<Pending>, waitInSqlite: boolean, alone: boolean) =>
      Effect.exit(refusedCommit(sql.withTransaction(Effect.gen(function*() {
        const exits: Array<Exit.Exit<unknown, SqlError>> = []
        for (const pending of batch) {
          const exit = yield* Effect.exit(pending.write)
          // The lock is taken: the writes after this one would find it so too. Tried again later;
          // past the wait's limit, the batch's writers are told (each alone would wait again).
          if (busy(exit)) return yield* (waitInSqlite ? exit : Effect.fail(new LockTaken()))
          exits.push(exit)
        }
        if (alone && Exit.isFailure(exits[0]!)) return yield* exits[0]!
        if (exits.some(Exit.isFailure)) return yield* Effect.fail(new BatchFailed())
        yield* beforeCommit
        return exits
      }).pipe(
        (body) => waitInSqlite || lockWait === undefined ? body : Effect.ensuring(Effect.zipRight(lockWait.noWait, body), Effect.ignore(lockWait.wait))
      ))).pipe(
        // Not given up to other fibers halfway: on SQLite the statements are synchronous, and
        // the transaction holds the database's write lock (another thread waits on it) and
        // the client (this thread's other queries wait on it) until its commit.
        Effect.withMaxOpsBeforeYield(Number.MAX_SAFE_INTEGER)
      ))
    /** The batch's transaction, tried again after a pause while another connection holds the write lock. */
    const tryTogether = (batch: ReadonlyArray<Pending>, alone = false) =>
      Effect.gen(function*() {
        const started = yield* nowMs
        for (let attempt = 0;; attempt++) {
          const waitInSqlite = lockWait === undefined || (yield* nowMs) - started >= limitMs
          const exit = yield* together(batch, waitInSqlite, alone)
          if (waitInSqlite || !(Exit.isFailure(exit) && Option.exists(Cause.failureOption(exit.cause), (e) => e instanceof LockTaken))) {
            return exit as Exit.Exit<Array<Exit.Exit<unknown, SqlError>>, SqlError | BatchFailed>
          }
          yield* Effect.sleep(lockWait!.pause(attempt))
        }
      })
    const commit = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const together = yield* tryTogether(batch)
        if (Exit.isSuccess(together)) {
          // Committed: the writers are told once it is durable, or that it may not be.
          const flushed = yield* Effect.exit(afterCommit)
          yield* Effect.forEach(
            together.value,
            (exit, i) => tell(batch[i]!, Exit.isFailure(flushed) ? flushed : exit as Exit.Exit<unknown, SqlError>),
            { discard: true }
          )
          return
        }
        const refused = Cause.failureOption(together.cause)
        if (Option.isSome(refused) && !(refused.value instanceof BatchFailed)) {
          // The transaction itself was refused (its BEGIN or COMMIT), or the lock stayed taken past
          // the wait's limit: so would each write alone be.
          const error = Exit.fail(refused.value)
          return yield* Effect.forEach(batch, (pending) => tell(pending, error), { discard: true })
        }
        // Each alone, in a transaction of its own (a write may read, then write what it read),
        // waiting for another connection's lock as a batch does.
        for (const pending of batch) {
          const alone = yield* tryTogether([pending], true)
          if (Exit.isFailure(alone)) {
            yield* tell(pending, alone as Exit.Exit<never, SqlError>)
            continue
          }
          const flushed = yield* Effect.exit(afterCommit)
          yield* tell(pending, Exit.isFailure(flushed) ? flushed : alone.value[0]!)
        }
      })
    const maxBatch = options.maxBatch ?? 1024
    const commitDelay = options.commitDelay
    const take = Queue.takeBetween(queue, 1, maxBatch)
    const batch = commitDelay === undefined ? take : Effect.flatMap(take, (first) =>
      first.length >= maxBatch
        ? Effect.succeed(first)
        : Effect.zipRight(Effect.sleep(commitDelay), Effect.map(Queue.takeUpTo(queue, maxBatch - first.length), (more) => Chunk.appendAll(first, more))).pipe(
          // Taken from the queue: interrupted while it waits (the scope closing), its writers are told so, not left waiting.
          Effect.onInterrupt(() => Effect.forEach(first, (pending) => Deferred.interrupt(pending.done), { discard: true }))
        ))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(batch, (chunk) => commit([...chunk]))))
    return {
      write: <A>(write: Effect.Effect<A, SqlError>) =>
        Effect.flatMap(Deferred.make<unknown, SqlError>(), (done) =>
          Effect.zipRight(Queue.offer(queue, { write, done }), Deferred.await(done))) as Effect.Effect<A, SqlError>
    }
  })
