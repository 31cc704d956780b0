/**
 * One rate limit per credential for several runners: core's `RateLimiter` on a store kept in
 * PostgreSQL (`xr_rate_limit_tokens`, a row per bucket under core's key), so that runners on
 * one Trello token together keep to Trello's limit. Each take and release is one short
 * transaction that applies core's algorithm (`RateLimiter.takeAt`, `releaseAt`) to the rows of
 * the request's buckets: each locked (`FOR UPDATE`, keys in core's order, so two requests never
 * wait on each other in a cycle), times from the database's clock (runners on several
 * machines agree on it). The request then waits (`Effect.sleep`) for its start in its runner.
 * A release runs beside the request, which does not wait for it; a runner gone while its
 * tokens are held leaves them held until their latest return (`RateLimiter.holdLimitMillis`
 * and one interval after their start). Credentials are hashed, never stored.
 *
 * When the database cannot be reached, a take retries for a few seconds, then this runner
 * paces alone (its tokens in its memory) for 10 s before it asks the database again, and says
 * so once: requests are never sent unpaced, and a take never waits forever.
 *
 * @since 0.3.0
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { RateLimiter } from "@x/core"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { ServeProblem } from "../Errors.js"
import * as Migrations from "./Migrations.js"

const decodeTokens = Schema.decodeUnknown(Schema.parseJson(RateLimiter.Tokens))

/**
 * The store on a PostgreSQL client (its table created where missing: `Migrations`).
 *
 * @since 0.5.0
 * @category constructors
 */
export const store = (
  sql: SqlClient.SqlClient,
  warn: (line: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<RateLimiter.RateLimiterStore, SqlError> =>
  Effect.gen(function*() {
    // Its table is one of the runs' database's (a pool of its own may come first: it migrates too).
    yield* Migrations.run(sql).pipe(Effect.catchTag("MigrationError", (error) => Effect.die(error)))
    const alone = RateLimiter.memoryStore()
    /** The requests whose tokens were taken while pacing alone: they give them back here. */
    const heldAlone = new Set<string>()
    let warned = false
    /** Until when takes are paced alone without asking the database (10 s after it failed). */
    let aloneUntil = 0

    const databaseNow = Effect.map(
      sql<{ now: string }>`SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS now`,
      ([row]) => Number(row!.now)
    )
    /** The buckets' rows, locked in the buckets' order (core's key order). */
    const lock = (buckets: ReadonlyArray<RateLimiter.Bucket>) =>
      Effect.forEach(buckets, (bucket) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ tokens: string }>`SELECT tokens FROM xr_rate_limit_tokens WHERE key = ${bucket.key} FOR UPDATE`
          return { bucket, tokens: row === undefined ? [] : yield* decodeTokens(row.tokens) }
        }))
    const write = (bucket: RateLimiter.Bucket, tokens: ReadonlyArray<RateLimiter.Token>) =>
      sql`UPDATE xr_rate_limit_tokens SET tokens = ${JSON.stringify(tokens)} WHERE key = ${bucket.key}`

    const takeShared = (buckets: ReadonlyArray<RateLimiter.Bucket>, holder: string) =>
      sql.withTransaction(Effect.gen(function*() {
        for (const bucket of buckets) {
          yield* sql`INSERT INTO xr_rate_limit_tokens (key, tokens) VALUES (${bucket.key}, ${"[]"}) ON CONFLICT (key) DO NOTHING`
        }
        const states = yield* lock(buckets)
        const now = yield* databaseNow
        const taken = RateLimiter.takeAt(states, now, holder)
        if (taken._tag === "Full") return taken
        yield* Effect.forEach(buckets, (bucket, i) => write(bucket, taken.tokens[i]!), { discard: true })
        return { _tag: "Taken", waitMillis: taken.start - now } satisfies RateLimiter.Taken
      }))

    /** `answered`: when the request was answered, by this runner's clock. */
    const releaseShared = (buckets: ReadonlyArray<RateLimiter.Bucket>, holder: string, answered: number | undefined) =>
      sql.withTransaction(Effect.gen(function*() {
        const states = yield* lock(buckets)
        // The answer by the database's clock: as long before its now as it was before this
        // runner's (a release that waited for a connection does not keep the tokens longer).
        // This runner's clock is read first: the time since the answer may only be short.
        const since = answered === undefined ? 0 : Math.max(0, (yield* Clock.currentTimeMillis) - answered)
        const now = yield* databaseNow
        const answeredAt = answered === undefined ? undefined : now - since
        yield* Effect.forEach(states, (state) => write(state.bucket, RateLimiter.releaseAt(state, holder, answeredAt)), {
          discard: true
        })
      }))

    const takeAlone = (buckets: ReadonlyArray<RateLimiter.Bucket>, holder: string) =>
      Effect.tap(alone.take(buckets, holder), (taken) => Effect.sync(() => taken._tag === "Taken" && heldAlone.add(holder)))

    return {
      take: (buckets, holder) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          now < aloneUntil ? takeAlone(buckets, holder) : takeShared(buckets, holder).pipe(
            // A connection that breaks mid-transaction may fail its rollback too (a defect): any failure counts.
            Effect.sandbox,
            Effect.retry(Schedule.exponential("50 millis").pipe(Schedule.upTo("5 seconds"))),
            // A take waiting its turn behind a burst of others is slow, not failing: only errors
            // count (a database gone is refused at once, or its connection times out: `layer`).
            Effect.mapError((cause) => Cause.squash(cause) as { readonly message?: string }),
            Effect.matchEffect({
              onSuccess: (taken) => Effect.sync(() => {
                warned = false
                return taken
              }),
              onFailure: (error) =>
                Effect.gen(function*() {
                  aloneUntil = (yield* Clock.currentTimeMillis) + 10_000
                  if (!warned) {
                    warned = true
                    yield* warn(`✘ the shared rate limits cannot be read (${error.message ?? String(error)}): this runner paces its requests alone meanwhile`)
                  }
                  return yield* takeAlone(buckets, holder)
                })
            })
          )),
      release: (buckets, holder, sent) => {
        if (heldAlone.delete(holder)) return alone.release(buckets, holder, sent)
        // Beside the request: a release that fails leaves the tokens held until their latest return.
        return Effect.flatMap(Clock.currentTimeMillis, (answered) =>
          Effect.asVoid(Effect.forkDaemon(releaseShared(buckets, holder, sent ? answered : undefined).pipe(
            Effect.sandbox,
            Effect.retry(Schedule.exponential("50 millis").pipe(Schedule.upTo("2 seconds"))),
            Effect.ignore
          ))))
      }
    } satisfies RateLimiter.RateLimiterStore
  })

/**
 * Core's limiter on this store.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (
  sql: SqlClient.SqlClient,
  warn: (line: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<RateLimiter.RateLimiter, SqlError> => Effect.map(store(sql, warn), RateLimiter.make)

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
