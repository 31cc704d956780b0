/**
 * The rate limit several runners keep together (`SharedRateLimiter`), on a PostgreSQL the test
 * starts: two limiters with pools of their own (two runners) run 250 requests of one credential
 * limited to 50 a second: no second holds more than 50 starts, and they all start within the
 * time the limit allows (each token back a second after its request's answer, given back
 * beside the next requests); another credential does not wait on that one.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { RateLimiter } from "@x/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as SharedRateLimiter from "../src/store/SharedRateLimiter.js"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(() => postgres.stop())

/** A runner's limiter: a pool of its own on the database, open for the test's scope. */
const limiterOf = Effect.gen(function*() {
  const pool = yield* Layer.build(PgClient.layer({ url: Redacted.make(postgres.url), maxConnections: 8 }))
  return yield* SharedRateLimiter.make(yield* Effect.provide(PgClient.PgClient, pool))
})

const limits = (credential: string): ReadonlyArray<RateLimiter.KeyedRateLimit> => [{ scope: "token", limit: 50, interval: "1 second", credential }]

describe("SharedRateLimiter", () => {
  it.scopedLive("two runners on one credential keep to its limit together, at the rate it allows", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([limiterOf, limiterOf])
      const requests = [a.withPermit(limits("token-one")), b.withPermit(limits("token-one"))]
      const starts: Array<number> = []
      const began = Date.now()
      yield* Effect.forEach(Array.from({ length: 250 }, (_, i) => i), (i) =>
        requests[i % 2]!(Effect.sync(() => void starts.push(Date.now()))), { concurrency: 32 })
      const wall = Date.now() - began
      starts.sort((x, y) => x - y)
      // At most 50 starts in any window of a second (by this machine's clock, which is the database's here).
      let most = 0
      for (let i = 0, j = 0; i < starts.length; i++) {
        while (starts[i]! - starts[j]! >= 1000) j++
        most = Math.max(most, i - j + 1)
      }
      expect(most).toBeLessThanOrEqual(50)
      // Five windows of 50: the first of the last starts four intervals (each a token's: from its
      // request's answer, given back beside the next requests) after the first of all. The bound
      // is on the starts the limiter spaced, not on the pools' connecting before the first, nor on
      // how fast 50 transactions go on a busy machine once tokens are back; 15 % for the queries
      // of 32 waiters on CI's two busy cores.
      const fifth = starts[200]! - starts[0]!
      expect(wall).toBeGreaterThanOrEqual(4000)
      expect(fifth).toBeGreaterThanOrEqual(4000)
      expect(fifth).toBeLessThan(4 * 1005 * 1.15)
      // Another credential's first request does not wait for that one's tokens.
      const other = Date.now()
      yield* a.withPermit(limits("token-two"))(Effect.void)
      expect(Date.now() - other).toBeLessThan(500)
    }), 60_000)

  it.scopedLive("with its database gone, a request is paced by the runner alone after a few seconds, and it says so once", () =>
    Effect.gen(function*() {
      const own = yield* Effect.promise(() => startPostgres())
      const pool = yield* Layer.build(PgClient.layer({ url: Redacted.make(own.url), maxConnections: 2 }))
      const warnings: Array<string> = []
      const limiter = yield* SharedRateLimiter.make(yield* Effect.provide(PgClient.PgClient, pool), (line) => Effect.sync(() => void warnings.push(line)))
      yield* Effect.promise(() => own.stop())
      const request = limiter.withPermit(limits("token-three"))(Effect.void)
      const began = Date.now()
      yield* request
      yield* request
      expect(Date.now() - began).toBeLessThan(9_000)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("this runner paces its requests alone meanwhile")
      expect(warnings[0]).not.toContain("token-three")
    }), 60_000)
})
