/**
 * What runs the engine's side of `serve`, in a thread of its own (`EngineWorker`): the engine and
 * its stores, the dispatcher, this runner's heartbeat, and the triggers it keeps (a dynamic
 * webhook registered, a polling trigger polled: on PostgreSQL, the runners' cluster's
 * singletons, each on one runner at a time; on the embedded database, this runner's). The
 * thread that receives deliveries (`Serve`) only commits runs and wakes the dispatcher:
 * acknowledging never waits for the CPU the runs take.
 *
 * @since 0.3.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type * as Sharding from "@effect/cluster/Sharding"
import * as Singleton from "@effect/cluster/Singleton"
import type { Connections } from "@x/core"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { Components } from "../components/Components.js"
import * as Database from "../store/Database.js"
import * as Engine from "./Engine.js"
import { type DamagedData, ServeProblem } from "../Errors.js"
import { Output } from "../Output.js"
import * as RunStore from "../store/RunStore.js"
import * as PollingTrigger from "./PollingTrigger.js"
import * as ScheduleTrigger from "./ScheduleTrigger.js"
import * as SqlWorkflowEngine from "../store/SqlWorkflowEngine.js"
import * as TriggerStore from "../store/TriggerStore.js"
import type * as Workflow from "../workflow/Workflow.js"

/**
 * A workflow the engine runs, and its trigger's public URL (a webhook's).
 *
 * @since 0.3.0
 * @category models
 */
export interface Hosted {
  readonly name: string
  readonly workflow: Workflow.Workflow
  readonly publicUrl: URL | undefined
}

/**
 * What the host tells the thread that started it.
 *
 * @since 0.3.0
 * @category models
 */
export interface Reports {
  /** The engine runs and the triggers' singletons are started. */
  readonly ready: Effect.Effect<void>
  /** A dynamic webhook this runner keeps could not be enabled. */
  readonly enableFailed: (workflow: string, message: string) => Effect.Effect<void>
  /** This runner started or stopped polling a polling trigger, or cannot poll it (with why). */
  readonly polling?: ((workflow: string, state: PollingTrigger.PollState, message?: string) => Effect.Effect<void>) | undefined
  /** The runs' database refuses writes (why), or takes them again (none). */
  readonly storage?: ((failing: Option.Option<string>) => Effect.Effect<void>) | undefined
  readonly finished: Engine.Runs["finished"]
}

/**
 * How often a runner says it is alive; one silent for three times that is counted gone.
 *
 * @since 0.3.0
 * @category constants
 */
export const heartbeatEvery = Duration.seconds(2)

/**
 * Hosts the engine until interrupted (its scope's end stops the triggers it keeps, as the last
 * runner or not).
 *
 * @since 0.3.0
 * @category constructors
 */
export const host = (options: {
  readonly runner: string
  readonly workflows: ReadonlyArray<Hosted>
  readonly location: Database.Location
  readonly cluster: Engine.ClusterOptions
  readonly concurrency: number
  readonly pollInterval?: Duration.Duration | undefined
  /** Offered when a run was accepted elsewhere in this process. */
  readonly wake: Queue.Queue<void>
  readonly reports: Reports
  /** A test's full disk (`Database.WriteFault`). */
  readonly writeFault?: Database.WriteFault | undefined
}): Effect.Effect<never, ServeProblem | DamagedData, Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const say = (yield* Output).err
    const { location, runner, wake } = options
    const embedded = location._tag === "Embedded"
    let stopping = false
    const waiting = yield* Engine.makeWaiting
    const runs: Engine.Runs = {
      runner,
      workflows: new Map(options.workflows.map((hosted) => [hosted.name, hosted.workflow])),
      executor,
      concurrency: options.concurrency,
      say,
      stopping: () => stopping,
      waiting,
      finished: options.reports.finished
    }
    const storeProblem = <E extends { readonly _tag: string; readonly message: string }>(error: E) =>
      error._tag === "StoreFailed" || error._tag === "SqlError" ? new ServeProblem({ message: error.message }) : error as Exclude<E, { readonly _tag: "StoreFailed" | "SqlError" }>
    // The stores first: this runner leaves (its heartbeat deleted) only once the engine stopped,
    // so that no other runner claims a run still running here.
    const stores = yield* Layer.build(
      Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
        Layer.provideMerge(Database.layer(location, { writeFault: options.writeFault })),
        Layer.mapError(storeProblem)
      )
    )
    const store = Context.get(stores, RunStore.RunStore)
    const triggers = Context.get(stores, TriggerStore.TriggerStore)
    const health = Context.get(stores, Database.RunsHealth)
    // Alive, for the other runners: they take over its runs and keep its triggers when it is gone.
    // A heartbeat is a write every few seconds: one refused tells that the database refuses writes.
    yield* triggers.heartbeat(runner).pipe(Effect.mapError(storeProblem))
    yield* Effect.forkScoped(Effect.repeat(
      Effect.catchAll(triggers.heartbeat(runner), (error) => health.refused(error.message)),
      Schedule.spaced(heartbeatEvery)
    ))
    yield* Effect.forkScoped(Stream.runForEach(Stream.drop(health.changes, 1), (failing) =>
      Effect.zipRight(
        say(Option.match(failing, {
          onNone: () => "✔ the runs' database takes writes again: the runs go on",
          onSome: (why) => `✘ the runs' database refuses writes (${why}): the runs wait until it takes them again`
        })),
        options.reports.storage?.(failing) ?? Effect.void
      )))
    yield* Effect.addFinalizer(() => Effect.ignore(triggers.leave(runner)))

    const engine = yield* Layer.build(
      Engine.runsLayer(runs).pipe(
        Layer.provideMerge(SqlWorkflowEngine.layer),
        Layer.provideMerge(Layer.succeedContext(stores)),
        Layer.mapError(storeProblem)
      )
    )
    yield* Engine.dispatch({
      runner,
      backlog: options.concurrency * 4,
      wake,
      // The embedded database has one runner: the runs of any other were the previous one's.
      takeOver: embedded ? "all others" : { aliveWithinMillis: Duration.toMillis(heartbeatEvery) * 3 },
      say,
      waiting
    }).pipe(Effect.provide(engine))
    yield* Effect.addFinalizer(() => Effect.sync(() => void (stopping = true)))
    const accept = (name: string, event: { readonly id: string; readonly output: unknown }) =>
      Effect.tap(store.accept(name, event), ({ fresh }) => fresh ? Queue.offer(wake, undefined) : Effect.void)

    // Each trigger is kept by one runner at a time: a dynamic webhook registered, a polling
    // trigger polled. On PostgreSQL they are the cluster's singletons: another runner takes over
    // when that one dies.
    const keepers: Array<{ readonly name: string; readonly keep: Effect.Effect<void, never, Components | Output | Connections.Connections | TriggerStore.TriggerStore | Scope.Scope> }> = []
    for (const hosted of options.workflows) {
      const checked = hosted.workflow.trigger!
      const kind = checked.prepared.trigger.kind
      if (kind === "POLLING") {
        const report = options.reports.polling
        keepers.push({
          name: `x-runner/poll/${hosted.name}`,
          keep: PollingTrigger.poll({
            name: hosted.name,
            checked,
            pollInterval: options.pollInterval,
            accept,
            report: report === undefined ? undefined : (state, message) => report(hosted.name, state, message)
          })
        })
      } else if (kind === "SCHEDULE") {
        const report = options.reports.polling
        keepers.push({
          name: `x-runner/schedule/${hosted.name}`,
          keep: ScheduleTrigger.keep({
            name: hosted.name,
            checked,
            accept,
            report: report === undefined ? undefined : (state, message) => report(hosted.name, state, message)
          })
        })
      } else if (kind === "DYNAMIC_WEBHOOK") {
        keepers.push({ name: `x-runner/webhook/${hosted.name}`, keep: keepRegistered({ hosted, runner, embedded, reports: options.reports }) })
      }
    }
    type Needs = Components | Output | Connections.Connections | TriggerStore.TriggerStore
    const kept: Layer.Layer<never, ServeProblem, Needs | Database.RunsSql> = embedded
      ? keepers.reduce((all, { keep }) => Layer.merge(all, Layer.scopedDiscard(Effect.forkScoped(keep))), Layer.empty as Layer.Layer<never, never, Needs>)
      : keepers.reduce(
        (all, { keep, name }) => Layer.merge(all, Singleton.make(name, keep)),
        Layer.empty as Layer.Layer<never, never, Needs | Sharding.Sharding>
      ).pipe(Layer.provide(Engine.clusterLayer(options.cluster)))
    yield* Layer.build(Layer.provide(kept, Layer.succeedContext(engine)))
    if (!embedded) yield* say(`● runner ${runner} at ${options.cluster.host}:${options.cluster.port} (the others reach it there)`)
    yield* options.reports.ready
    return yield* Effect.never
  })

/**
 * A dynamic webhook kept registered while this runner holds its singleton: the registration
 * stored by a previous runner for the same URL and parameters is kept; another one (a crash
 * left it, or it was for another URL) is removed first. At this runner's stop the webhook is
 * removed only when no other runner is alive to serve it.
 */
const keepRegistered = (options: { readonly hosted: Hosted; readonly runner: string; readonly embedded: boolean; readonly reports: Reports }) =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const say = (yield* Output).err
    const triggers = yield* TriggerStore.TriggerStore
    const { hosted } = options
    const checked = hosted.workflow.trigger!
    const trigger = checked.prepared
    const url = hosted.publicUrl!.toString()
    const type = trigger.step.type
    const parameters = checked.parameters
    const stored = yield* triggers.get(hosted.name)
    const previous = Option.flatMap(stored, (record) => Option.map(record.state, (state) => ({ record, state })))
    let state: unknown
    if (
      Option.isSome(previous) && previous.value.record.url === url && previous.value.record.type === type &&
      JSON.stringify(previous.value.record.parameters) === JSON.stringify(parameters)
    ) {
      state = previous.value.state
      yield* say(`↻ the trigger enabled before at ${url} is kept`)
    } else {
      // A webhook a crash left behind, or one for another URL, goes first: the provider may refuse a second one.
      if (Option.isSome(previous)) {
        yield* Effect.matchEffect(executor.disableTrigger(trigger, previous.value.state), {
          onSuccess: () => say("↻ removed the trigger a previous run left enabled"),
          onFailure: (error) => say(`✘ the previous trigger could not be removed: ${error.message}`)
        })
        yield* triggers.disabled(hosted.name)
      }
      state = yield* Effect.mapError(executor.enableTrigger(trigger, url), (error) =>
        new ServeProblem({ message: `the trigger could not be enabled: ${error._tag}: ${error.message}` }))
      yield* triggers.enabled({ workflow: hosted.name, type, parameters, url, state })
    }
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const others = options.embedded
          ? 0
          : yield* Effect.orElseSucceed(triggers.othersAlive(options.runner, Duration.toMillis(heartbeatEvery) * 3), () => 0)
        if (others > 0) return yield* say(`○ the trigger stays enabled: ${others} other runner${others === 1 ? "" : "s"} serve${others === 1 ? "s" : ""} it`)
        yield* Effect.matchEffect(executor.disableTrigger(trigger, state), {
          onSuccess: () => Effect.zipRight(Effect.ignore(triggers.disabled(hosted.name)), say("■ trigger disabled")),
          onFailure: (error) => say(`✘ the trigger could not be disabled: ${error.message}`)
        })
      })
    )
    return yield* Effect.never
  }).pipe(
    Effect.catchAll((error) =>
      Effect.zipRight(
        Effect.zipRight(Effect.flatMap(Output, (output) => output.err(`✘ ${error.message}`)), options.reports.enableFailed(options.hosted.name, error.message)),
        Effect.never
      )
    )
  )
