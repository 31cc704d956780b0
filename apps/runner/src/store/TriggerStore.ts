/**
 * The triggers' state, in the runs' database (`Database.RunsSql`), shared by every runner: a
 * dynamic webhook's registration (its state at the provider and the URL it was registered for),
 * a polling trigger's cursor (with the type and parameters it belongs to); and, on PostgreSQL,
 * how many other runners are alive, read from the runners' cluster's own table with the
 * database's time, so that the last one to stop removes the webhook and the others leave it for
 * the ones still serving.
 *
 * @since 0.3.0
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { errorText, RunsSql } from "./Database.js"
import * as RunStore from "./RunStore.js"

/**
 * What is stored of a workflow's trigger.
 *
 * @since 0.3.0
 * @category models
 */
export interface TriggerRecord {
  readonly workflow: string
  /** The trigger's type and parameters the state or cursor belongs to (another trigger's is not used). */
  readonly type: string
  readonly parameters: unknown
  /** A dynamic webhook's: the URL it was registered for, and what enabling it returned. */
  readonly url: string | undefined
  readonly state: Option.Option<unknown>
  /** A polling trigger's: where the next poll starts. */
  readonly cursor: Option.Option<unknown>
  /** The stored values that are not JSON (written by hand, or damaged), read as absent above. */
  readonly unreadable: ReadonlyArray<"parameters" | "state" | "cursor">
}

/**
 * The store.
 *
 * @since 0.3.0
 * @category models
 */
export interface TriggerStore {
  readonly get: (workflow: string) => Effect.Effect<Option.Option<TriggerRecord>, RunStore.StoreFailed>
  readonly enabled: (record: { readonly workflow: string; readonly type: string; readonly parameters: unknown; readonly url: string; readonly state: unknown }) => Effect.Effect<void, RunStore.StoreFailed>
  readonly disabled: (workflow: string) => Effect.Effect<void, RunStore.StoreFailed>
  readonly polled: (record: { readonly workflow: string; readonly type: string; readonly parameters: unknown; readonly cursor: unknown }) => Effect.Effect<void, RunStore.StoreFailed>
  /** Drops a polling trigger's cursor: its next poll sets a new baseline. */
  readonly resetCursor: (workflow: string) => Effect.Effect<void, RunStore.StoreFailed>
  /**
   * How many other runners of the cluster are alive, as the cluster itself records them
   * (`@effect/cluster`'s `cluster_runners`, whose `last_heartbeat` each runner sets to the
   * database's `NOW()` at every refresh of its shard locks): those other than `self` whose last
   * heartbeat is within `aliveWithin` (the shard lock expiration, in whole seconds as the
   * cluster counts it) of the database's time. No runner's own clock is read. PostgreSQL only:
   * the embedded database has one runner, so none other (0).
   *
   * @since 0.9.0
   */
  readonly othersInCluster: (self: ClusterAddress, aliveWithin: Duration.DurationInput) => Effect.Effect<number, RunStore.StoreFailed>
}

/**
 * A runner's address in the cluster (`Engine.ClusterOptions`' host and port), as
 * `@effect/cluster` records it: `host:port`.
 *
 * @since 0.9.0
 * @category models
 */
export interface ClusterAddress {
  readonly host: string
  readonly port: number
}

/**
 * The service.
 *
 * @since 0.3.0
 * @category tags
 */
export const TriggerStore = Context.GenericTag<TriggerStore>("x-runner/TriggerStore")

/** An integer column: PostgreSQL returns a BIGINT as a string. */
const Integer = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A trigger's row; its JSON values are parsed apart (one that is not JSON is named, not fatal). */
const TriggerRow = Schema.Struct({
  type: Schema.String,
  parameters: Schema.String,
  url: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  cursor: Schema.NullOr(Schema.String)
})

const failed = (doing: string) => (error: SqlError | ParseResult.ParseError) =>
  new RunStore.StoreFailed({ message: `the triggers' state could not be ${doing}: ${error._tag === "ParseError" ? RunStore.unreadableRow(error) : errorText(error)}` })

/**
 * The store on a database client (its schema brought up to date: `Database.layer` does).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (sql: SqlClient.SqlClient): Effect.Effect<TriggerStore, RunStore.StoreFailed> =>
  Effect.gen(function*() {
    const triggerOf = SqlSchema.findOne({
      Request: Schema.String,
      Result: TriggerRow,
      execute: (workflow) => sql`SELECT type, parameters, url, state, cursor FROM xr_triggers WHERE workflow = ${workflow}`
    })
    // The cluster's own table (`SqlRunnerStorage`, its default prefix, as `Engine.clusterLayer` builds it).
    const othersInClusterCounted = SqlSchema.single({
      Request: Schema.Struct({ self: Schema.String, seconds: Schema.Number }),
      Result: Schema.Struct({ n: Integer }),
      execute: ({ seconds, self }) =>
        sql`SELECT COUNT(*) AS n FROM cluster_runners WHERE address <> ${self} AND last_heartbeat > NOW() - make_interval(secs => ${seconds})`
    })
    const text = (value: unknown) => JSON.stringify(value ?? null)
    const upsert = (workflow: string, type: string, parameters: unknown, set: { readonly url?: string | null; readonly state?: string | null; readonly cursor?: string | null }) =>
      sql`INSERT INTO xr_triggers (workflow, type, parameters, url, state, cursor, updated_at)
        VALUES (${workflow}, ${type}, ${text(parameters)}, ${set.url ?? null}, ${set.state ?? null}, ${set.cursor ?? null}, ${Date.now()})
        ON CONFLICT (workflow) DO UPDATE SET type = ${type}, parameters = ${text(parameters)}, updated_at = ${Date.now()}, ${
        sql.literal([
          ...("url" in set ? ["url = EXCLUDED.url"] : []),
          ...("state" in set ? ["state = EXCLUDED.state"] : []),
          ...("cursor" in set ? ["cursor = EXCLUDED.cursor"] : [])
        ].join(", "))
      }`
    /** A stored JSON text, parsed; one that is not JSON is absent, and named in `unreadable`. */
    const parsedOption = (value: unknown, column: TriggerRecord["unreadable"][number], unreadable: Array<TriggerRecord["unreadable"][number]>) => {
      if (typeof value !== "string") return Option.none()
      try {
        return Option.some(JSON.parse(value) as unknown)
      } catch {
        unreadable.push(column)
        return Option.none()
      }
    }
    return {
      get: (workflow) =>
        triggerOf(workflow).pipe(
          Effect.map(Option.map((row) => {
            const unreadable: Array<TriggerRecord["unreadable"][number]> = []
            return {
              workflow,
              type: row.type,
              parameters: Option.getOrUndefined(parsedOption(row.parameters, "parameters", unreadable)),
              url: row.url ?? undefined,
              state: parsedOption(row.state, "state", unreadable),
              cursor: parsedOption(row.cursor, "cursor", unreadable),
              unreadable
            }
          })),
          Effect.mapError(failed("read"))
        ),
      enabled: ({ parameters, state, type, url, workflow }) =>
        Effect.mapError(upsert(workflow, type, parameters, { url, state: text(state) }), failed("written")).pipe(Effect.asVoid),
      disabled: (workflow) => Effect.mapError(sql`UPDATE xr_triggers SET state = NULL, url = NULL WHERE workflow = ${workflow}`, failed("written")).pipe(Effect.asVoid),
      polled: ({ cursor, parameters, type, workflow }) =>
        Effect.mapError(upsert(workflow, type, parameters, { cursor: text(cursor) }), failed("written")).pipe(Effect.asVoid),
      resetCursor: (workflow) => Effect.mapError(sql`UPDATE xr_triggers SET cursor = NULL WHERE workflow = ${workflow}`, failed("written")).pipe(Effect.asVoid),
      othersInCluster: (self, aliveWithin) =>
        sql.onDialectOrElse({
          pg: () =>
            othersInClusterCounted({ self: `${self.host}:${self.port}`, seconds: Math.ceil(Duration.toSeconds(Duration.decode(aliveWithin))) }).pipe(
              // COUNT(*) answers one row.
              Effect.catchTag("NoSuchElementException", Effect.die),
              Effect.map((row) => row.n),
              Effect.mapError(failed("read"))
            ),
          orElse: () => Effect.succeed(0)
        })
    } satisfies TriggerStore
  })

/**
 * The store on the runs' database.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<TriggerStore, RunStore.StoreFailed, RunsSql> = Layer.effect(TriggerStore, Effect.flatMap(RunsSql, make))
