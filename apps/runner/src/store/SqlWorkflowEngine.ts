/**
 * A `WorkflowEngine` of `@effect/workflow` on the runs' database: each execution runs in this
 * process, and each activity's result is journaled (`xr_journal`, group-committed with the
 * runs' other writes) before the workflow goes on. An execution started again (after a stop or
 * a crash) replays the recorded results instead of running those
 * activities again; an activity that ended in a defect or was interrupted is not recorded, so
 * it runs again.
 *
 * An execution that succeeded is done: its journal is deleted, and the same execution started
 * again would run from the start (its caller keeps what ran, and does not start it again).
 *
 * It is the embedded database's engine: one runner, which starts each execution once (the
 * handoff, `Engine.handOff`). It keeps no shards, mailboxes or messages: `@effect/cluster`'s
 * engine on the same SQLite spends 2.2–3.2× this engine's CPU a run (`pnpm bench`,
 * `BENCH_ONLY=engines`), a stored request and reply per activity, each its own transaction,
 * where this writes one journal row per activity, committed in batches.
 *
 * Durable deferreds are journaled too; a durable clock's wait is kept in memory, so it starts
 * over when its execution does.
 *
 * @since 0.3.0
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Activity from "@effect/workflow/Activity"
import * as Workflow from "@effect/workflow/Workflow"
import * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberMap from "effect/FiberMap"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { RunsHealth, RunsSql, RunsWrites } from "./Database.js"
import * as Persistently from "./internal/persistently.js"

/** A recorded exit: its values as the activity's (or deferred's) schemas encode them. */
const RecordedExit = Schema.parseJson(Schema.Exit({ success: Schema.Unknown, failure: Schema.Unknown, defect: Schema.Defect }))
const encodeExit = Schema.encode(RecordedExit)
/** A success is written as `Schema.Exit` encodes it, without going through the schema (one per activity). */
const exitText = (exit: Exit.Exit<unknown, unknown>): Effect.Effect<string> =>
  Exit.isSuccess(exit) ? Effect.succeed(JSON.stringify({ _tag: "Success", value: exit.value })) : Effect.orDie(encodeExit(exit))
const decodeExit = Schema.decode(RecordedExit)

/** Only what would be the same if run again is recorded: a success or an error, not a defect or an interruption. */
const recordable = (exit: Exit.Exit<unknown, unknown>) => Exit.isSuccess(exit) || !Cause.isDie(exit.cause) && !Cause.isInterrupted(exit.cause)

interface Registered {
  readonly execute: (payload: object, executionId: string) => Effect.Effect<unknown, unknown, WorkflowEngine.WorkflowInstance | WorkflowEngine.WorkflowEngine>
}

interface Execution {
  readonly workflow: Workflow.Any
  readonly payload: object
  /** The journal's entries of the execution (read when it starts, then kept as they are written). */
  readonly journal: Map<string, string>
  instance: WorkflowEngine.WorkflowInstance["Type"]
  fiber: Fiber.RuntimeFiber<Workflow.Result<unknown, unknown>> | undefined
}

/**
 * The engine on an SQL client, writing through `write` (a group commit). Executions run in the
 * scope: closing it interrupts those still running (they resume from their journal later).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (
  sql: SqlClient.SqlClient,
  write: <A>(effect: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
): Effect.Effect<WorkflowEngine.WorkflowEngine["Type"], SqlError, Scope.Scope | RunsHealth> =>
  Effect.gen(function*() {
    // Its reads and writes wait while the database refuses writes (a full disk), then go on.
    const health = yield* RunsHealth
    const persistently = <A, E>(effect: Effect.Effect<A, E>) => Effect.provideService(Persistently.persistently(effect), RunsHealth, health)
    const scope = yield* Effect.scope
    const workflows = new Map<string, Registered>()
    const executions = new Map<string, Execution>()
    const clocks = yield* FiberMap.make<string>()

    const record = (executionId: string, entry: string, exit: Exit.Exit<unknown, unknown>) =>
      Effect.gen(function*() {
        const text = yield* exitText(exit)
        yield* persistently(write(sql`INSERT INTO xr_journal (execution_id, entry, exit) VALUES (${executionId}, ${entry}, ${text})
          ON CONFLICT (execution_id, entry) DO NOTHING`))
        return text
      })
    const recorded = (execution: Execution, entry: string) => {
      const text = execution.journal.get(entry)
      return text === undefined ? Effect.succeed(undefined) : Effect.orDie(decodeExit(text))
    }

    /** Starts (or starts again) an execution's fiber: its journal read, then its workflow run against it. */
    const start = (executionId: string, execution: Execution, registered: Registered) =>
      Effect.gen(function*() {
        const instance = WorkflowEngine.WorkflowInstance.initial(execution.workflow, executionId)
        instance.interrupted = execution.instance.interrupted
        execution.instance = instance
        const load = Effect.gen(function*() {
          const rows = yield* persistently(sql<{ entry: string; exit: string }>`SELECT entry, exit FROM xr_journal WHERE execution_id = ${executionId}`)
          for (const row of rows) execution.journal.set(row.entry, row.exit)
        })
        execution.fiber = yield* Effect.zipRight(load, registered.execute(execution.payload, executionId)).pipe(
          Effect.onExit(() => {
            if (!instance.interrupted) return Effect.void
            instance.suspended = false
            return Effect.withFiberRuntime<void>((fiber) => Effect.interruptible(Fiber.interrupt(fiber)))
          }),
          Workflow.intoResult,
          Effect.provideService(WorkflowEngine.WorkflowInstance, instance),
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine),
          // A completed execution is forgotten (its caller does not start it again), and once it
          // succeeded so is its journal (what it did is its caller's to keep); a suspended one
          // stays, to be resumed.
          Effect.onExit((exit) =>
            Effect.gen(function*() {
              if (Exit.isSuccess(exit) && exit.value._tag === "Suspended") return
              if (executions.get(executionId) === execution) executions.delete(executionId)
              if (Exit.isSuccess(exit) && exit.value._tag === "Complete" && Exit.isSuccess(exit.value.exit)) {
                yield* Effect.ignore(write(sql`DELETE FROM xr_journal WHERE execution_id = ${executionId}`))
              }
            })
          ),
          Effect.forkIn(scope)
        )
      })

    const resume = (executionId: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const execution = executions.get(executionId)
        if (execution === undefined) return Effect.void
        const exit = execution.fiber?.unsafePoll()
        // Running, or completed: nothing to resume.
        if (execution.fiber !== undefined && (exit === null || exit === undefined || Exit.isSuccess(exit) && exit.value._tag === "Complete")) {
          return Effect.void
        }
        const registered = workflows.get(execution.workflow.name)
        return registered === undefined ? Effect.void : start(executionId, execution, registered)
      })

    const engine: WorkflowEngine.WorkflowEngine["Type"] = WorkflowEngine.makeUnsafe({
      register: (workflow, execute) => Effect.sync(() => void workflows.set(workflow.name, { execute })),
      execute: (workflow, options) =>
        Effect.gen(function*() {
          const registered = workflows.get(workflow.name)
          if (registered === undefined) return yield* Effect.dieMessage(`the workflow ${workflow.name} is not registered`)
          let execution = executions.get(options.executionId)
          if (execution === undefined) {
            execution = {
              workflow,
              payload: options.payload,
              journal: new Map(),
              instance: WorkflowEngine.WorkflowInstance.initial(workflow, options.executionId),
              fiber: undefined
            }
            executions.set(options.executionId, execution)
            yield* start(options.executionId, execution, registered)
          }
          if (options.discard) return undefined as never
          return (yield* Fiber.join(execution.fiber!)) as never
        }),
      poll: (_workflow, executionId) =>
        Effect.suspend(() => {
          const exit = executions.get(executionId)?.fiber?.unsafePoll()
          return exit === null || exit === undefined ? Effect.succeed(undefined) : exit
        }),
      interrupt: (_workflow, executionId) =>
        Effect.suspend(() => {
          const execution = executions.get(executionId)
          if (execution === undefined) return Effect.void
          execution.instance.interrupted = true
          return execution.fiber === undefined ? Effect.void : Effect.asVoid(Fiber.interrupt(execution.fiber))
        }),
      resume: (_workflow, executionId) => resume(executionId),
      activityExecute: (activity: Activity.Any, attempt: number) =>
        Effect.gen(function*() {
          const instance = yield* WorkflowEngine.WorkflowInstance
          const execution = executions.get(instance.executionId)
          if (execution === undefined) return yield* Effect.dieMessage(`activity ${activity.name} outside of its execution`)
          const entry = `activity/${activity.name}/${attempt}`
          const before = yield* recorded(execution, entry)
          if (before !== undefined) return new Workflow.Complete({ exit: before })
          const activityInstance = WorkflowEngine.WorkflowInstance.initial(instance.workflow, instance.executionId)
          activityInstance.interrupted = instance.interrupted
          const result = yield* activity.executeEncoded.pipe(Workflow.intoResult, Effect.provideService(WorkflowEngine.WorkflowInstance, activityInstance))
          if (result._tag === "Complete" && recordable(result.exit)) {
            execution.journal.set(entry, yield* record(instance.executionId, entry, result.exit))
          }
          return result
        }),
      deferredResult: (deferred) =>
        Effect.gen(function*() {
          const instance = yield* WorkflowEngine.WorkflowInstance
          const execution = executions.get(instance.executionId)
          return execution === undefined ? undefined : yield* recorded(execution, `deferred/${deferred.name}`)
        }),
      deferredDone: (options) =>
        Effect.gen(function*() {
          const entry = `deferred/${options.deferredName}`
          const text = yield* record(options.executionId, entry, options.exit)
          const execution = executions.get(options.executionId)
          if (execution !== undefined && !execution.journal.has(entry)) execution.journal.set(entry, text)
          yield* resume(options.executionId)
        }),
      scheduleClock: (workflow, options) =>
        engine.deferredDone(options.clock.deferred, {
          workflowName: workflow.name,
          executionId: options.executionId,
          deferredName: options.clock.deferred.name,
          exit: Exit.void
        }).pipe(
          Effect.delay(options.clock.duration),
          FiberMap.run(clocks, `${options.executionId}/${options.clock.name}`, { onlyIfMissing: true }),
          Effect.asVoid
        )
    })
    return engine
  })

/**
 * The engine on the runs' database.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<WorkflowEngine.WorkflowEngine, SqlError, RunsSql | RunsWrites | RunsHealth> = Layer.scoped(
  WorkflowEngine.WorkflowEngine,
  Effect.gen(function*() {
    const writes = yield* RunsWrites
    return yield* make(yield* RunsSql, writes.write)
  })
)
