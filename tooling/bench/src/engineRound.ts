/**
 * One measurement of the `engines` part (engines.ts), in a process of its own so that neither
 * engine runs on the other's heap, JIT state or leftover fibers: a `WorkflowEngine` of
 * `@effect/workflow` on a fresh SQLite file, the same workflow registered on it, warmed up, then
 * `runs` executions started with `discard: true` and awaited; it answers runs/s and the
 * process's CPU per run (`process.cpuUsage`, every thread: SQLite's work is on the main one,
 * our engine's WAL flushes on libuv's pool).
 *
 * - `ours`: the runner's `SqlWorkflowEngine` on `Database.layer` of the embedded default (its
 *   `runs.db`, WAL, `synchronous = NORMAL`, group-committed writes flushed to disk per batch),
 *   imported from the runner's tsc output (`apps/runner/dist`).
 * - `theirs`: `@effect/cluster`'s `ClusterWorkflowEngine.layer` on `SingleRunner.layer` (SQL
 *   message storage, runner storage in memory) on `@effect/sql-sqlite-node`, WAL and
 *   `synchronous = NORMAL` as the runner sets them (no flush of its own: a commit is not on disk
 *   before it goes on, which favours it), the runner's sharding settings and
 *   `simulateRemoteSerialization: false` (a local message is not encoded once more).
 * - `theirs-flushed`: the same with `synchronous = FULL` (each commit flushed to disk before it
 *   goes on): what ours guarantees (a step's result on disk before its run goes on).
 *
 * Each run is a workflow body under a semaphore of `concurrency` permits (serve's runs at once,
 * as `Engine.runsLayer` does), running `steps` activities that return a small struct like a
 * step's outcome; completions are counted inside the body (a run counted when its last activity
 * returned), and each activity's executions too, so that the answer says whether each ran once.
 *
 * Usage (forked by engines.ts): node engineRound.js <ours|theirs|theirs-flushed> <steps> <runs> <concurrency> <warm-up runs>
 */
import * as ClusterWorkflowEngine from "@effect/cluster/ClusterWorkflowEngine"
import * as SingleRunner from "@effect/cluster/SingleRunner"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../../../apps/runner/dist/store/Database.js"
import * as SqlWorkflowEngine from "../../../apps/runner/dist/store/SqlWorkflowEngine.js"
import { failed } from "./engines.js"

/**
 * Which engine a round measures: `theirs-flushed` is the cluster engine with SQLite's
 * `synchronous = FULL`, each of its commits flushed to disk before it goes on, as durable as
 * ours (whose commits are flushed per batch before a run goes on past a step).
 */
export type EngineName = "ours" | "theirs" | "theirs-flushed"

/** What a round answers its parent. */
export interface RoundResult {
  readonly engine: EngineName
  readonly steps: number
  readonly runs: number
  /** Runs whose body ended, of those measured (each counted once). */
  readonly completed: number
  /** Activity executions of the measured runs (each run's `steps`, once each, when all is well). */
  readonly activityExecutions: number
  readonly seconds: number
  readonly perSecond: number
  readonly cpuMsPerRun: number
  /** Of which in the kernel (a flush to disk is there). */
  readonly systemCpuMsPerRun: number
  /** Why the round did not complete, with the stack where there is one. */
  readonly problem?: string | undefined
}

/** A step's outcome, as small as the runner's `getCard` result that its activities journal. */
const Outcome = Schema.Struct({
  status: Schema.Literal("succeeded", "failed"),
  output: Schema.Struct({ id: Schema.String, name: Schema.String, closed: Schema.Boolean }),
  rateLimitWaitMs: Schema.Number
})

/**
 * One exit schema for every step activity, as the runner's engine gives its own (`Engine.ts`
 * `sharingExit`): `Activity.make` makes a new one per activity, and the engine would compile its
 * decoder again for each.
 */
const outcomeExit = Schema.ExitFromSelf({ success: Outcome, failure: Schema.Never, defect: Schema.Defect })

const BenchRun = Workflow.make({
  name: "bench/run",
  payload: { id: Schema.String, steps: Schema.Number },
  success: Schema.Number,
  idempotencyKey: ({ id }) => id
})

/** The completions awaited: the runs of one batch (warm-up or measured), by their id's prefix. */
interface Batch {
  readonly prefix: string
  readonly runs: number
  readonly completed: Set<string>
  activityExecutions: number
  readonly done: Deferred.Deferred<void>
}

const round = (engineName: EngineName, steps: number, runs: number, concurrency: number, warmUp: number, dataDir: string) =>
  Effect.gen(function*() {
    const engine = yield* WorkflowEngine.WorkflowEngine
    const batches = new Map<string, Batch>()
    const batchOf = (executionId: string) => batches.get(executionId.slice(0, executionId.indexOf("-")))
    const permits = yield* Effect.makeSemaphore(concurrency)
    yield* Layer.buildWithScope(
      BenchRun.toLayer(({ steps }, executionId) =>
        permits.withPermits(1)(Effect.gen(function*() {
          const batch = batchOf(executionId)
          for (let step = 0; step < steps; step++) {
            yield* Object.assign(
              Activity.make({
                name: `read${step}`,
                success: Outcome,
                execute: Effect.sync(() => {
                  if (batch !== undefined) batch.activityExecutions++
                  return { status: "succeeded" as const, output: { id: executionId, name: `card ${step}`, closed: false }, rateLimitWaitMs: 0 }
                })
              }),
              { exitSchema: outcomeExit }
            )
          }
          if (batch !== undefined && !batch.completed.has(executionId)) {
            batch.completed.add(executionId)
            if (batch.completed.size === batch.runs) Deferred.unsafeDone(batch.done, Effect.void)
          }
          return steps
        }))
      ).pipe(Layer.provide(Layer.succeed(WorkflowEngine.WorkflowEngine, engine))),
      yield* Effect.scope
    )
    const batch = (prefix: string, count: number) =>
      Effect.gen(function*() {
        const started: Batch = { prefix, runs: count, completed: new Set(), activityExecutions: 0, done: yield* Deferred.make<void>() }
        batches.set(prefix, started)
        const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`)
        const t0 = performance.now()
        const cpu0 = process.cpuUsage()
        // Handed to the engine as the runner's handoff does: each run started once, not awaited.
        yield* Effect.forEach(ids, (id) => engine.execute(BenchRun, { executionId: id, payload: { id, steps }, discard: true }), { concurrency, discard: true })
        const finished = yield* Deferred.await(started.done).pipe(Effect.timeoutOption(Duration.seconds(Number(process.env["BENCH_ENGINES_TIMEOUT"] ?? 300))))
        const cpu = process.cpuUsage(cpu0)
        const seconds = (performance.now() - t0) / 1000
        return {
          engine: engineName,
          steps,
          runs: count,
          completed: started.completed.size,
          activityExecutions: started.activityExecutions,
          seconds,
          perSecond: started.completed.size / seconds,
          cpuMsPerRun: (cpu.user + cpu.system) / 1000 / Math.max(1, started.completed.size),
          systemCpuMsPerRun: cpu.system / 1000 / Math.max(1, started.completed.size),
          problem: Option.isNone(finished) ? `hung: ${started.completed.size} of ${count} runs ended within the time limit` : undefined
        } satisfies RoundResult
      })
    if (warmUp > 0) {
      const warm = yield* batch("warm", warmUp)
      if (warm.problem !== undefined) return { ...warm, problem: `warm-up ${warm.problem}` }
    }
    yield* Effect.logDebug(`measuring in ${dataDir}`)
    return yield* batch("run", runs)
  })

/** The runner's embedded database (`runs.db` in the data directory) and its engine. */
const oursLayer = (dataDir: string) =>
  SqlWorkflowEngine.layer.pipe(
    Layer.provide(Database.layer({ _tag: "Embedded", dataDir })),
    Layer.provide(NodeContext.layer),
    Layer.orDie
  )

/** `@effect/cluster`'s engine on one runner, its messages in a SQLite file set up as the runner's is. */
const theirsLayer = (dataDir: string, synchronous: "NORMAL" | "FULL") =>
  ClusterWorkflowEngine.layer.pipe(
    Layer.provide(SingleRunner.layer({
      runnerStorage: "memory",
      shardingConfig: {
        // The runner's settings on PostgreSQL (Engine.ts), no second encoding of local messages among them.
        entityMessagePollInterval: Duration.seconds(1),
        refreshAssignmentsInterval: Duration.seconds(1),
        entityTerminationTimeout: Duration.seconds(10),
        simulateRemoteSerialization: false
      }
    })),
    Layer.provide(SqliteClient.layer({ filename: join(dataDir, "cluster.db") }).pipe(
      Layer.tap((context) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe(`PRAGMA synchronous = ${synchronous}`)
          yield* sql.unsafe("PRAGMA busy_timeout = 5000")
        }).pipe(Effect.provide(context))
      )
    )),
    Layer.orDie
  )

const [engineName, steps, runs, concurrency, warmUp] = process.argv.slice(2) as [EngineName, string, string, string, string]
const dataDir = mkdtempSync(join(tmpdir(), `bench-engine-${engineName}-`))
/** Answers and exits at once: the engine's scope is not closed (a hung engine may not close), nor needed. */
const answer = (result: RoundResult) =>
  Effect.sync(() => {
    rmSync(dataDir, { recursive: true, force: true })
    if (process.send !== undefined) process.send(result, () => process.exit(0))
    else {
      console.log(JSON.stringify(result))
      process.exit(0)
    }
  })
await Effect.runPromise(
  round(engineName, Number(steps), Number(runs), Number(concurrency), Number(warmUp), dataDir).pipe(
    Effect.flatMap(answer),
    Effect.provide(engineName === "ours" ? oursLayer(dataDir) : theirsLayer(dataDir, engineName === "theirs" ? "NORMAL" : "FULL")),
    Effect.scoped,
    Effect.catchAllCause((cause) => answer(failed(engineName, Number(steps), Number(runs), Cause.pretty(cause)))),
    Effect.zipRight(Effect.never)
  )
)
