/**
 * The durable engine of `serve`: `@effect/workflow`, on one of two `WorkflowEngine`s. On the
 * embedded database (one runner), `SqlWorkflowEngine` journals in the runs' database; on
 * PostgreSQL (any number of runners), `@effect/cluster`'s `ClusterWorkflowEngine` executes each
 * run on the runner that owns its shard (PostgreSQL advisory locks: when a runner dies, its
 * shards move to the living and their runs resume from the cluster's journal). The workflow and
 * its activities are one code for both.
 *
 * Each accepted event is a run (`RunStore`), executed as the workflow `x-runner/run` keyed by
 * the run and its attempt (a redelivered event is the same run, so the same execution). The
 * workflow runs the task tree (`Interpreter`): each attempt of each action, and each
 * iteration's, is an activity named by its task's path (`overdue[3].comment`, `…#2` for a
 * second attempt) whose result the engine journals and never runs again once recorded; a wait
 * journals the time it waits until, so a restart waits only what remains.
 *
 * Deliveries are acknowledged once their run is committed in the store, not when the engine
 * takes them: the handoff (`handOff`) gives each committed run's attempt to the engine once
 * (`xr_runs.handed_attempt`), at the engine's pace; which runner executes it is the engine's
 * to decide. Each runner runs at most `concurrency` runs at once (a waiting run does not count).
 *
 * A step cut short after it may have sent a request that creates or changes something (its
 * write marker committed, no result) is not repeated blindly: its action's `reconcile` looks
 * for what the first attempt created; without one the step and the run end `unknown`, for a
 * person to decide (`x-runner runs retry`).
 *
 * Several runners on one PostgreSQL are one cluster (`@effect/cluster`, over sockets): the
 * runs, and what must run on one runner at a time (each trigger's keeper, `EngineHost`).
 *
 * @since 0.3.0
 */
import * as ClusterWorkflowEngine from "@effect/cluster/ClusterWorkflowEngine"
import type * as MessageStorage from "@effect/cluster/MessageStorage"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import type * as Sharding from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import { type Connections, ConnectorError, Executor, WriteGuard } from "@x/core"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberSet from "effect/FiberSet"
import * as Schedule from "effect/Schedule"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { RunsHealth, RunsSql } from "../store/Database.js"
import { ServeProblem } from "../Errors.js"
import type { AcknowledgingFirst } from "./AcknowledgingFirst.js"
import { atMost } from "./internal/atMost.js"
import { persistently, retried } from "../store/internal/persistently.js"
import * as Interpreter from "./Interpreter.js"
import * as Run from "./Run.js"
import * as RunStore from "../store/RunStore.js"
import type * as WorkflowFile from "../workflow/Workflow.js"

/**
 * A run's end, as the engine records it.
 *
 * @since 0.3.0
 * @category models
 */
export const RunEnd = Schema.Literal("succeeded", "failed", "unknown")

/**
 * A run's execution: its id and attempt (a retried run is a new execution).
 *
 * @since 0.10.0
 * @category constructors
 */
export const executionIdOf = (run: { readonly runId: string; readonly attempt: number }): string => `${run.runId}/${run.attempt}`

/**
 * The workflow every run executes: the run's id and attempt; what it runs is in the store.
 *
 * @since 0.3.0
 * @category workflows
 */
export const RunWorkflow = Workflow.make({
  name: "x-runner/run",
  payload: { runId: Schema.String, attempt: Schema.Number },
  success: RunEnd,
  idempotencyKey: ({ attempt, runId }) => executionIdOf({ runId, attempt })
})

/** A step's outcome as the engine journals it. */
const StepOutcome = Schema.Struct({
  status: Schema.Literal("succeeded", "failed", "unknown"),
  input: Schema.optional(Schema.Unknown),
  output: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.Struct({ tag: Schema.String, message: Schema.String })),
  startedAt: Schema.Number,
  durationMs: Schema.Number,
  /** How long its requests waited for their rate limits (ms), when they waited. */
  rateLimitWaitMs: Schema.optional(Schema.Number)
})
type StepOutcome = typeof StepOutcome.Type

/**
 * One exit schema for every activity of a kind: `WorkflowEngine` decodes each result with its
 * activity's `exitSchema`, and the one `Activity.make` makes for each activity (here one per
 * attempt, named by its key) would have its decoder compiled again for every attempt (measured:
 * about a fifth of a one-task run's CPU); a shared one is compiled once.
 */
const sharingExit = <S extends Schema.Schema.Any>(success: S) => {
  const exitSchema = Schema.ExitFromSelf({ success, failure: Schema.Never, defect: Schema.Defect })
  return <A extends Activity.Activity<S>>(activity: A): A => Object.assign(activity, { exitSchema })
}
const withStepExit = sharingExit(StepOutcome)
const withWaitExit = sharingExit(Schema.Number)

/**
 * What the engine runs with: the served workflows by name, and what each run's end is told to.
 *
 * @since 0.3.0
 * @category models
 */
export interface Runs {
  /** This runner's id (in the runs it starts). */
  readonly runner: string
  readonly workflows: ReadonlyMap<string, WorkflowFile.Workflow>
  readonly executor: Executor.Executor
  /** How many runs this runner runs at once. */
  readonly concurrency: number
  readonly say: (line: string) => Effect.Effect<void>
  /** True once this runner stops: a run stops before its next step (it resumes from its journal later). */
  readonly stopping: () => boolean
  /**
   * How a run stops there: interrupted (the embedded engine), or waiting for its engine to
   * interrupt it (the cluster's, which takes an interruption from inside, before its own stop,
   * for a run to start again at once).
   */
  readonly stop: Effect.Effect<never>
  /** The runs that wait: the handoff's too. */
  readonly waiting: Waiting
  /** Said at each run's end or wait on this runner: the handoff has room again. */
  readonly roomMade?: Effect.Effect<void> | undefined
  /** Told of each run's end on this runner (`run --serve` waits on it). */
  readonly finished?: ((run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Interpreter.RunResult) => Effect.Effect<void>) | undefined
}

/**
 * The runs of this runner that wait (a `delay` or an `until`): they hold no place among the
 * `concurrency` runs at once, nor in the handoff's backlog, so that waiting runs never keep
 * others from running. `roomMade` is offered as one starts waiting.
 *
 * @since 0.7.0
 * @category models
 */
export interface Waiting {
  readonly size: () => number
  readonly roomMade: Queue.Queue<void>
  /** A run begins to wait (`roomMade` is offered). */
  readonly begin: Effect.Effect<void>
  /** A run waits no more. */
  readonly end: Effect.Effect<void>
  /** Runs a wait, counted as one. */
  readonly around: <A, E, R>(wait: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * The waits of a runner.
 *
 * @since 0.7.0
 * @category constructors
 */
export const makeWaiting: Effect.Effect<Waiting> = Effect.map(Queue.sliding<void>(1), (roomMade) => {
  let size = 0
  const begin = Effect.zipRight(Effect.sync(() => void (size += 1)), Queue.offer(roomMade, undefined))
  const end = Effect.sync(() => void (size -= 1))
  return { size: () => size, roomMade, begin, end, around: (wait) => Effect.acquireUseRelease(begin, () => wait, () => end) }
})


/** What a run does in the engine: its store, its recorded tasks, and what its attempts left for its rows. */
interface Execution {
  readonly store: RunStore.RunStore
  readonly runId: string
  /** The tasks as the store had them when the run (re)started, by path. */
  readonly recorded: ReadonlyMap<string, RunStore.Step>
  /**
   * Actions whose attempt was cut short by a time limit after it may have sent a write (by
   * path): the run cannot tell what happened at the provider.
   */
  readonly cutShort: Map<string, { readonly name: string; readonly type: string; readonly since: number }>
  /** Whether a task ended `unknown` (its failure path's included). */
  unknown: boolean
}

/**
 * One attempt of an action as an activity named by the attempt's key (`overdue[3].comment#2`):
 * the engine journals its outcome, and never runs it again once recorded. A task that
 * succeeded in an earlier execution of the run (before a `runs retry`) answers its recorded
 * outcome; an attempt found cut short after it may have sent a write is not sent blindly.
 */
const attemptActivity = (
  runs: Runs,
  execution: Execution,
  checked: WorkflowFile.CheckedAction,
  key: string,
  scope: ReadonlyMap<string, unknown>,
  deadline: Interpreter.Deadline | undefined
) => {
  const { attempt, path } = Interpreter.attemptOf(key)
  const { recorded, runId, store } = execution
  const { name, type } = checked.step
  return withStepExit(Activity.make({
    name: key,
    success: StepOutcome,
    execute: Effect.gen(function*() {
      yield* Effect.annotateCurrentSpan({ "x-runner.step.name": name, "x-runner.step.type": type, "x-runner.step.path": key })
      const before = recorded.get(path)
      if (before !== undefined && before.status === "succeeded") {
        return {
          status: "succeeded",
          input: before.input,
          output: before.output,
          startedAt: before.startedAt ?? Date.now(),
          durationMs: before.durationMs ?? 0
        } satisfies StepOutcome
      }
      // What the step was given, secrets scrubbed: shown for a step whose outcome is unknown (what it may have sent).
      const resolveParameters = () => checked.decoded !== undefined ? Either.right(checked.parameters) : Run.resolveParameters(checked, scope)
      const shownInputOf = (resolved: ReturnType<typeof resolveParameters>) =>
        Run.scrubbed(checked, Either.getOrElse(resolved, () => checked.parameters))
      if (before !== undefined && before.status === "running" && before.writeSentAt !== undefined && before.writeAttempt === attempt) {
        const resolved = resolveParameters()
        const shownInput = shownInputOf(resolved)
        // Cut short after it may have sent a write: found again, or reported; never sent blindly.
        const since = before.writeSentAt
        const startedAt = before.startedAt ?? since
        const unknown = (why: string) => ({
          status: "unknown",
          input: shownInput,
          error: {
            tag: "OutcomeUnknown",
            message: `step "${key}" (${type}) was stopped after it may have sent a request that creates or changes something ` +
              `(at ${new Date(since).toISOString()}): it is not repeated blindly (${why}). Check at the provider, ` +
              `then run it again with: x-runner runs retry ${runId}`
          },
          startedAt,
          durationMs: 0
        } satisfies StepOutcome)
        if (!Executor.reconcilable(checked.prepared)) return unknown("its action cannot find what it created")
        if (Either.isLeft(resolved)) return unknown(resolved.left.message)
        const found = yield* Effect.either(runs.executor.reconcilePrepared(checked.prepared, resolved.right, new Date(since)))
        if (Either.isLeft(found)) return unknown(`looking for what it created failed: ${found.left._tag}: ${found.left.message}`)
        if (Option.isSome(found.right)) {
          yield* runs.say(`  ↻ ${key}: found what its attempt cut short created; not sent again`)
          return { status: "succeeded", input: shownInput, output: found.right.value, startedAt, durationMs: Date.now() - startedAt } satisfies StepOutcome
        }
        // Nothing was created: running it again creates nothing twice.
      }
      // Before its first write is sent, the attempt's marker is committed (waiting while the database refuses writes).
      let marked: number | undefined
      const health = yield* RunsHealth
      const guard: WriteGuard.Guard = {
        beforeWrite: () =>
          marked !== undefined ? Effect.void : store.writeSent(runId, { path, name, type, attempt }).pipe(
            retried,
            Effect.provideService(RunsHealth, health),
            Effect.mapError((error) =>
              new ConnectorError.UpstreamUnavailable({
                message: `x-runner could not record that step "${key}" may send a write (${error.message}): the request was not sent`
              })
            ),
            Effect.flatMap((at) => Effect.sync(() => void (marked = at)))
          )
      }
      // Its time limit is kept here, where it runs: a run cannot interrupt an activity of the
      // cluster's engine from outside, and the attempt must stop sending at its deadline.
      const limited = yield* Run.untilDeadline(Effect.provideService(Run.runStep(runs.executor, checked, scope), WriteGuard.WriteGuard, guard), deadline).pipe(
        // Interrupted (a group's time limit, on the embedded engine) after its marker: what it did is unknown (a stop is not: the run resumes and looks).
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            if (marked !== undefined && !runs.stopping()) execution.cutShort.set(path, { name, type, since: marked })
          })
        )
      )
      if (Option.isNone(limited)) {
        const startedAt = Date.now()
        return marked === undefined
          ? { status: "failed", error: deadline!.error, startedAt, durationMs: 0 } satisfies StepOutcome
          : {
            status: "unknown",
            input: shownInputOf(resolveParameters()),
            error: {
              tag: "OutcomeUnknown",
              message: `step "${key}" (${type}) was cut short by a time limit after it may have sent a request that creates or changes something ` +
                `(at ${new Date(marked).toISOString()}): check at the provider, then run it again with: x-runner runs retry ${runId}`
            },
            startedAt: marked,
            durationMs: startedAt - marked
          } satisfies StepOutcome
      }
      const result = limited.value
      return {
        status: result.status === "succeeded" ? "succeeded" : "failed",
        input: result.input,
        output: result.output,
        error: result.error,
        startedAt: Date.now() - (result.durationMs ?? 0),
        durationMs: result.durationMs ?? 0,
        ...(result.rateLimitWaitMs === undefined ? {} : { rateLimitWaitMs: result.rateLimitWaitMs })
      } satisfies StepOutcome
    }).pipe(
      Effect.tap((outcome) => Effect.annotateCurrentSpan("x-runner.step.status", outcome.status)),
      Effect.withSpan("x-runner.step")
    )
  }))
}

/**
 * A wait as an activity named by its key: the time it waits until is journaled the first
 * time, so a run resumed after a stop waits only what remains (a wait that ended in an earlier
 * execution of the run answers at once).
 */
const waitActivity = (execution: Execution, key: string, until: Date) =>
  withWaitExit(Activity.make({
    name: key,
    success: Schema.Number,
    execute: Effect.sync(() => {
      const before = execution.recorded.get(key)
      const recordedUntil = before?.status === "succeeded" ? Date.parse(String((before.output as { until?: unknown } | undefined)?.until)) : Number.NaN
      return Number.isNaN(recordedUntil) ? until.getTime() : recordedUntil
    })
  }))

const indent = (depth: number) => "  ".repeat(depth + 1)

/**
 * The workflow's body, registered with the engine: the run's task tree by the `Interpreter`,
 * each action's attempt and each wait an activity keyed by its task's path, each task's end
 * kept as its row. A defect (a bug: nothing the run's tasks or its database do) stops the
 * execution's attempt there: it is said, and the run replays from its journal 5 s later.
 *
 * @since 0.3.0
 * @category layers
 */
export const runsLayer = (runs: Runs) => {
  // At most `concurrency` runs at once on this runner (a waiting one gives its place up); the others wait their turn in the engine.
  const permits = Effect.unsafeMakeSemaphore(runs.concurrency)
  return RunWorkflow.toLayer(({ attempt, runId }) =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const loaded = yield* persistently(store.load(runId))
      if (Option.isNone(loaded)) return "failed" as const
      const { event, run, steps: recorded } = loaded.value
      // An attempt a retry replaced: the newer one runs.
      if (run.attempt !== attempt) return "failed" as const
      // Stopping: it resumes from its journal (here at the next start, or on another runner).
      if (runs.stopping()) return yield* runs.stop
      yield* Effect.annotateCurrentSpan({ "x-runner.run.id": runId, "x-runner.workflow": run.workflow, "x-runner.event.id": run.eventId, "x-runner.run.attempt": attempt })
      const workflow = runs.workflows.get(run.workflow)
      if (workflow === undefined) {
        yield* persistently(store.runFinished(runId, attempt, "failed", undefined))
        yield* runs.say(`✘ run ${runId}: the workflow ${run.workflow} is not served here`)
        return "failed" as const
      }
      yield* persistently(store.runStarted(runId, attempt, runs.runner))
      yield* runs.say(`▶ event ${run.eventId} (run ${runId})`)
      const execution: Execution = { store, runId, recorded, cutShort: new Map(), unknown: false }
      const health = yield* RunsHealth
      const written = <A>(effect: Effect.Effect<A, RunStore.StoreFailed>) => persistently(effect).pipe(Effect.provideService(RunsHealth, health))
      // While any of its waits lasts (a loop's iterations may wait at once), the run gives up its
      // place among the runs at once and in the engine's backlog, and says so in the store.
      let waits = 0
      // (The store is told first: a write that fails for good leaves the place and the count as they were.)
      const waitBegins = (at: Date) =>
        Effect.suspend(() => {
          waits += 1
          return waits > 1 ? Effect.void : Effect.zipRight(
            written(store.waiting(runId, at.getTime())),
            Effect.zipRight(runs.waiting.begin, Effect.zipRight(permits.release(1), runs.roomMade ?? Effect.void))
          )
        })
      const waitEnds = Effect.suspend(() => {
        waits -= 1
        return waits > 0 ? Effect.void : written(store.waiting(runId, undefined)).pipe(Effect.ensuring(Effect.zipRight(runs.waiting.end, permits.take(1))))
      })
      const keep = (row: RunStore.Step) => written(store.stepFinished(runId, row))
      const reporter: Interpreter.Reporter = {
        started: () => Effect.void,
        iteration: () => Effect.void,
        retrying: (_task, key, attempt, of, after, depth) => runs.say(`${indent(depth)}↻ ${key}: attempt ${attempt} of ${of} after ${Duration.format(after)}`),
        finished: (result, depth) => {
          const row = Run.rowOf(result, Date.now())
          if (row.status === "unknown") execution.unknown = true
          // Without its duration: serve's log says how each task ended, `runs show` how long it took.
          return Effect.zipRight(keep(row), runs.say(`${indent(depth)}${Run.stepLine({ ...row, name: result.key, durationMs: undefined })}`))
        }
      }
      const steps: Interpreter.Steps<RunStore.RunStore | RunsHealth | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance | Connections.Connections> = {
        attempt: (task, key, scope, deadline) =>
          Effect.gen(function*() {
            if (runs.stopping()) return yield* runs.stop
            const outcome = yield* attemptActivity(runs, execution, task, key, scope, deadline)
            return {
              status: outcome.status === "succeeded" ? "succeeded" : "failed",
              input: outcome.input,
              output: outcome.output,
              error: outcome.error,
              rateLimitWaitMs: outcome.rateLimitWaitMs
            } satisfies Interpreter.Attempt
          }),
        waitUntil: (key, until) =>
          Effect.gen(function*() {
            if (runs.stopping()) return yield* runs.stop
            const at = new Date(yield* waitActivity(execution, key, until))
            yield* Effect.acquireUseRelease(waitBegins(at), () => Interpreter.sleepUntil(at), () => waitEnds)
            return at
          })
      }
      const result = yield* Interpreter.run(workflow, steps, reporter, event)
      // What a time limit cut short after it may have sent a write: for a person to decide.
      for (const [path, cut] of execution.cutShort) {
        yield* keep({
          path,
          name: cut.name,
          kind: "action",
          type: cut.type,
          status: "unknown",
          error: {
            tag: "OutcomeUnknown",
            message: `step "${path}" (${cut.type}) was cut short by a time limit after it may have sent a request that creates or changes something ` +
              `(at ${new Date(cut.since).toISOString()}): check at the provider, then run it again with: x-runner runs retry ${runId}`
          },
          startedAt: cut.since
        })
      }
      // A failed run with a task whose outcome is unknown (its failure path's too) is for a person: a retry could send it twice.
      const end = result.status === "succeeded"
        ? "succeeded" as const
        : execution.unknown || execution.cutShort.size > 0
        ? "unknown" as const
        : "failed" as const
      // Not written: a retry replaced this attempt meanwhile (the newer one runs).
      if (!(yield* persistently(store.runFinished(runId, attempt, end, result.failure?.path)))) return end
      yield* Effect.annotateCurrentSpan("x-runner.run.status", end)
      yield* runs.say(`■ event ${run.eventId} ${end} (run ${runId})`)
      if (runs.finished !== undefined) yield* runs.finished({ runId, eventId: run.eventId, workflow: run.workflow }, result)
      return end
    }).pipe(
      Effect.ensuring(runs.roomMade ?? Effect.void),
      Effect.withSpan("x-runner.run"),
      Effect.catchAllDefect((defect) => Effect.zipRight(runs.say(`✘ run ${runId} stopped before its end (${defect}): it is taken up again in 5 s`), Effect.fail(defect))),
      // Its place among the runs at once is given up while it waits to be taken up again.
      permits.withPermits(1),
      Effect.retry(Schedule.spaced("5 seconds")),
      Effect.orDie
    )
  )
}

/**
 * How the runners of a cluster reach each other (several runners on PostgreSQL).
 *
 * @since 0.3.0
 * @category models
 */
export interface ClusterOptions {
  /** This runner's address, as the others reach it. */
  readonly host: string
  readonly port: number
  /** How long a dead runner's shards stay locked before another takes them over. */
  readonly shardLockExpiration: Duration.DurationInput
}

/**
 * The cluster of the runners on one PostgreSQL, over sockets: the runs' executions are its
 * entities, and what must run on one runner at a time (the triggers' keepers) its singletons,
 * each on the runner that holds its shard's lock (a PostgreSQL advisory lock, held by the
 * runner's session: PostgreSQL's own liveness, no runner's clock). A runner that dies loses its
 * session and its locks at once; the others see it gone when its row in the cluster's runners
 * table has not been refreshed for `shardLockExpiration` (the database's time), and take its
 * shards.
 *
 * @since 0.3.0
 * @category layers
 */
export const clusterLayer = (cluster: ClusterOptions): Layer.Layer<Sharding.Sharding | MessageStorage.MessageStorage, ServeProblem, RunsSql> =>
  NodeClusterSocket.layer({
    storage: "sql",
    shardingConfig: {
      // Messages to the runs of this runner stay in this process: encoding them once more is for tests of the wire.
      simulateRemoteSerialization: false,
      entityMessagePollInterval: Duration.seconds(1),
      shardLockExpiration: cluster.shardLockExpiration,
      shardLockRefreshInterval: Duration.divide(Duration.decode(cluster.shardLockExpiration), 4).pipe(Option.getOrElse(() => Duration.seconds(1))),
      refreshAssignmentsInterval: Duration.seconds(1),
      // A runner giving a shard up (another runner joined, or it stops) lets the steps in flight
      // there end first, for up to this long, before another runner takes the shard: a step
      // still running then may run again there (its write marker makes that one reconcile).
      entityTerminationTimeout: Duration.seconds(10),
      runnerAddress: Option.some(RunnerAddress.make(cluster.host, cluster.port))
    }
  }).pipe(
    // Runners started together on an empty PostgreSQL would race creating the cluster's tables.
    Layer.provide(clusterTablesCreated),
    Layer.provide(Layer.effect(SqlClient.SqlClient, RunsSql)),
    Layer.mapError((error) => new ServeProblem({ message: `the runners' cluster could not start: ${String((error as { message?: string }).message ?? error)}` }))
  ) as Layer.Layer<Sharding.Sharding | MessageStorage.MessageStorage, ServeProblem, RunsSql>

/**
 * The engine of several runners on one PostgreSQL: `@effect/cluster`'s, on the cluster's
 * sharding (built once, with the triggers' singletons).
 *
 * @since 0.10.0
 * @category layers
 */
export const clusterEngineLayer: Layer.Layer<WorkflowEngine.WorkflowEngine, never, Sharding.Sharding | MessageStorage.MessageStorage> =
  ClusterWorkflowEngine.layer

/**
 * How long the cluster keeps a finished run's messages and their replies (its journal): then
 * they are deleted (`forgetFinished`). A finished run is never executed again (a `runs retry`
 * is a new execution), and what it did is in `xr_runs` and `xr_steps`.
 *
 * @since 0.10.0
 * @category constants
 */
export const keepFinishedFor = Duration.minutes(10)

/**
 * Deletes the cluster's messages and replies of the runs finished more than `keepFinishedFor`
 * ago (every attempt's), as `@effect/cluster` keeps them for ever; answers how many messages
 * went. Any runner may run it: each deletes what is there.
 *
 * @since 0.10.0
 * @category constructors
 */
export const forgetFinished: Effect.Effect<number, unknown, RunsSql> = Effect.gen(function*() {
  const sql = yield* RunsSql
  const rows = yield* sql<{ n: string | number }>`WITH finished AS (
      SELECT m.id FROM cluster_messages m JOIN xr_runs r ON r.id = split_part(m.entity_id, '/', 1)
      WHERE m.entity_type = ${`Workflow/${RunWorkflow.name}`} AND r.status IN ('succeeded', 'failed', 'unknown')
        AND r.finished_at < EXTRACT(EPOCH FROM NOW()) * 1000 - ${Duration.toMillis(keepFinishedFor)}
    ), replies AS (
      DELETE FROM cluster_replies WHERE request_id IN (SELECT id FROM finished)
    ), messages AS (
      DELETE FROM cluster_messages WHERE id IN (SELECT id FROM finished) RETURNING id
    )
    SELECT COUNT(*) AS n FROM messages`
  return Number(rows[0]?.n ?? 0)
})

/**
 * How long a dead runner's shards stay locked before another runner takes them over (the
 * runners table's rows older than this are the dead's).
 *
 * @since 0.10.0
 * @category constants
 */
export const shardLockExpiration = Duration.seconds(5)

/** The advisory lock under which runners create the cluster's tables, one at a time ("xr-clu"). */
const clusterSchemaLock = 0x78_72_2d_63_6c_75

/**
 * The cluster's tables, created by one runner at a time: its storage layers built once (their
 * migrations run) while this runner holds a PostgreSQL advisory lock on a connection of its own.
 */
const clusterTablesCreated: Layer.Layer<never, unknown, SqlClient.SqlClient> = Layer.effectDiscard(Effect.scoped(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const connection = yield* sql.reserve
  yield* Effect.acquireRelease(
    connection.execute(`SELECT pg_advisory_lock(${clusterSchemaLock})`, [], undefined),
    () => Effect.ignore(connection.execute(`SELECT pg_advisory_unlock(${clusterSchemaLock})`, [], undefined))
  )
  yield* Effect.scoped(Layer.build(Layer.mergeAll(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(Layer.provide(ShardingConfig.layer()))))
})))

/**
 * How long runs in the engine get to reach the end of their step when the runner stops; those
 * still running then are interrupted, and resume from their journal.
 *
 * @since 0.3.0
 * @category constants
 */
export const stopGrace = Duration.seconds(3)

/** How often a held handoff looks again whether deliveries still come first. */
const heldLookEvery = Duration.millis(20)

/**
 * The handoff: gives each committed run's attempt to the engine once, oldest first, and marks
 * it handed (`xr_runs.handed_attempt`). It wakes when `wake` is offered (an event accepted here)
 * and polls meanwhile (events accepted by other runners, runs retried from the command line).
 * Any runner may hand any run: the engine keys an execution by the run and its attempt, so a
 * run handed twice is one execution.
 *
 * At most `backlog` runs per runner are in the engine at once, not counting those that wait:
 * so that the runs of a runner that died, which its shards' next owner resumes, are not queued
 * behind many others. With `local` (the embedded engine, whose executions live in this process)
 * they are counted here, and one that ends without finishing its run (interrupted) is handed
 * again. On the cluster they are counted in the store (`RunStore.inEngine`), for as many runners
 * as `runners` counts; an execution is a stored message to the runner that owns its shard:
 * handing it is done once the message is stored, and a runner that dies leaves it for the next
 * owner.
 *
 * With `acknowledgingFirst` (the embedded engine, in the thread beside the one that receives
 * deliveries) it hands no new run while that thread is busy, looking again every 20 ms.
 *
 * A failure of its own (the database's) is not its end: it goes on a second later. At its
 * scope's end the local runs in the engine get `stopGrace` to finish their step.
 *
 * @since 0.10.0
 * @category constructors
 */
export const handOff = (options: {
  readonly backlog: number
  readonly local: boolean
  /** How many runners share the engine (the cluster's, alive by the database's time). */
  readonly runners?: Effect.Effect<number> | undefined
  readonly wake: Queue.Queue<void>
  readonly say: (line: string) => Effect.Effect<void>
  /** The runs that wait: they do not count against the backlog. */
  readonly waiting: Waiting
  readonly pollInterval?: Duration.DurationInput
  /** With `local`: no new run is handed while the thread that receives deliveries is busy. */
  readonly acknowledgingFirst?: AcknowledgingFirst | undefined
}): Effect.Effect<void, never, Scope.Scope | RunStore.RunStore | RunsHealth | WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function*() {
    const store = yield* RunStore.RunStore
    const health = yield* RunsHealth
    const engine = yield* WorkflowEngine.WorkflowEngine
    const executions = yield* FiberSet.make()
    // The runs being handed, or (local) in the engine, by id.
    const inFlight = new Set<string>()
    // Offered as a handoff or a local execution ends: a full engine waits for room on it.
    const freed = yield* Queue.sliding<void>(1)
    const idle = Effect.raceFirst(Queue.take(options.wake), Effect.sleep(options.pollInterval ?? "1 second"))
    const written = <A>(effect: Effect.Effect<A, RunStore.StoreFailed>) => persistently(effect).pipe(Effect.provideService(RunsHealth, health))
    const done = (runId: string) => Effect.zipRight(Effect.sync(() => inFlight.delete(runId)), Queue.offer(freed, undefined))
    const local = ({ attempt, runId }: { readonly runId: string; readonly attempt: number }) =>
      Effect.zipRight(
        written(store.handed(runId, attempt)),
        engine.execute(RunWorkflow, { executionId: executionIdOf({ runId, attempt }), payload: { runId, attempt } }).pipe(
          Effect.exit,
          Effect.flatMap((exit) =>
            Exit.isSuccess(exit) ? Effect.void : Effect.zipRight(
              Exit.isInterrupted(exit) ? Effect.void : options.say(`✘ run ${runId} stopped before its end (${Cause.squash(exit.cause)}): it is taken up again`),
              // Handed again (a stop hands every unfinished run again at the next start).
              Effect.delay(Effect.ignore(store.handAgain(runId)), "1 second")
            )
          )
        )
      ).pipe(Effect.ensuring(done(runId)), FiberSet.run(executions))
    // Stored as a message to the runner that owns its shard, then that runner is told; telling
    // one that is stalled waits (its socket open, no answer), so a handoff gives up after 5 s
    // and is tried again (the same execution: the message is stored once).
    const toCluster = ({ attempt, runId }: { readonly runId: string; readonly attempt: number }) =>
      engine.execute(RunWorkflow, { executionId: executionIdOf({ runId, attempt }), payload: { runId, attempt }, discard: true }).pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new RunStore.StoreFailed({ message: "the engine did not take the run within 5 s" }) }),
        Effect.zipRight(store.handed(runId, attempt)),
        Effect.ignore,
        Effect.ensuring(done(runId)),
        FiberSet.run(executions)
      )
    const holds = options.local && options.acknowledgingFirst !== undefined ? options.acknowledgingFirst.holds : Effect.succeed(false)
    const once = Effect.gen(function*() {
      if (Option.isSome(yield* health.failing)) yield* health.writable
      // The runs in the engine go on meanwhile; a new one waits until the deliveries are acknowledged.
      if (yield* holds) return yield* Effect.sleep(heldLookEvery)
      const room = options.local
        ? options.backlog - (inFlight.size - options.waiting.size())
        : options.backlog * Math.max(1, yield* options.runners ?? Effect.succeed(1)) - (yield* store.inEngine) - inFlight.size
      if (room <= 0) {
        // Room is made by a run's end or wait: here (local), or anywhere in the cluster (woken by this runner's, polled for the others').
        return yield* options.local ? Effect.raceFirst(Queue.take(freed), Queue.take(options.waiting.roomMade)) : idle
      }
      const found = (yield* store.toHand(Math.min(room, 256))).filter((run) => !inFlight.has(run.runId))
      if (found.length === 0) return yield* idle
      for (const run of found) {
        inFlight.add(run.runId)
        yield* options.local ? local(run) : toCluster(run)
      }
    })
    // Bounded even when the runs wait for a database that refuses writes.
    yield* Effect.addFinalizer(() => atMost(FiberSet.awaitEmpty(executions), stopGrace))
    yield* Effect.forkScoped(Effect.forever(Effect.catchAllCause(once, () => Effect.sleep("1 second"))))
  })
