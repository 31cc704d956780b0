/**
 * The rate limit several runners keep together (`SharedRateLimiter`), on a PostgreSQL the test
 * starts: two limiters with pools of their own (two runners) run 250 requests of one credential
 * limited to 50 a second; another credential does not wait behind one whose tokens are all
 * held; with the database gone, requests go on, paced by the runner alone.
 *
 * What is asserted does not depend on the machine's speed (these tests run beside others on
 * two busy cores): counts of starts in any window (at most the limit, which slowness cannot
 * break), lower bounds on time (the limit spaces the starts, however fast the machine), the
 * tokens' rows as the database keeps them, starts that cannot happen before an interval of
 * ten minutes, and connections seen by a proxy. A time limit only bounds a stall, generously.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { RateLimiter } from "@x/core"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import { createServer, connect, type Socket } from "node:net"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as SharedRateLimiter from "../src/store/SharedRateLimiter.js"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

/** A pool of its own on a database, open for the test's scope. */
const clientOf = (url: string, maxConnections = 8) =>
  Effect.flatMap(Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections })), (pool) => Effect.provide(PgClient.PgClient, pool))

/** A runner's limiter: a pool of its own on the database. */
const limiterOf = Effect.flatMap(Effect.suspend(() => clientOf(postgres.url)), (sql) => SharedRateLimiter.make(sql))

const limits = (credential: string): ReadonlyArray<RateLimiter.KeyedRateLimit> => [{ scope: "token", limit: 50, interval: "1 second", credential }]

/** The most of these times (sorted) in any window of `interval` ms. */
const mostInAnyWindow = (times: ReadonlyArray<number>, interval: number) => {
  let most = 0
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= interval) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

/**
 * A bucket's tokens once every one is given back (releases run beside the requests), and when
 * they were read. Polled on this machine's clock, even in a test on `TestClock`; a stall limit,
 * far beyond a busy machine's releases and well before a lost token's return (a minute).
 */
const givenBack = (sql: PgClient.PgClient, key: string) =>
  Effect.gen(function*() {
    const [row] = yield* sql<{ tokens: string }>`SELECT tokens FROM xr_rate_limit_tokens WHERE key = ${key}`
    const read = Date.now()
    const tokens = JSON.parse(row!.tokens) as ReadonlyArray<RateLimiter.Token>
    const free = tokens.flatMap((token) => ("free" in token ? [token.free] : []))
    return free.length === tokens.length ? { read, free } : yield* Effect.fail("a token is still held")
  }).pipe(
    Effect.retry(Schedule.spaced("50 millis")),
    Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error("a token is still held: its release never came") }),
    Effect.withClock(Clock.make())
  )

/**
 * A way to the database that the test can cut: a TCP proxy on 127.0.0.1 that, once cut, ends
 * the connections it carries and every new one at once, counting those (the runner's attempts
 * to reach its database).
 */
const cuttableProxyTo = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ readonly url: string; readonly cut: () => void; readonly attemptsSinceCut: () => number; readonly close: () => Promise<void> }>((resolve) => {
        const target = new URL(url)
        const open = new Set<Socket>()
        let cut = false
        let attempts = 0
        const server = createServer((client) => {
          if (cut) {
            attempts++
            client.destroy()
            return
          }
          const upstream = connect(Number(target.port), target.hostname)
          for (const socket of [client, upstream]) {
            open.add(socket)
            socket.on("error", () => socket.destroy())
            socket.on("close", () => {
              open.delete(socket)
              client.destroy()
              upstream.destroy()
            })
          }
          client.pipe(upstream).pipe(client)
        })
        server.listen(0, "127.0.0.1", () => {
          const port = (server.address() as { port: number }).port
          resolve({
            url: `postgres://${target.username}@127.0.0.1:${port}${target.pathname}`,
            cut: () => {
              cut = true
              for (const socket of open) socket.destroy()
            },
            attemptsSinceCut: () => attempts,
            close: () => {
              cut = true
              for (const socket of open) socket.destroy()
              return new Promise((closed) => server.close(() => closed()))
            }
          })
        })
      })
    ),
    (proxy) => Effect.promise(() => proxy.close())
  )

describe("SharedRateLimiter", () => {
  it.scopedLive("two runners on one credential keep to its limit together, and every token comes back one interval after its answer", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([limiterOf, limiterOf])
      const requests = [a.withPermit(limits("token-one")), b.withPermit(limits("token-one"))]
      const starts: Array<number> = []
      yield* Effect.forEach(Array.from({ length: 250 }, (_, i) => i), (i) =>
        requests[i % 2]!(Effect.sync(() => void starts.push(Date.now()))), { concurrency: 32 }).pipe(
        // A stall limit: five windows of a second take seconds; tokens never given back, minutes.
        Effect.timeoutFail({ duration: "45 seconds", onTimeout: () => new Error(`the requests stalled after ${starts.length} starts`) })
      )
      starts.sort((x, y) => x - y)
      // At most 50 starts in any window of a second (by this machine's clock, which is the
      // database's here), from both runners: a runner's own 50 would let 100 through.
      expect(mostInAnyWindow(starts, 1000)).toBeLessThanOrEqual(50)
      // Five windows of 50: the first of the fifth starts four intervals after the first of all
      // at the earliest (a slower machine only starts it later).
      expect(starts[200]! - starts[0]!).toBeGreaterThanOrEqual(4000)
      // Every release is in (they run beside the requests; one lost would hold its token a
      // minute), and each token is back one interval (and the clocks' margin) after its
      // request's answer, so no later than that after the database wrote it: a slower machine
      // writes and reads it later, which only widens this bound.
      const { free, read } = yield* givenBack(yield* clientOf(postgres.url, 1), RateLimiter.bucketOf(limits("token-one")[0]!).key)
      expect(free).toHaveLength(50)
      for (const at of free) expect(at - 1000 - RateLimiter.marginMillis).toBeLessThanOrEqual(read + 1)
    }))

  it.scopedLive("another credential's request is not held behind one whose tokens are all held", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([limiterOf, limiterOf])
      // One token a ten minutes for each credential: the second request on the first waits ten
      // minutes after the first's answer, while the other credential's has a token of its own.
      const oneATenMinutes = (credential: string): ReadonlyArray<RateLimiter.KeyedRateLimit> => [{ scope: "token", limit: 1, interval: "10 minutes", credential }]
      const started: Array<string> = []
      const request = (limiter: RateLimiter.RateLimiter, name: string, credential: string) =>
        limiter.withPermit(oneATenMinutes(credential))(Effect.sync(() => void started.push(name)))
      yield* request(a, "first", "token-held")
      yield* Effect.fork(request(b, "second", "token-held"))
      // The other credential's request starts long before the held one's token could come back:
      // a stall limit of 45 s (waiting behind it would take ten minutes).
      yield* request(a, "other", "token-two").pipe(
        Effect.timeoutFail({ duration: "45 seconds", onTimeout: () => new Error("another credential's request waited behind the held one's") })
      )
      expect(started).toEqual(["first", "other"])
    }))

  it.scopedLive("with its database gone, requests go on paced by the runner alone, which says so once and asks the database again only later", () =>
    Effect.gen(function*() {
      const proxy = yield* cuttableProxyTo(postgres.url)
      const warnings: Array<string> = []
      const limiter = yield* SharedRateLimiter.make(yield* clientOf(proxy.url, 2), (line) => Effect.sync(() => void warnings.push(line)))
      proxy.cut()
      // Two requests a ten minutes on this credential.
      const twoATenMinutes: ReadonlyArray<RateLimiter.KeyedRateLimit> = [{ scope: "token", limit: 2, interval: "10 minutes", credential: "token-three" }]
      const started: Array<number> = []
      const request = (n: number) => limiter.withPermit(twoATenMinutes)(Effect.sync(() => void started.push(n)))
      // The first asks the database for a few seconds (by design), then goes on alone: a stall
      // limit far beyond that.
      const stallLimit = { duration: "40 seconds", onTimeout: () => new Error(`a request never went on without its database; warned: ${warnings.join("; ")}`) } as const
      yield* Effect.timeoutFail(request(1), stallLimit)
      expect(proxy.attemptsSinceCut()).toBeGreaterThan(0)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("this runner paces its requests alone meanwhile")
      expect(warnings[0]).not.toContain("token-three")
      // The next is paced alone at once, without asking the database again (for 10 s after it failed).
      const attempts = proxy.attemptsSinceCut()
      yield* Effect.timeoutFail(request(2), stallLimit)
      expect(proxy.attemptsSinceCut()).toBe(attempts)
      // Paced, not unpaced: the third waits for a token of this runner's, ten minutes after the first's answer.
      expect(yield* Effect.timeoutOption(request(3), "500 millis")).toEqual(Option.none())
      expect(started).toEqual([1, 2])
      expect(warnings).toHaveLength(1)
    }))

  // On `TestClock`: the store measures the time since the answer by this runner's clock.
  it.scoped("a release that waits for its row gives the token back an interval after the answer, not after the wait", () =>
    Effect.gen(function*() {
      const sql = yield* clientOf(postgres.url, 2)
      const store = yield* SharedRateLimiter.store(sql)
      const bucket = RateLimiter.bucketOf({ scope: "token", limit: 1, interval: "10 minutes", credential: "token-late" })
      expect(yield* store.take([bucket], "late")).toEqual({ _tag: "Taken", waitMillis: 0 })
      // Another transaction holds the bucket's row (as a burst of takes would), so the release,
      // whose answer is now, writes it only after a minute of this runner's clock.
      const locker = yield* clientOf(postgres.url, 1)
      const locked = yield* Deferred.make<void>()
      const unlock = yield* Deferred.make<void>()
      const holding = yield* Effect.fork(locker.withTransaction(Effect.gen(function*() {
        yield* locker`SELECT tokens FROM xr_rate_limit_tokens WHERE key = ${bucket.key} FOR UPDATE`
        yield* Deferred.succeed(locked, undefined)
        yield* Deferred.await(unlock)
      })))
      yield* Deferred.await(locked)
      yield* store.release([bucket], "late", true)
      yield* TestClock.adjust("1 minute")
      yield* Deferred.succeed(unlock, undefined)
      yield* holding.await
      // Back an interval after the answer, a minute before an interval after the database wrote it.
      const { free, read } = yield* givenBack(sql, bucket.key)
      expect(free).toHaveLength(1)
      expect(free[0]! - 10 * 60_000 - RateLimiter.marginMillis).toBeLessThanOrEqual(read - 60_000 + 1)
    }))
})
