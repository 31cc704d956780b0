/**
 * The durable engine of `serve`: `@effect/workflow` on `@effect/cluster`. Each accepted event
 * is a run (`RunStore`), executed as the workflow `x-runner/run` keyed by the run and its
 * attempt (a redelivered event is the same run, so the same execution); each step is an
 * activity whose result the engine journals and never runs again once recorded.
 *
 * Deliveries are acknowledged once their run is committed in the store, not when the engine
 * takes them: a dispatcher hands waiting runs to the engine at the engine's pace (leased, so
 * that when a runner dies another dispatches what it had claimed), keeping at most a few times
 * `concurrency` runs in the engine; each runner runs at most `concurrency` runs at once.
 *
 * A step cut short after it may have sent a request that creates or changes something (its
 * write marker committed, no result) is not repeated blindly: its action's `reconcile` looks
 * for what the first attempt created; without one the step and the run end `unknown`, for a
 * person to decide (`x-runner runs retry`).
 *
 * One runner (the embedded SQLite default) is a single-runner cluster; several runners on one
 * PostgreSQL are a cluster over sockets: shards spread over them, and the shards of a runner
 * that stops refreshing its locks are taken over by the others (`shardLockExpiration`).
 *
 * @since 0.3.0
 */
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import * as ClusterWorkflowEngine from "@effect/cluster/ClusterWorkflowEngine"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as SingleRunner from "@effect/cluster/SingleRunner"
import type * as MessageStorage from "@effect/cluster/MessageStorage"
import type * as Sharding from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import type * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import { type Connections, ConnectorError, Executor, WriteGuard } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Setup from "./Setup.js"
import { ServeProblem } from "./Errors.js"
import * as References from "./References.js"
import * as Run from "./Run.js"
import * as RunStore from "./RunStore.js"
import type * as WorkflowFile from "./Workflow.js"

/**
 * A run's end, as the engine records it.
 *
 * @since 0.3.0
 * @category models
 */
export const RunEnd = Schema.Literal("succeeded", "failed", "unknown")

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
  idempotencyKey: ({ attempt, runId }) => `${runId}/${attempt}`
})

/** A step's outcome as the engine journals it. */
const StepOutcome = Schema.Struct({
  status: Schema.Literal("succeeded", "failed", "unknown"),
  input: Schema.optional(Schema.Unknown),
  output: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.Struct({ tag: Schema.String, message: Schema.String })),
  startedAt: Schema.Number,
  durationMs: Schema.Number
})
type StepOutcome = typeof StepOutcome.Type

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
  /** Told of each run's end on this runner (`run --serve` waits on it). */
  readonly finished?: ((run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Run.RunResult) => Effect.Effect<void>) | undefined
}

const mark = (status: string) => status === "succeeded" ? "✔" : status === "skipped" ? "–" : "✘"

/** Reads and writes of the store a run cannot go on without: retried a while, then the run dies (and resumes at the next start). */
const persistently = <A, E>(effect: Effect.Effect<A, E>) =>
  effect.pipe(Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")), Schedule.upTo("1 minute"))), Effect.orDie)

/** The secret parameters of a step are never stored: their values are replaced. */
const scrubbed = (checked: WorkflowFile.CheckedTask, input: unknown): unknown => {
  if (typeof input !== "object" || input === null) return input
  const props = checked.prepared.action.props as Record<string, { readonly secret?: boolean }>
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, props[key]?.secret === true ? "[secret]" : value]))
}

/** One step as an activity: its recorded result when it has one, else it runs (unless a write of an earlier attempt may have gone). */
const stepActivity = (
  runs: Runs,
  store: RunStore.RunStore,
  runId: string,
  index: number,
  checked: WorkflowFile.CheckedTask,
  scope: ReadonlyMap<string, unknown>
) =>
  Activity.make({
    name: `${index}/${checked.step.name}`,
    success: StepOutcome,
    execute: Effect.gen(function*() {
      const { name, type } = checked.step
      yield* Effect.annotateCurrentSpan({ "x-runner.step.name": name, "x-runner.step.type": type, "x-runner.step.index": index })
      const recorded = yield* persistently(store.step(runId, index))
      if (Option.isSome(recorded) && recorded.value.status !== "running") {
        // Finished and stored before a stop, its result not yet journaled by the engine.
        const step = recorded.value
        return {
          status: step.status === "succeeded" ? "succeeded" : step.status === "unknown" ? "unknown" : "failed",
          input: step.input,
          output: step.output,
          error: step.error,
          startedAt: step.startedAt ?? Date.now(),
          durationMs: step.durationMs ?? 0
        } satisfies StepOutcome
      }
      const resolved = checked.decoded !== undefined ? Either.right(checked.parameters) : References.resolve(checked.parameters, scope)
      const shownInput = scrubbed(checked, Either.getOrElse(resolved, () => checked.parameters))
      if (Option.isSome(recorded) && recorded.value.writeSentAt !== undefined) {
        // Cut short after it may have sent a write: found again, or reported; never sent blindly.
        const since = recorded.value.writeSentAt
        const startedAt = recorded.value.startedAt ?? since
        const unknown = (why: string) => ({
          status: "unknown",
          input: shownInput,
          error: {
            tag: "OutcomeUnknown",
            message: `step "${name}" (${type}) was stopped after it may have sent a request that creates or changes something ` +
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
          yield* runs.say(`  ↻ ${name}: found what its attempt cut short created; not sent again`)
          return { status: "succeeded", input: shownInput, output: found.right.value, startedAt, durationMs: Date.now() - startedAt } satisfies StepOutcome
        }
        // Nothing was created: running it again creates nothing twice.
      }
      // Before its first write is sent, the step's marker is committed.
      let marked = false
      const guard: WriteGuard.Guard = {
        beforeWrite: () =>
          marked ? Effect.void : store.writeSent(runId, { index, name, type }).pipe(
            Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")), Schedule.upTo("1 minute"))),
            Effect.mapBoth({
              onFailure: (error) =>
                new ConnectorError.UpstreamUnavailable({
                  message: `x-runner could not record that step "${name}" may send a write (${error.message}): the request was not sent`
                }),
              onSuccess: () => void (marked = true)
            })
          )
      }
      const result = yield* Effect.provideService(Run.runStep(runs.executor, checked, scope), WriteGuard.WriteGuard, guard)
      return {
        status: result.status === "succeeded" ? "succeeded" : "failed",
        input: shownInput,
        output: result.output,
        error: result.error,
        startedAt: Date.now() - (result.durationMs ?? 0),
        durationMs: result.durationMs ?? 0
      } satisfies StepOutcome
    }).pipe(
      Effect.tap((outcome) => Effect.annotateCurrentSpan("x-runner.step.status", outcome.status)),
      Effect.withSpan("x-runner.step")
    )
  })

/**
 * The workflow's body, registered with the engine.
 *
 * @since 0.3.0
 * @category layers
 */
export const runsLayer = (runs: Runs) => {
  // At most `concurrency` runs at once on this runner; the others wait their turn in the engine.
  const permits = Effect.unsafeMakeSemaphore(runs.concurrency)
  return RunWorkflow.toLayer(({ attempt, runId }) =>
    permits.withPermits(1)(Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const loaded = yield* persistently(store.load(runId))
      if (Option.isNone(loaded)) return "failed" as const
      const { event, outputs, run } = loaded.value
      // An attempt a retry replaced: the newer one runs.
      if (run.attempt !== attempt) return "failed" as const
      yield* Effect.annotateCurrentSpan({ "x-runner.run.id": runId, "x-runner.workflow": run.workflow, "x-runner.event.id": run.eventId, "x-runner.run.attempt": attempt })
      const workflow = runs.workflows.get(run.workflow)
      if (workflow === undefined) {
        yield* persistently(store.runFinished(runId, attempt, "failed", undefined))
        yield* runs.say(`✘ run ${runId}: the workflow ${run.workflow} is not served here`)
        return "failed" as const
      }
      yield* persistently(store.runStarted(runId, attempt, runs.runner))
      yield* runs.say(`▶ event ${run.eventId} (run ${runId})`)
      const scope = new Map<string, unknown>([["inputs", workflow.inputs], ["trigger", event]])
      workflow.tasks.forEach((task, index) => {
        if (outputs.has(index)) scope.set(task.step.name, outputs.get(index))
      })
      const steps: Array<Run.StepResult> = []
      let end: "succeeded" | "failed" | "unknown" = "succeeded"
      let failedStep: string | undefined
      for (let index = run.fromStep; index < workflow.tasks.length; index++) {
        const checked = workflow.tasks[index]!
        const { name, type } = checked.step
        if (end !== "succeeded") {
          steps.push({ name, type, status: "skipped" })
          yield* persistently(store.stepFinished(runId, { index, name, type, status: "skipped" }))
          continue
        }
        const outcome = yield* stepActivity(runs, store, runId, index, checked, scope)
        yield* persistently(store.stepFinished(runId, { index, name, type, ...outcome }))
        steps.push({
          name,
          type,
          status: outcome.status === "succeeded" ? "succeeded" : "failed",
          durationMs: outcome.durationMs,
          ...(outcome.output === undefined ? {} : { output: outcome.output }),
          ...(outcome.error === undefined ? {} : { error: outcome.error })
        })
        yield* runs.say(`  ${mark(outcome.status)} ${name} ${outcome.status}${outcome.error === undefined ? "" : `: ${outcome.error.tag}: ${outcome.error.message}`}`)
        if (outcome.status === "succeeded") scope.set(name, outcome.output)
        else {
          end = outcome.status
          failedStep = name
        }
      }
      yield* persistently(store.runFinished(runId, attempt, end, failedStep))
      yield* Effect.annotateCurrentSpan("x-runner.run.status", end)
      yield* runs.say(`■ event ${run.eventId} ${end} (run ${runId})`)
      if (runs.finished !== undefined) {
        yield* runs.finished({ runId, eventId: run.eventId, workflow: run.workflow }, {
          status: end === "succeeded" ? "succeeded" : "failed",
          steps
        })
      }
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
 * The engine on the database: a single runner on the embedded database, a cluster of runners
 * over sockets on PostgreSQL.
 *
 * @since 0.3.0
 * @category layers
 */
export const engineLayer = (
  location: Setup.Location,
  cluster: ClusterOptions
): Layer.Layer<WorkflowEngine.WorkflowEngine | Sharding.Sharding, ServeProblem, SqlClient.SqlClient> => {
  const shardingConfig = {
    // One process has nothing to serialize for: messages stay objects.
    simulateRemoteSerialization: false,
    entityMessagePollInterval: Duration.seconds(1),
    shardLockExpiration: cluster.shardLockExpiration,
    shardLockRefreshInterval: Duration.divide(Duration.decode(cluster.shardLockExpiration), 4).pipe(Option.getOrElse(() => Duration.seconds(1))),
    refreshAssignmentsInterval: Duration.seconds(1),
    // At a stop, a run between steps is not waited for long: it resumes from its journal at the
    // next start (or on another runner), as after a crash.
    entityTerminationTimeout: Duration.seconds(3)
  }
  const sharding = location._tag === "Embedded"
    ? SingleRunner.layer({ runnerStorage: "memory", shardingConfig })
    : NodeClusterSocket.layer({
      storage: "sql",
      shardingConfig: {
        ...shardingConfig,
        simulateRemoteSerialization: true,
        runnerAddress: Option.some(RunnerAddress.make(cluster.host, cluster.port))
      }
    })
  return ClusterWorkflowEngine.layer.pipe(
    Layer.provideMerge(sharding as Layer.Layer<Sharding.Sharding | MessageStorage.MessageStorage, unknown, SqlClient.SqlClient>),
    // Runners started together on an empty PostgreSQL would race creating the engine's tables.
    Layer.provide(location._tag === "Embedded" ? Layer.empty : engineTablesCreated),
    Layer.mapError((error) => new ServeProblem({ message: `the workflow engine could not start: ${String((error as { message?: string }).message ?? error)}` }))
  )
}

/** The advisory lock under which runners create the engine's tables, one at a time ("xr-cluster"). */
const engineSchemaLock = 0x78_72_2d_63_6c_75

/**
 * The engine's tables, created by one runner at a time: its storage layers built once (their
 * migrations run) while this runner holds a PostgreSQL advisory lock on a connection of its own.
 */
const engineTablesCreated: Layer.Layer<never, unknown, SqlClient.SqlClient> = Layer.effectDiscard(Effect.scoped(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const connection = yield* sql.reserve
  yield* Effect.acquireRelease(
    connection.execute(`SELECT pg_advisory_lock(${engineSchemaLock})`, [], undefined),
    () => Effect.ignore(connection.execute(`SELECT pg_advisory_unlock(${engineSchemaLock})`, [], undefined))
  )
  yield* Effect.scoped(Layer.build(Layer.mergeAll(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(Layer.provide(ShardingConfig.layer()))))
})))

/**
 * The dispatcher: hands waiting runs to the engine, keeping at most `backlog` runs in it. It
 * wakes when `wake` is offered (an event accepted here) and polls meanwhile (events accepted by
 * other runners, runs retried from the command line, leases of a runner that died).
 *
 * @since 0.3.0
 * @category constructors
 */
export const dispatch = (options: {
  readonly runner: string
  readonly backlog: number
  readonly wake: Queue.Queue<void>
  readonly pollInterval?: Duration.DurationInput
}): Effect.Effect<void, never, Scope.Scope | RunStore.RunStore | WorkflowEngine.WorkflowEngine | Connections.Connections> =>
  Effect.gen(function*() {
    const store = yield* RunStore.RunStore
    const idle = Effect.raceFirst(Queue.take(options.wake), Effect.sleep(options.pollInterval ?? "1 second"))
    const once = Effect.gen(function*() {
      const room = options.backlog - (yield* store.backlog)
      if (room <= 0) return yield* Effect.sleep("20 millis")
      const claimed = yield* store.claim(options.runner, Math.min(room, 256))
      if (claimed.length === 0) return yield* idle
      yield* Effect.forEach(
        claimed,
        ({ attempt, runId }) => Effect.zipRight(RunWorkflow.execute({ runId, attempt }, { discard: true }), store.dispatched(runId, attempt)),
        { concurrency: 16, discard: true }
      )
    })
    yield* Effect.forkScoped(Effect.forever(Effect.catchAll(once, () => Effect.sleep("1 second"))))
  })
