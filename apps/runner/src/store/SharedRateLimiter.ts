/**
 * One rate limit per credential for several runners: core's `RateLimiter` (each limit a bucket
 * of `limit` tokens, each back `interval` + a margin after it was taken; every limit of a request
 * gives it the same start) kept in PostgreSQL, so that runners on one Trello token together
 * keep to Trello's limit. A request's gate takes its tokens in one short transaction: each
 * limit's row locked (`FOR UPDATE`, keys in a fixed order, so two gates never wait on each
 * other in a cycle), times from the database's clock (runners on several machines agree on
 * it), then the request sleeps (`Effect.sleep`) until its start. Credentials are hashed, never
 * stored.
 *
 * When the database cannot be reached, a gate retries for a few seconds, then this runner paces
 * alone (core's limiter in the process) for 10 s before it asks the database again, and says so
 * once: requests are never sent unpaced, and a gate never waits forever.
 *
 * @since 0.3.0
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { RateLimiter } from "@x/core"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import { createHash } from "node:crypto"
import { ServeProblem } from "../Errors.js"
import * as Migrations from "./Migrations.js"

interface Bucket {
  readonly key: string
  readonly limit: number
  /** How long a token stays taken: the interval and core's margin. */
  readonly holdMillis: number
}

const bucketOf = (limit: RateLimiter.KeyedRateLimit): Bucket => {
  const interval = Duration.toMillis(Duration.decode(limit.interval))
  const hashed = createHash("sha256").update(`${limit.scope}\n${limit.credential}`).digest("base64url").slice(0, 22)
  return {
    key: `${limit.scope}:${hashed}:${Math.max(1, Math.floor(limit.limit))}/${interval}`,
    limit: Math.max(1, Math.floor(limit.limit)),
    holdMillis: interval + RateLimiter.marginOf(interval)
  }
}

/**
 * The limiter on a PostgreSQL client (its table created where missing: `Migrations`).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (
  sql: SqlClient.SqlClient,
  warn: (line: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<RateLimiter.RateLimiter, SqlError> =>
  Effect.gen(function*() {
    // Its table is one of the runs' database's (a pool of its own may come first: it migrates too).
    yield* Migrations.run(sql).pipe(Effect.catchTag("MigrationError", (error) => Effect.die(error)))
    const local = RateLimiter.make()
    let warned = false
    /** Until when the gates pace alone without asking the database (10 s after it failed). */
    let aloneUntil = 0

    /** Takes a token of every bucket for one start time; the time to wait, by the database's clock. */
    const take = (buckets: ReadonlyArray<Bucket>) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows: Array<{ bucket: Bucket; returns: Array<number>; next: number }> = []
        for (const bucket of buckets) {
          yield* sql`INSERT INTO xr_rate_limits (key, returns, next) VALUES (${bucket.key}, ${"[]"}, 0) ON CONFLICT (key) DO NOTHING`
          const [row] = yield* sql<{ returns: string; next: number }>`SELECT returns, next FROM xr_rate_limits WHERE key = ${bucket.key} FOR UPDATE`
          rows.push({ bucket, returns: JSON.parse(row!.returns) as Array<number>, next: Number(row!.next) })
        }
        const [clock] = yield* sql<{ now: string }>`SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS now`
        const now = Number(clock!.now)
        // All limits must allow the same start, so the tokens are taken once it is known.
        let start = now
        for (const { next, returns } of rows) start = Math.max(start, returns[next] ?? Number.NEGATIVE_INFINITY)
        for (const { bucket, next, returns } of rows) {
          returns[next] = start + bucket.holdMillis
          yield* sql`UPDATE xr_rate_limits SET returns = ${JSON.stringify(returns)}, next = ${(next + 1) % bucket.limit} WHERE key = ${bucket.key}`
        }
        return start - now
      }))

    return {
      gate: (limits) => {
        if (limits.length === 0) return Effect.void
        const buckets = limits.map(bucketOf).sort((a, b) => a.key.localeCompare(b.key))
        const alone = local.gate(limits)
        const shared = take(buckets).pipe(
          // A connection that breaks mid-transaction may fail its rollback too (a defect): any failure counts.
          Effect.sandbox,
          Effect.retry(Schedule.exponential("50 millis").pipe(Schedule.upTo("5 seconds"))),
          // A gate waiting its turn behind a burst of others is slow, not failing: only errors
          // count (a database gone is refused at once, or its connection times out: `layer`).
          Effect.mapError((cause) => Cause.squash(cause) as { readonly message?: string }),
          Effect.matchEffect({
            onSuccess: (wait) => {
              warned = false
              return wait > 0 ? Effect.sleep(Duration.millis(wait)) : Effect.void
            },
            onFailure: (error) =>
              Effect.gen(function*() {
                aloneUntil = (yield* Clock.currentTimeMillis) + 10_000
                if (!warned) {
                  warned = true
                  yield* warn(`✘ the shared rate limits cannot be read (${error.message ?? String(error)}): this runner paces its requests alone meanwhile`)
                }
                yield* alone
              })
          })
        )
        // Resolved once per connection, run per request: the choice is made per request.
        return Effect.flatMap(Clock.currentTimeMillis, (now) => now < aloneUntil ? alone : shared)
      }
    }
  })

/**
 * Core's `RateLimiters` as this limiter, on its own small pool of the PostgreSQL.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer = (
  url: Redacted.Redacted<string>,
  warn: (line: string) => Effect.Effect<void>
): Layer.Layer<never, ServeProblem> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const sql = yield* Effect.provide(
      PgClient.PgClient,
      yield* Layer.build(PgClient.layer({ url, applicationName: "x-runner rate limits", maxConnections: 4, connectTimeout: "5 seconds" }))
    )
    const limiter = yield* make(sql, warn)
    return Layer.succeed(RateLimiter.RateLimiters, limiter)
  })).pipe(Layer.mapError((error) => new ServeProblem({ message: `the shared rate limits cannot be set up: ${error.message}` })))
