/**
 * The cluster's journal of finished runs is deleted (`Engine.forgetFinished`): `@effect/cluster`
 * keeps every message and reply for ever, so the runners delete those of runs finished more
 * than `keepFinishedFor` ago (every attempt's), and keep those of runs unfinished or finished
 * lately, on a PostgreSQL the test starts, with the cluster's tables as its storage makes them.
 * Ages are the database's (`NOW()`), set by the rows, never waited for.
 */
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as PgClient from "@effect/sql-pg/PgClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { type Postgres, startPostgres } from "../../../tooling/testing/postgres.mjs"
import * as Engine from "../src/engine/Engine.js"
import { RunsSql } from "../src/store/Database.js"
import * as Migrations from "../src/store/Migrations.js"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(() => postgres.stop())

describe("Engine.forgetFinished", () => {
  it("deletes the messages and replies of runs finished over keepFinishedFor ago, every attempt's, and keeps the others", async () => {
    const program = Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      yield* Migrations.run(sql)
      const minutesAgo = (minutes: number) => sql.literal(`(EXTRACT(EPOCH FROM NOW()) * 1000 - ${minutes * 60_000})::BIGINT`)
      const run = (id: string, status: string, attempt: number, finishedMinutesAgo?: number) =>
        sql`INSERT INTO xr_runs (id, workflow, event_id, event, status, attempt, accepted_at, finished_at)
          VALUES (${id}, 'w', ${id}, 'null', ${status}, ${attempt}, 0, ${finishedMinutesAgo === undefined ? null : minutesAgo(finishedMinutesAgo)})`
      yield* run("old", "succeeded", 1, 11)
      yield* run("lately", "failed", 0, 2)
      yield* run("going", "running", 0)
      let next = 1
      const message = (entityId: string, entityType = "Workflow/x-runner/run") =>
        Effect.gen(function*() {
          const id = next++
          yield* sql`INSERT INTO cluster_messages (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload, processed, request_id)
            VALUES (${id}, ${`m${id}`}, 'default:1', ${entityType}, ${entityId}, 0, 'run', '{}', TRUE, ${id})`
          yield* sql`INSERT INTO cluster_replies (id, kind, request_id, payload) VALUES (${1000 + id}, 0, ${id}, '{}')`
        })
      // The old run's two attempts (a retry is a new execution), each a run and an activity.
      for (const entityId of ["old/0", "old/0", "old/1", "old/1", "lately/0", "going/0"]) yield* message(entityId)
      // Another entity type with the same id (not a run's) stays.
      yield* message("old/1", "Workflow/-/DurableClock")

      expect(yield* Engine.forgetFinished.pipe(Effect.provideService(RunsSql, sql))).toBe(4)
      const left = yield* sql<{ entity_type: string; entity_id: string }>`SELECT entity_type, entity_id FROM cluster_messages ORDER BY id`
      expect(left.map((row) => `${row.entity_type} ${row.entity_id}`)).toEqual([
        "Workflow/x-runner/run lately/0",
        "Workflow/x-runner/run going/0",
        "Workflow/-/DurableClock old/1"
      ])
      const replies = yield* sql<{ request_id: string }>`SELECT request_id FROM cluster_replies ORDER BY request_id`
      expect(replies.map((row) => Number(row.request_id))).toEqual([5, 6, 7])
      // Again: nothing more to delete.
      expect(yield* Engine.forgetFinished.pipe(Effect.provideService(RunsSql, sql))).toBe(0)
    })
    await Effect.runPromise(program.pipe(
      Effect.provide(SqlMessageStorage.layer.pipe(
        Layer.provideMerge(PgClient.layer({ url: Redacted.make(postgres.url) })),
        Layer.provide(ShardingConfig.layer())
      )),
      Effect.scoped
    ))
  })
})
