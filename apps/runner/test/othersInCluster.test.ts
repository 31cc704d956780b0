/**
 * How many other runners are alive, read from `@effect/cluster`'s own runner table
 * (`TriggerStore.othersInCluster`), on a PostgreSQL the test starts: the rows are written by the
 * cluster's storage itself (`SqlRunnerStorage`: register, refresh, unregister), so the query
 * meets the table as the installed `@effect/cluster` makes it. A runner is alive while its last
 * heartbeat is within the shard lock expiration of the database's time; a heartbeat is made old
 * by the database's clock (an UPDATE), never by waiting, and this process's clock, shifted, does
 * not change the count. On the embedded database there is no other runner.
 */
import * as Runner from "@effect/cluster/Runner"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as RunnerStorage from "@effect/cluster/RunnerStorage"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as TriggerStore from "../src/store/TriggerStore.js"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

const a = RunnerAddress.make("127.0.0.1", 41001)
const b = RunnerAddress.make("127.0.0.1", 41002)
const c = { host: "127.0.0.1", port: 41003 }
const expiration = "5 seconds"

describe("TriggerStore.othersInCluster", () => {
  it("counts the other runners whose cluster heartbeat is within the expiration of the database's time", async () => {
    const program = Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const storage = yield* RunnerStorage.RunnerStorage
      const triggers = yield* TriggerStore.make(sql)
      const others = (self: { readonly host: string; readonly port: number }) => triggers.othersInCluster(self, expiration)
      yield* storage.register(Runner.make({ address: a, groups: ["default"], weight: 1 }), true)
      yield* storage.register(Runner.make({ address: b, groups: ["default"], weight: 1 }), true)
      expect([yield* others(a), yield* others(b), yield* others(c)]).toEqual([1, 1, 2])

      // b's last heartbeat 6 s old by the database's clock: gone, for a and for a newcomer.
      yield* sql`UPDATE cluster_runners SET last_heartbeat = NOW() - INTERVAL '6 seconds' WHERE address = ${"127.0.0.1:41002"}`
      expect([yield* others(a), yield* others(b), yield* others(c)]).toEqual([0, 1, 1])
      // Within the expiration (2 s old): alive.
      yield* sql`UPDATE cluster_runners SET last_heartbeat = NOW() - INTERVAL '2 seconds' WHERE address = ${"127.0.0.1:41002"}`
      expect(yield* others(a)).toBe(1)

      // This process's clock says nothing: 8 s ahead, the count is the same.
      const now = Date.now
      Date.now = () => now() + 8_000
      const ahead = yield* Effect.ensuring(others(a), Effect.sync(() => void (Date.now = now)))
      expect(ahead).toBe(1)

      // The cluster's own heartbeat (a refresh of b's shard locks) brings an old one back.
      yield* sql`UPDATE cluster_runners SET last_heartbeat = NOW() - INTERVAL '1 minute' WHERE address = ${"127.0.0.1:41002"}`
      expect(yield* others(a)).toBe(0)
      yield* storage.refresh(b, [])
      expect(yield* others(a)).toBe(1)

      // A runner that stops unregisters: b is alone.
      yield* storage.unregister(a)
      expect([yield* others(b), yield* others(c)]).toEqual([0, 1])
    })
    await Effect.runPromise(program.pipe(
      Effect.provide(SqlRunnerStorage.layer.pipe(
        Layer.provideMerge(PgClient.layer({ url: Redacted.make(postgres.url) })),
        Layer.provide(ShardingConfig.layer({ shardLockExpiration: expiration }))
      )),
      Effect.scoped
    ))
  })

  it("is none on the embedded database (one runner per data directory)", async () => {
    const count = await Effect.runPromise(Effect.gen(function*() {
      const triggers = yield* TriggerStore.make(yield* SqliteClient.SqliteClient)
      return yield* triggers.othersInCluster(c, expiration)
    }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })), Effect.scoped))
    expect(count).toBe(0)
  })
})
