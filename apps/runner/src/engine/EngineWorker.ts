/**
 * The engine's thread of `serve`: a Node worker thread running `EngineHost` with its own
 * runtime (components, connections, database clients, tracer), so that the engine's runs take
 * one core and the thread receiving deliveries keeps the other. `start` (in the serving thread)
 * starts it with a `Spec` (all it needs, as data: the workflow files are read and checked again
 * there) and bridges its messages: its lines to `Output`, the wake-ups of the handoff, its
 * readiness, its failures (a damaged database keeps its exit code), each run's end, and a
 * graceful stop (the triggers it keeps disabled as the last runner, or left to the others).
 * Run as the worker's entry, this module hosts the engine.
 *
 * @since 0.3.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Connections, FilePolicy, RateLimiter } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as LogLevel from "effect/LogLevel"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { readlinkSync } from "node:fs"
import { setPriority } from "node:os"
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"
import { layer as componentsLayer } from "../components/Components.js"
import * as Database from "../store/Database.js"
import * as AcknowledgingFirst from "./AcknowledgingFirst.js"
import * as EngineGates from "./EngineGates.js"
import type * as Engine from "./Engine.js"
import * as EngineHost from "./EngineHost.js"
import type { PollState } from "./PollingTrigger.js"
import { DamagedData, ServeProblem } from "../Errors.js"
import { atMost } from "./internal/atMost.js"
import { Output } from "../Output.js"
import type * as Interpreter from "./Interpreter.js"
import * as WorkflowFiles from "../workflow/WorkflowFiles.js"

/**
 * What the engine's thread needs, as data.
 *
 * @since 0.3.0
 * @category models
 */
export interface Spec {
  readonly runner: string
  readonly workflows: ReadonlyArray<{ readonly name: string; readonly file: string; readonly publicUrl: string | undefined }>
  readonly inputs: ReadonlyArray<readonly [string, string]>
  /** The connection values by component (the sandbox's, or the file's and the environment's). */
  readonly connections: Readonly<Record<string, unknown>>
  readonly rateLimits: boolean
  readonly location: { readonly _tag: "Embedded"; readonly dataDir: string } | { readonly _tag: "Postgres"; readonly url: string }
  readonly cluster: { readonly host: string; readonly port: number; readonly shardLockExpirationMillis: number }
  readonly concurrency: number
  readonly pollIntervalMillis: number | undefined
  readonly otlpEndpoint: string | undefined
  readonly version: string
  /** Where file inputs and downloads may reach (the command's `--files-dir`, `--allow-private-networks`, the sandbox). */
  readonly filePolicy: FilePolicy.Policy
  /** Whether the serving thread is told of each run's end (`run --serve` waits on it). */
  readonly reportsFinished: boolean
  /** A test's full disk, shared with the serving thread (`Database.WriteFault`'s buffer). */
  readonly writeFault?: SharedArrayBuffer | undefined
}

type ToWorker =
  | { readonly _tag: "wake" }
  | { readonly _tag: "busy" }
  | { readonly _tag: "stop" }
  | { readonly _tag: "rateLimit"; readonly request: EngineGates.Request }
type FromWorker =
  | { readonly _tag: "say"; readonly lines: ReadonlyArray<string> }
  | { readonly _tag: "ready" }
  | { readonly _tag: "enableFailed"; readonly workflow: string; readonly message: string }
  | { readonly _tag: "polling"; readonly workflow: string; readonly state: PollState; readonly message?: string | undefined }
  | { readonly _tag: "finished"; readonly run: { readonly runId: string; readonly eventId: string; readonly workflow: string }; readonly result: Interpreter.RunResult }
  | { readonly _tag: "failed"; readonly error: { readonly _tag: string; readonly message: string; readonly file?: string } }
  | { readonly _tag: "stopped" }
  | { readonly _tag: "storage"; readonly failing: string | undefined }
  | { readonly _tag: "taken"; readonly id: number; readonly taken: RateLimiter.Taken }

/**
 * The engine's thread, as the serving thread sees it.
 *
 * @since 0.3.0
 * @category models
 */
export interface Handle {
  /** A run was accepted: the handoff looks at once. */
  readonly wake: Effect.Effect<void>
  /** Succeeds once the engine runs, or fails with why it could not start. */
  readonly ready: Effect.Effect<void, ServeProblem | DamagedData>
  /** Fails when the dynamic webhook of this workflow could not be enabled here. */
  readonly enableFailed: (workflow: string) => Effect.Effect<never, ServeProblem>
  /** Why the engine's writes to the runs' database are refused now; none while they succeed. */
  readonly storageFailing: Effect.Effect<Option.Option<string>>
}

/** The worker's script: this module, beside the serving code (tsc's output or the bundle). */
const script = new URL("./EngineWorker.js", import.meta.url)

/**
 * Starts the engine's thread; it stops (gracefully, then at most 15 s later for good) with the
 * scope.
 *
 * @since 0.3.0
 * @category constructors
 */
export const start = (
  spec: Spec,
  finished: Engine.Runs["finished"],
  /** The serving thread's rate limiter, on this thread's store (the embedded database). */
  gates?: EngineGates.EngineGates,
  /** Told when this runner starts or stops polling a workflow's trigger, or cannot poll it. */
  polling?: (workflow: string, state: PollState, message?: string) => void
): Effect.Effect<Handle, never, Output | Scope.Scope> =>
  Effect.gen(function*() {
    const output = yield* Output
    const ready = yield* Deferred.make<void, ServeProblem | DamagedData>()
    const stopped = yield* Deferred.make<void>()
    const failures = new Map<string, Deferred.Deferred<never, ServeProblem>>()
    const failureOf = (workflow: string) => {
      let failure = failures.get(workflow)
      if (failure === undefined) {
        failure = Deferred.unsafeMake<never, ServeProblem>(FiberId.none)
        failures.set(workflow, failure)
      }
      return failure
    }
    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => new Worker(script, { workerData: spec })),
      (worker) =>
        Effect.gen(function*() {
          worker.postMessage({ _tag: "stop" } satisfies ToWorker)
          // The engine's thread ends its runs and disables its triggers; at most 15 s.
          yield* atMost(Deferred.await(stopped), Duration.seconds(15))
          yield* Effect.promise(() => worker.terminate())
        })
    )
    const fork = (effect: Effect.Effect<unknown>) => Effect.runFork(effect)
    let wakePending = false
    let storageFailing = Option.none<string>()
    worker.on("message", (message: FromWorker) => {
      switch (message._tag) {
        case "say":
          return fork(Effect.forEach(message.lines, output.err, { discard: true }))
        case "ready":
          return fork(Deferred.succeed(ready, undefined))
        case "enableFailed":
          return fork(Deferred.fail(failureOf(message.workflow), new ServeProblem({ message: message.message })))
        case "polling":
          return polling?.(message.workflow, message.state, message.message)
        case "finished":
          return fork(finished === undefined ? Effect.void : finished(message.run, message.result))
        case "failed": {
          const error = message.error._tag === "DamagedData"
            ? new DamagedData({ file: message.error.file ?? "", message: message.error.message })
            : new ServeProblem({ message: message.error.message })
          return fork(Effect.zipRight(Deferred.fail(ready, error), Deferred.succeed(stopped, undefined)))
        }
        case "stopped":
          return fork(Deferred.succeed(stopped, undefined))
        case "storage":
          return void (storageFailing = Option.fromNullable(message.failing))
        case "taken":
          return gates?.taken(message.id, message.taken)
      }
    })
    gates?.connect((request) => worker.postMessage({ _tag: "rateLimit", request } satisfies ToWorker))
    worker.on("error", (error) =>
      fork(Effect.zipRight(
        Deferred.fail(ready, new ServeProblem({ message: `the engine's thread failed: ${error.message}` })),
        Deferred.succeed(stopped, undefined)
      )))
    worker.on("exit", () => {
      gates?.disconnect()
      fork(Deferred.succeed(stopped, undefined))
    })
    // The embedded engine's handoff holds new runs while this thread is busy acknowledging.
    let accepted = false
    if (spec.location._tag === "Embedded") {
      const acceptedSinceAsked = () => {
        const was = accepted
        accepted = false
        return was
      }
      yield* Effect.forkScoped(AcknowledgingFirst.watch(Effect.sync(() => worker.postMessage({ _tag: "busy" } satisfies ToWorker)), acceptedSinceAsked))
    }
    return {
      // One wake-up per turn of the event loop, however many runs were accepted in it.
      wake: Effect.sync(() => {
        accepted = true
        if (wakePending) return
        wakePending = true
        setImmediate(() => {
          wakePending = false
          worker.postMessage({ _tag: "wake" } satisfies ToWorker)
        })
      }),
      ready: Deferred.await(ready),
      enableFailed: (workflow) => Deferred.await(failureOf(workflow)),
      storageFailing: Effect.sync(() => storageFailing)
    }
  })

/** The worker's program: the engine hosted until the serving thread says stop. */
const hostInWorker = (
  spec: Spec,
  post: (message: FromWorker) => void,
  stop: Deferred.Deferred<void>,
  wake: Queue.Queue<void>,
  acknowledgingFirst: AcknowledgingFirst.AcknowledgingFirst
) =>
  Effect.gen(function*() {
    const inputs = new Map(spec.inputs)
    const workflows: Array<EngineHost.Hosted> = []
    for (const served of spec.workflows) {
      const workflow = yield* Effect.mapError(WorkflowFiles.loadWorkflow(served.file, inputs), (error) => new ServeProblem({ message: error.message }))
      workflows.push({ name: served.name, workflow, publicUrl: served.publicUrl === undefined ? undefined : new URL(served.publicUrl) })
    }
    const location: Database.Location = spec.location._tag === "Embedded" ? spec.location : { _tag: "Postgres", url: Redacted.make(spec.location.url) }
    const hosting = yield* EngineHost.host({
      runner: spec.runner,
      workflows,
      location,
      cluster: { host: spec.cluster.host, port: spec.cluster.port, shardLockExpiration: Duration.millis(spec.cluster.shardLockExpirationMillis) },
      concurrency: spec.concurrency,
      pollInterval: spec.pollIntervalMillis === undefined ? undefined : Duration.millis(spec.pollIntervalMillis),
      wake,
      acknowledgingFirst,
      writeFault: spec.writeFault === undefined ? undefined : Database.writeFault(spec.writeFault),
      reports: {
        ready: Effect.sync(() => post({ _tag: "ready" })),
        enableFailed: (workflow, message) => Effect.sync(() => post({ _tag: "enableFailed", workflow, message })),
        polling: (workflow, state, message) => Effect.sync(() => post({ _tag: "polling", workflow, state, message })),
        finished: spec.reportsFinished ? (run, result) => Effect.sync(() => post({ _tag: "finished", run, result })) : undefined,
        storage: (failing) => Effect.sync(() => post({ _tag: "storage", failing: Option.getOrUndefined(failing) }))
      }
    }).pipe(Effect.forkScoped)
    yield* Effect.raceFirst(Deferred.await(stop), Fiber.join(hosting))
  }).pipe(Effect.scoped)

/**
 * On Linux, this thread (a task of its own there) yields the CPU to the serving thread when both
 * want it: acknowledging deliveries comes first, the runs catch up after (nice 10; raising one's
 * own niceness needs no privilege). Elsewhere, or where it is not allowed, nothing changes.
 */
const yieldToServing = () => {
  if (process.platform !== "linux") return
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").at(-1))
    if (Number.isInteger(thread) && thread !== process.pid) setPriority(thread, 10)
  } catch {
    // Not this system's to give: the threads share the CPU as equals.
  }
}

if (!isMainThread && parentPort !== null && (workerData as Spec | undefined)?.runner !== undefined) {
  const spec = workerData as Spec
  yieldToServing()
  const port = parentPort
  // The lines said within one turn of the event loop go as one message (a busy engine says
  // three per run); anything else posted goes after them.
  let lines: Array<string> = []
  const flush = () => {
    if (lines.length === 0) return
    port.postMessage({ _tag: "say", lines } satisfies FromWorker)
    lines = []
  }
  const say = (line: string) =>
    Effect.sync(() => {
      if (lines.length === 0) setImmediate(flush)
      lines.push(line)
    })
  const post = (message: FromWorker) => {
    flush()
    port.postMessage(message)
  }
  const stop = Deferred.unsafeMake<void>(FiberId.none)
  /** The embedded database's rate limits: this thread's store, for both threads' requests. */
  const rateLimits = RateLimiter.memoryStore()
  const wake = Effect.runSync(Queue.sliding<void>(1))
  const acknowledgingFirst = AcknowledgingFirst.make()
  port.on("message", (message: ToWorker) => {
    switch (message._tag) {
      case "wake":
        return void Effect.runFork(Queue.offer(wake, undefined))
      case "busy":
        return void Effect.runSync(acknowledgingFirst.busy)
      case "rateLimit":
        // The serving thread's requests take and give back their tokens here, with the runs' steps'.
        return void Effect.runFork(EngineGates.serve(rateLimits, message.request, (id, taken) => post({ _tag: "taken", id, taken })))
      case "stop":
        return void Effect.runFork(Deferred.succeed(stop, undefined))
    }
  })
  const tracing = Effect.promise(() => import("../serve/Tracing.js")).pipe(
    Effect.map((Tracing) => Tracing.layer(spec.otlpEndpoint, spec.version))
  )
  const output = Layer.succeed(Output, { out: say, err: say })
  // On PostgreSQL, the runners' rate limits are kept together in it; on the embedded database,
  // in this thread's store, which the serving thread's requests use too.
  const limiters = spec.location._tag === "Postgres"
    ? Layer.unwrapEffect(Effect.map(Effect.promise(() => import("../store/SharedRateLimiter.js")), (SharedRateLimiter) =>
      SharedRateLimiter.layer(Redacted.make((spec.location as { readonly url: string }).url), say)))
    : Layer.succeed(RateLimiter.RateLimiters, RateLimiter.make(rateLimits))
  const program = Effect.flatMap(tracing, (tracer) =>
    hostInWorker(spec, post, stop, wake, acknowledgingFirst).pipe(
      // The engine's own logs (a runner listening, shards moving, no runner while one stops) are
      // not the runner's output; its errors are.
      Logger.withMinimumLogLevel(LogLevel.Error),
      Effect.provide(Connections.layer(spec.connections).pipe(Layer.provide(limiters))),
      Effect.provide(FilePolicy.layer(spec.filePolicy)),
      Effect.provide(tracer),
      Effect.provide(Layer.mergeAll(componentsLayer({ rateLimits: spec.rateLimits }), output, UndiciHttpClient.layer, NodeContext.layer))
    ))
  Effect.runPromiseExit(program).then((exit) => {
    if (Exit.isFailure(exit)) {
      const error = exit.cause._tag === "Fail" ? exit.cause.error as { _tag: string; message: string; file?: string } : { _tag: "ServeProblem", message: String(exit.cause) }
      post({ _tag: "failed", error: { _tag: error._tag, message: error.message, ...(error.file === undefined ? {} : { file: error.file }) } })
    }
    post({ _tag: "stopped" })
  })
}
