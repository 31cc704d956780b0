/**
 * What runs the engine's side of `serve`, in a thread of its own (`EngineWorker`): the engine and
 * its stores (on PostgreSQL, the runners' cluster and its engine; on the embedded database, the
 * journaling engine of one runner), the handoff of committed runs to the engine, and the
 * triggers it keeps (a dynamic webhook registered, a polling trigger polled: on PostgreSQL, the
 * cluster's singletons, each on one runner at a time; on the embedded database, this runner's).
 * The thread that receives deliveries (`Serve`) only commits runs and wakes the handoff:
 * acknowledging never waits for the CPU the runs take.
 *
 * @since 0.3.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type * as Sharding from "@effect/cluster/Sharding"
import * as Singleton from "@effect/cluster/Singleton"
import type { Connections } from "@x/core"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { Components } from "../components/Components.js"
import * as Database from "../store/Database.js"
import type * as AcknowledgingFirst from "./AcknowledgingFirst.js"
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
 * How often a registered webhook is checked with the provider (a trigger's `check`) when
 * `--poll-interval` does not say: Trello turns off a webhook whose deliveries keep failing,
 * and nothing says so but its `active` flag.
 *
 * @since 0.8.0
 * @category constants
 */
export const webhookCheckEvery = Duration.minutes(5)

/**
 * How far before the last event accepted a catch-up starts: the provider's clock may differ
 * from the runner's, and what is listed twice is one run (its event id).
 *
 * @since 0.8.0
 * @category constants
 */
export const catchUpOverlap = Duration.minutes(1)

/** A webhook's catch-up cursor, in its trigger's stored `cursor`: the time events are listed from next. */
const CatchUpCursor = Schema.Struct({ since: Schema.Number })
const readCatchUpCursor = Schema.decodeUnknownOption(CatchUpCursor)

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
  /** Told by the thread that receives deliveries when it is busy (the embedded engine's handoff waits then). */
  readonly acknowledgingFirst?: AcknowledgingFirst.AcknowledgingFirst | undefined
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
      stop: embedded ? Effect.interrupt : Effect.never,
      waiting,
      roomMade: Queue.offer(wake, undefined),
      finished: options.reports.finished
    }
    const storeProblem = <E extends { readonly _tag: string; readonly message: string }>(error: E) =>
      error._tag === "StoreFailed" || error._tag === "SqlError" ? new ServeProblem({ message: error.message }) : error as Exclude<E, { readonly _tag: "StoreFailed" | "SqlError" }>
    // The stores first: they close last.
    const stores = yield* Layer.build(
      Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
        Layer.provideMerge(Database.layer(location, { writeFault: options.writeFault })),
        Layer.mapError(storeProblem)
      )
    )
    const store = Context.get(stores, RunStore.RunStore)
    const triggers = Context.get(stores, TriggerStore.TriggerStore)
    const health = Context.get(stores, Database.RunsHealth)
    yield* Effect.forkScoped(Stream.runForEach(Stream.drop(health.changes, 1), (failing) =>
      Effect.zipRight(
        say(Option.match(failing, {
          onNone: () => "✔ the runs' database takes writes again: the runs go on",
          onSome: (why) => `✘ the runs' database refuses writes (${why}): the runs wait until it takes them again`
        })),
        options.reports.storage?.(failing) ?? Effect.void
      )))

    // The other runners of the cluster alive, by the database's time (none on the embedded database).
    const othersAlive = embedded ? Effect.succeed(0) : Effect.orElseSucceed(triggers.othersInCluster(options.cluster, Engine.shardLockExpiration), () => 0)
    // On PostgreSQL the runners' cluster: its engine executes the runs, its singletons keep the triggers.
    const cluster = embedded ? undefined : yield* Layer.build(Engine.clusterLayer(options.cluster).pipe(Layer.provide(Layer.succeedContext(stores))))
    const engine = yield* Layer.build(
      Engine.runsLayer(runs).pipe(
        Layer.provideMerge(cluster === undefined ? SqlWorkflowEngine.layer : Layer.provide(Engine.clusterEngineLayer, Layer.succeedContext(cluster))),
        Layer.provideMerge(Layer.succeedContext(stores)),
        Layer.mapError(storeProblem)
      )
    )
    // The cluster keeps every message: those of runs finished a while ago go, every minute.
    if (cluster !== undefined) {
      yield* Effect.forkScoped(Effect.schedule(Effect.ignore(Engine.forgetFinished.pipe(Effect.provide(stores))), Schedule.spaced("1 minute")))
    }
    // The embedded engine's executions live in this process: every unfinished run is handed to it again.
    if (embedded) yield* Effect.mapError(store.handAgain(), storeProblem)
    yield* Engine.handOff({
      backlog: options.concurrency * 4,
      local: embedded,
      // Read at most every 2 s: the handoff looks at every wake, the runners change rarely.
      runners: cluster === undefined ? undefined : yield* Effect.cachedWithTTL(Effect.map(othersAlive, (others) => others + 1), "2 seconds"),
      wake,
      say,
      waiting,
      acknowledgingFirst: options.acknowledgingFirst
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
            // On PostgreSQL a keeper that starts while other runners are alive took the schedule
            // over from one of them (a runner joined, left or died): the cluster served it meanwhile.
            takenOver: Effect.map(othersAlive, (others) => others > 0),
            // The newest tick accepted: a keeper that moved before its first tick's cursor was stored finds it here.
            lastAccepted: Effect.map(
              Effect.orElseSucceed(store.list({ limit: 1, workflow: hosted.name, origin: "serve" }), () => []),
              (newest) => newest.length === 0 ? undefined : newest[0]!.eventId
            ),
            report: report === undefined ? undefined : (state, message) => report(hosted.name, state, message)
          })
        })
      } else if (kind === "DYNAMIC_WEBHOOK") {
        keepers.push({
          name: `x-runner/webhook/${hosted.name}`,
          keep: keepRegistered({
            hosted,
            embedded,
            othersAlive,
            reports: options.reports,
            checkEvery: options.pollInterval ?? webhookCheckEvery,
            accept,
            lastAccepted: Effect.map(
              Effect.orElseSucceed(store.list({ limit: 1, workflow: hosted.name, origin: "serve" }), () => []),
              (newest) => newest.length === 0 ? undefined : newest[0]!.acceptedAt
            )
          })
        })
      }
    }
    type Needs = Components | Output | Connections.Connections | TriggerStore.TriggerStore
    const kept: Layer.Layer<never, never, Needs> = cluster === undefined
      ? keepers.reduce((all, { keep }) => Layer.merge(all, Layer.scopedDiscard(Effect.forkScoped(keep))), Layer.empty as Layer.Layer<never, never, Needs>)
      : keepers.reduce(
        (all, { keep, name }) => Layer.merge(all, Singleton.make(name, keep)),
        Layer.empty as Layer.Layer<never, never, Needs | Sharding.Sharding>
      ).pipe(Layer.provide(Layer.succeedContext(cluster)))
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
const keepRegistered = (options: {
  readonly hosted: Hosted
  readonly embedded: boolean
  /** How many other runners are alive (they keep serving the webhook when this one stops). */
  readonly othersAlive: Effect.Effect<number>
  readonly reports: Reports
  readonly checkEvery: Duration.Duration
  /** How an event is accepted: the same path as a delivery's (its run keyed by the event id). */
  readonly accept: (name: string, event: { readonly id: string; readonly output: unknown }) => Effect.Effect<{ readonly fresh: boolean }, RunStore.StoreFailed>
  /** When the newest run of the workflow was accepted (epoch milliseconds), if any. */
  readonly lastAccepted: Effect.Effect<number | undefined>
}) =>
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

    // Events the provider lists that happened while nothing served: from the stored cursor (the
    // previous start, read once its webhook was registered: what came later was delivered) or
    // the last event accepted less an overlap, whichever is later; each one accepted like a
    // delivery, so one delivered as well is one run.
    const startedAt = yield* Clock.currentTimeMillis
    const sameTrigger = Option.isSome(stored) && stored.value.type === type && JSON.stringify(stored.value.parameters) === JSON.stringify(parameters)
    const storedSince = sameTrigger ? Option.flatMap(Option.flatMap(stored, (record) => record.cursor), readCatchUpCursor) : Option.none()
    const catchUp = (from: number, why: string) =>
      Effect.gen(function*() {
        const newest = yield* options.lastAccepted
        const since = new Date(Math.max(from, (newest ?? 0) - Duration.toMillis(catchUpOverlap)))
        const listed = yield* executor.catchUp(trigger, since)
        if (Option.isNone(listed)) return true
        let fresh = 0
        for (const event of listed.value) {
          if ((yield* options.accept(hosted.name, event)).fresh) fresh++
        }
        yield* say(`↻ caught up ${why}: ${fresh} event${fresh === 1 ? "" : "s"} missed since ${since.toISOString()} to run (${listed.value.length - fresh} run already)`)
        return true
      }).pipe(Effect.catchAll((error) => Effect.as(say(`✘ the events missed ${why} could not be listed: ${error.message}`), false)))
    const caughtUp = Option.isSome(storedSince) ? yield* catchUp(storedSince.value.since, "after the stop") : true
    // The next start catches up from this one (what this runner accepts moves it later); from
    // the stored one still when this catch-up failed.
    if (caughtUp) yield* Effect.ignore(triggers.polled({ workflow: hosted.name, type, parameters, cursor: { since: startedAt } }))

    // The provider may drop the webhook while it is served (Trello turns one off whose deliveries
    // keep failing): checked on an interval, registered again (`enable` re-activates it or makes
    // a new one), and what it did not deliver meanwhile caught up.
    const checkOnce = Effect.gen(function*() {
      const registration = yield* executor.checkTrigger(trigger, state)
      if (Option.isNone(registration) || registration.value === "active") return
      const lost = registration.value === "gone" ? "the provider removed the webhook" : "the provider turned the webhook off"
      yield* say(`✘ ${hosted.name}: ${lost}: registering it again`)
      yield* options.reports.polling?.(hosted.name, "failed", `${lost}: registering it again`) ?? Effect.void
      state = yield* executor.enableTrigger(trigger, url)
      yield* triggers.enabled({ workflow: hosted.name, type, parameters, url, state })
      // Reported before it is said: whoever reads the line may ask health at once.
      yield* options.reports.polling?.(hosted.name, "polling") ?? Effect.void
      yield* say(`✔ ${hosted.name}: the webhook is ${registration.value === "gone" ? "registered again" : "active again"}`)
      yield* catchUp(startedAt, "while the webhook was off")
    }).pipe(Effect.catchAll((error) => say(`✘ ${hosted.name}: the webhook could not be checked or registered again (tried again in ${Duration.format(options.checkEvery)}): ${error.message}`)))
    yield* Effect.forkScoped(Effect.schedule(checkOnce, Schedule.spaced(options.checkEvery)))
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const others = options.embedded
          ? 0
          : yield* options.othersAlive
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
