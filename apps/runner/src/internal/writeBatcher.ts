/**
 * Group commit on a SQL database: writes submitted while a commit is under way wait for the
 * next one, and each commit takes all of them in one transaction, made durable once by
 * `afterCommit` (one flush to disk for many deliveries). A batch that fails as a whole is
 * retried write by write, so that one bad write fails alone.
 *
 * @internal
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
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

/** A batch fails as a whole when one of its writes failed: then each is written alone. */
class BatchFailed {
  readonly _tag = "BatchFailed"
}

export const make = (
  sql: SqlClient.SqlClient,
  /** After a commit, before its writers are told: what makes it durable (a WAL's fsync). */
  afterCommit: Effect.Effect<void, SqlError> = Effect.void,
  maxBatch = 1024
): Effect.Effect<WriteBatcher, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    const commit = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const together = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
          const exits = yield* Effect.forEach(batch, (pending) => Effect.exit(pending.write))
          if (exits.some(Exit.isFailure)) return yield* Effect.fail(new BatchFailed())
          return exits
        })).pipe(
          // Not given up to other fibers halfway: on SQLite the statements are synchronous, and
          // the transaction holds the database's write lock (another thread waits on it) and
          // the client (this thread's other queries wait on it) until its commit.
          Effect.withMaxOpsBeforeYield(Number.MAX_SAFE_INTEGER)
        ))
        if (Exit.isSuccess(together)) {
          // Committed: the writers are told once it is durable, or that it may not be.
          const flushed = yield* Effect.exit(afterCommit)
          yield* Effect.forEach(
            together.value,
            (exit, i) => Deferred.done(batch[i]!.done, Exit.isFailure(flushed) ? flushed : exit as Exit.Exit<unknown, SqlError>),
            { discard: true }
          )
          return
        }
        // Each alone, in a transaction of its own (a write may read, then write what it read).
        for (const pending of batch) yield* Deferred.done(pending.done, yield* Effect.exit(Effect.zipLeft(sql.withTransaction(pending.write), afterCommit)))
      })
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.takeBetween(queue, 1, maxBatch), (chunk) => commit([...chunk]))))
    return {
      write: <A>(write: Effect.Effect<A, SqlError>) =>
        Effect.flatMap(Deferred.make<unknown, SqlError>(), (done) =>
          Effect.zipRight(Queue.offer(queue, { write, done }), Deferred.await(done))) as Effect.Effect<A, SqlError>
    }
  })
