/**
 * The durable engine of `serve`: `@effect/workflow`, on a `WorkflowEngine` that journals in the
 * runs' database (`SqlWorkflowEngine`). Each accepted event is a run (`RunStore`), executed as
 * the workflow `x-runner/run` keyed by the run and its attempt (a redelivered event is the same
 * run, so the same execution). The workflow runs the task tree (`Interpreter`): each attempt of
 * each action, and each iteration's, is an activity named by its task's path
 * (`overdue[3].comment`, `…#2` for a second attempt) whose result the engine journals and never
 * runs again once recorded; a wait journals the time it waits until, so a restart waits only
 * what remains. A run resumed after a crash replays what its journal holds and runs on from the
 * unfinished iterations.
 *
 * Deliveries are acknowledged once their run is committed in the store, not when the engine
 * takes them: a dispatcher claims waiting runs for this runner at the engine's pace, keeping at
 * most a few times `concurrency` of them in the engine; each runner runs at most `concurrency`
 * runs at once (a waiting run counts in neither). A run stays this runner's while it heartbeats: the runs of a runner that stops
 * or dies are claimed by the others (or by the embedded database's next runner) and resume from
 * their journal.
 *
 * A step cut short after it may have sent a request that creates or changes something (its
 * write marker committed, no result) is not repeated blindly: its action's `reconcile` looks
 * for what the first attempt created; without one the step and the run end `unknown`, for a
 * person to decide (`x-runner runs retry`).
 *
 * Several runners on one PostgreSQL are also a cluster (`@effect/cluster`, over sockets), for
 * what must run on one runner at a time: each trigger's keeper (`EngineHost`).
 *
 * @since 0.3.0
 */
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
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { RunsHealth, RunsSql } from "../store/Database.js"
import { ServeProblem } from "../Errors.js"
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

/** A run's execution: its id and attempt (a retried run is a new execution). */
const executionIdOf = (run: { readonly runId: string; readonly attempt: number }): string => `${run.runId}/${run.attempt}`

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
  /** The runs that wait: the dispatcher's too. */
  readonly waiting: Waiting
  /** Told of each run's end on this runner (`run --serve` waits on it). */
  readonly finished?: ((run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Interpreter.RunResult) => Effect.Effect<void>) | undefined
}

/**
 * A run another runner took over (this one went silent too long, e.g. stalled): this runner
 * sends and records nothing more of it; its execution ends here (a defect: nothing journaled),
 * and the other runner runs it from its journal.
 */
const takenOverName = "RunTakenOver"
/** The defect (its name survives the journal's defect schema, a class would not). */
const takenOver = (runId: string) => Effect.die(Object.assign(new Error(`run ${runId} was taken over by another runner`), { name: takenOverName }))

/**
 * The runs of this runner that wait (a `delay` or an `until`): they hold no place among the
 * `concurrency` runs at once, nor in the dispatcher's backlog, so that waiting runs never keep
 * others from running. `roomMade` is offered as one starts waiting.
 *
 * @since 0.7.0
 * @category models
 */
export interface Waiting {
  readonly size: () => number
  readonly roomMade: Queue.Queue<void>
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
  return {
    size: () => size,
    roomMade,
    around: (wait) =>
      Effect.acquireUseRelease(
        Effect.zipRight(Effect.sync(() => void (size += 1)), Queue.offer(roomMade, undefined)),
        () => wait,
        () => Effect.sync(() => void (size -= 1))
      )
  }
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
const attemptActivity = (runs: Runs, execution: Execution, checked: WorkflowFile.CheckedAction, key: string, scope: ReadonlyMap<string, unknown>) => {
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
      if (before !== undefined && before.status === "running" && before.writeSentAt !== undefined && before.writeAttempt === attempt) {
        const resolved = checked.decoded !== undefined ? Either.right(checked.parameters) : Run.resolveParameters(checked, scope)
        const shownInput = Run.scrubbed(checked, Either.getOrElse(resolved, () => checked.parameters))
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
          marked !== undefined ? Effect.void : store.writeSent(runId, runs.runner, { path, name, type, attempt }).pipe(
            retried,
            Effect.provideService(RunsHealth, health),
            Effect.mapError((error) =>
              new ConnectorError.UpstreamUnavailable({
                message: `x-runner could not record that step "${key}" may send a write (${error.message}): the request was not sent`
              })
            ),
            // Taken over: the request does not go, and the step ends here unrecorded (a defect is not journaled).
            Effect.flatMap(Option.match({ onNone: () => takenOver(runId), onSome: (at) => Effect.sync(() => void (marked = at)) }))
          )
      }
      const result = yield* Effect.provideService(Run.runStep(runs.executor, checked, scope), WriteGuard.WriteGuard, guard).pipe(
        // Cut short by its time limit after its marker: what it did is unknown (a stop is not: the run resumes and looks).
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            if (marked !== undefined && !runs.stopping()) execution.cutShort.set(path, { name, type, since: marked })
          })
        )
      )
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
 * kept as its row (fenced: a run taken over stops here).
 *
 * @since 0.3.0
 * @category layers
 */
export const runsLayer = (runs: Runs) => {
  // At most `concurrency` runs at once on this runner (a waiting one gives its place up); the others wait their turn in the engine.
  const permits = Effect.unsafeMakeSemaphore(runs.concurrency)
  return RunWorkflow.toLayer(({ attempt, runId }) =>
    permits.withPermits(1)(Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const loaded = yield* persistently(store.load(runId))
      if (Option.isNone(loaded)) return "failed" as const
      const { event, run, steps: recorded } = loaded.value
      // An attempt a retry replaced: the newer one runs.
      if (run.attempt !== attempt) return "failed" as const
      // Stopping: it resumes from its journal (here at the next start, or on another runner).
      if (runs.stopping()) return yield* Effect.interrupt
      yield* Effect.annotateCurrentSpan({ "x-runner.run.id": runId, "x-runner.workflow": run.workflow, "x-runner.event.id": run.eventId, "x-runner.run.attempt": attempt })
      const workflow = runs.workflows.get(run.workflow)
      if (workflow === undefined) {
        if (!(yield* persistently(store.runFinished(runId, runs.runner, attempt, "failed", undefined)))) return yield* takenOver(runId)
        yield* runs.say(`✘ run ${runId}: the workflow ${run.workflow} is not served here`)
        return "failed" as const
      }
      yield* persistently(store.runStarted(runId, attempt, runs.runner))
      yield* runs.say(`▶ event ${run.eventId} (run ${runId})`)
      const execution: Execution = { store, runId, recorded, cutShort: new Map(), unknown: false }
      const health = yield* RunsHealth
      const keep = (row: RunStore.Step) =>
        Effect.flatMap(persistently(store.stepFinished(runId, runs.runner, row)), (owned) => owned ? Effect.void : takenOver(runId)).pipe(
          Effect.provideService(RunsHealth, health)
        )
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
        attempt: (task, key, scope) =>
          Effect.gen(function*() {
            if (runs.stopping()) return yield* Effect.interrupt
            const outcome = yield* attemptActivity(runs, execution, task, key, scope)
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
            if (runs.stopping()) return yield* Effect.interrupt
            const at = new Date(yield* waitActivity(execution, key, until))
            yield* runs.waiting.around(Effect.acquireUseRelease(permits.release(1), () => Interpreter.sleepUntil(at), () => permits.take(1)))
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
      if (!(yield* persistently(store.runFinished(runId, runs.runner, attempt, end, result.failure?.path)))) return yield* takenOver(runId)
      yield* Effect.annotateCurrentSpan("x-runner.run.status", end)
      yield* runs.say(`■ event ${run.eventId} ${end} (run ${runId})`)
      if (runs.finished !== undefined) yield* runs.finished({ runId, eventId: run.eventId, workflow: run.workflow }, result)
      return end
    }).pipe(Effect.withSpan("x-runner.run")))
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
 * The cluster of the runners on one PostgreSQL, over sockets: what must run on one runner at a
 * time (the triggers' keepers) runs as its singletons, taken over by another runner when the
 * one running them stops refreshing its shard locks (`shardLockExpiration`).
 *
 * @since 0.3.0
 * @category layers
 */
export const clusterLayer = (cluster: ClusterOptions): Layer.Layer<Sharding.Sharding, ServeProblem, RunsSql> =>
  NodeClusterSocket.layer({
    storage: "sql",
    shardingConfig: {
      entityMessagePollInterval: Duration.seconds(1),
      shardLockExpiration: cluster.shardLockExpiration,
      shardLockRefreshInterval: Duration.divide(Duration.decode(cluster.shardLockExpiration), 4).pipe(Option.getOrElse(() => Duration.seconds(1))),
      refreshAssignmentsInterval: Duration.seconds(1),
      entityTerminationTimeout: Duration.seconds(3),
      runnerAddress: Option.some(RunnerAddress.make(cluster.host, cluster.port))
    }
  }).pipe(
    // Runners started together on an empty PostgreSQL would race creating the cluster's tables.
    Layer.provide(clusterTablesCreated),
    Layer.provide(Layer.effect(SqlClient.SqlClient, RunsSql)),
    Layer.mapError((error) => new ServeProblem({ message: `the runners' cluster could not start: ${String((error as { message?: string }).message ?? error)}` }))
  ) as Layer.Layer<Sharding.Sharding, ServeProblem, RunsSql>

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

/**
 * The dispatcher: claims runs for this runner and starts their executions, keeping at most
 * `backlog` of them in the engine. It wakes when `wake` is offered (an event accepted here) and
 * polls meanwhile (events accepted by other runners, runs retried from the command line, the
 * runs of a runner that died). An execution that ends without finishing its run (a defect, the
 * database gone for long) lets the run go, to be claimed again. While the database refuses
 * writes it claims nothing; once it takes them again, the runs this runner holds with no
 * execution (a claim whose answer was lost, a release that could not be written) are started
 * again. A failure of its own (the database's) is not its end: it goes on a second later. At its
 * scope's end the runs in the engine get `stopGrace` to finish their step.
 *
 * @since 0.3.0
 * @category constructors
 */
export const dispatch = (options: {
  readonly runner: string
  readonly backlog: number
  readonly wake: Queue.Queue<void>
  readonly takeOver: Parameters<RunStore.RunStore["claim"]>[2]
  readonly say: (line: string) => Effect.Effect<void>
  /** The runs that wait: they do not count against the backlog. */
  readonly waiting: Waiting
  readonly pollInterval?: Duration.DurationInput
}): Effect.Effect<void, never, Scope.Scope | RunStore.RunStore | RunsHealth | WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function*() {
    const store = yield* RunStore.RunStore
    const health = yield* RunsHealth
    const engine = yield* WorkflowEngine.WorkflowEngine
    const executions = yield* FiberSet.make()
    // The runs in the engine, by id.
    const inEngine = new Set<string>()
    // Whether this runner may hold runs that have no execution here.
    let unsure = false
    // Offered as each execution ends: a full engine waits for room on it.
    const freed = yield* Queue.sliding<void>(1)
    const idle = Effect.raceFirst(Queue.take(options.wake), Effect.sleep(options.pollInterval ?? "1 second"))
    // Retried like the runs' writes; one never written leaves the run held here, to start again.
    const release = (runId: string) =>
      persistently(store.release(runId, options.runner)).pipe(
        Effect.delay("1 second"),
        Effect.provideService(RunsHealth, health),
        Effect.catchAllDefect(() => Effect.sync(() => void (unsure = true)))
      )
    const execute = ({ attempt, runId }: { readonly runId: string; readonly attempt: number }) =>
      // Executed by its key itself (the run id is a hash already), not a hash of it.
      engine.execute(RunWorkflow, { executionId: executionIdOf({ runId, attempt }), payload: { runId, attempt } }).pipe(
        Effect.exit,
        Effect.flatMap((exit) => {
          if (Exit.isSuccess(exit) || Exit.isInterrupted(exit)) return Effect.void
          const why = Cause.squash(exit.cause)
          return (why as { readonly name?: unknown }).name === takenOverName
            ? options.say(`✘ run ${runId} was taken over by another runner (this one was silent too long): it stopped here, recording nothing more`)
            : Effect.zipRight(options.say(`✘ run ${runId} stopped before its end (${why}): it is taken up again`), release(runId))
        }),
        Effect.ensuring(Effect.zipRight(Effect.sync(() => inEngine.delete(runId)), Queue.offer(freed, undefined))),
        FiberSet.run(executions)
      )
    const start = (runs: ReadonlyArray<{ readonly runId: string; readonly attempt: number }>) =>
      Effect.forEach(runs, (run) => {
        if (inEngine.has(run.runId)) return Effect.void
        inEngine.add(run.runId)
        return execute(run)
      }, { discard: true })
    const once = Effect.gen(function*() {
      if (Option.isSome(yield* health.failing)) {
        yield* health.writable
        unsure = true
      }
      if (unsure) {
        unsure = false
        yield* start(yield* store.held(options.runner))
      }
      const room = options.backlog - (inEngine.size - options.waiting.size())
      if (room <= 0) return yield* Effect.raceFirst(Queue.take(freed), Queue.take(options.waiting.roomMade))
      const claimed = yield* store.claim(options.runner, Math.min(room, 256), options.takeOver)
      if (claimed.length === 0) return yield* idle
      yield* start(claimed)
    })
    // Bounded even when the runs wait for a database that refuses writes.
    yield* Effect.addFinalizer(() => atMost(FiberSet.awaitEmpty(executions), stopGrace))
    yield* Effect.forkScoped(Effect.forever(Effect.catchAllCause(once, () =>
      // A claim may have been committed though its answer was lost.
      Effect.zipRight(Effect.sync(() => void (unsure = true)), Effect.sleep("1 second")))))
  })
