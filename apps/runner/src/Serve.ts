/**
 * `serve`: serves the triggers of one or more workflows and runs their tasks once per event on
 * the durable engine (`Engine`), until interrupted. A dynamic webhook is registered with the
 * provider at its public URL and removed on SIGINT/SIGTERM; a static webhook (registered by hand
 * in the provider's dashboard) is only received: `serve` prints the URL to paste; a polling
 * trigger is polled (`ServePolling`). Each webhook workflow has its own path; `GET /healthz`
 * says whether the runner serves.
 *
 * A delivery is acknowledged once its run is committed in the store (`RunStore`); the engine
 * executes it after that, at its own pace.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Path from "@effect/platform/Path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { type Connections, Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Sharding from "@effect/cluster/Sharding"
import * as Singleton from "@effect/cluster/Singleton"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { Components } from "./Components.js"
import * as Database from "./Database.js"
import * as Engine from "./Engine.js"
import { type DamagedData, ServeProblem } from "./Errors.js"
import * as CappedBody from "./internal/cappedBody.js"
import { Output } from "./Output.js"
import type * as Run from "./Run.js"
import * as RunStore from "./RunStore.js"
import type * as Setup from "./Setup.js"
import * as ServePolling from "./ServePolling.js"
import * as TriggerStore from "./TriggerStore.js"
import type * as Workflow from "./Workflow.js"

/**
 * A workflow `serve` serves: its name (its runs' workflow, its trigger state's directory) and,
 * for a webhook trigger, the public URL its deliveries come to.
 *
 * @since 0.3.0
 * @category models
 */
export interface Served {
  readonly name: string
  readonly workflow: Workflow.Workflow
  readonly publicUrl: URL | undefined
}

/**
 * What `serve` serves.
 *
 * @since 0.2.0
 * @category models
 */
export interface ServeOptions {
  readonly workflows: ReadonlyArray<Served>
  /** The port to listen on; without one, workflows that only poll open none. */
  readonly port: number | undefined
  /** The address to listen on (127.0.0.1 unless asked). */
  readonly host?: string | undefined
  readonly dataDir: string
  /** The embedded database in `dataDir` unless a PostgreSQL is named. */
  readonly database?: Setup.Location | undefined
  /** How many runs this runner runs at once. */
  readonly concurrency?: number | undefined
  /** With PostgreSQL: how the other runners reach this one. */
  readonly cluster?: Engine.ClusterOptions | undefined
  /** A polling trigger's interval, instead of the one it declares. */
  readonly pollInterval?: Duration.Duration | undefined
  /** Run once every trigger is enabled and deliveries are received (`run --serve` waits on it). */
  readonly ready?: Effect.Effect<void> | undefined
  /** Told of each run's end on this runner. */
  readonly finished?: Engine.Runs["finished"]
  /** Where runs' and steps' traces go (`Tracing.layer`), if anywhere. */
  readonly tracing?: Layer.Layer<never> | undefined
}

type Needs = Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path

/** The port a webhook is received on when neither `--port` nor the public URL names one. */
const defaultPort = 8080

/** The default number of runs a runner runs at once. */
export const defaultConcurrency = 32

/**
 * Serves the workflows until interrupted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const serve = (options: ServeOptions): Effect.Effect<never, ServeProblem | DamagedData, Needs> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const output = yield* Output
    const say = output.err
    const location = options.database ?? { _tag: "Embedded" as const, dataDir: options.dataDir }
    const embedded = location._tag === "Embedded"
    const concurrency = options.concurrency ?? defaultConcurrency
    for (const served of options.workflows) {
      if (served.workflow.trigger === undefined) return yield* new ServeProblem({ message: `${served.name}: the workflow has no trigger to serve` })
    }
    const webhooks = options.workflows.filter((served) => served.workflow.trigger!.prepared.trigger.kind !== "POLLING")
    for (const served of webhooks) {
      if (served.publicUrl === undefined) {
        return yield* new ServeProblem({ message: `${served.workflow.trigger!.step.type} is a webhook trigger: serving it needs --public-url` })
      }
    }

    // The engine, its stores and the runs' body, for as long as `serve` runs.
    const runner = randomUUID()
    const runs: Engine.Runs = {
      runner,
      workflows: new Map(options.workflows.map((served) => [served.name, served.workflow])),
      executor,
      concurrency,
      say,
      finished: options.finished
    }
    const cluster = options.cluster ?? { host: "127.0.0.1", port: 0, shardLockExpiration: "5 seconds" }
    // One database layer: built once for the engine and the stores.
    const database = Database.layer(location)
    const stored = Layer.mergeAll(Engine.engineLayer(location, cluster), RunStore.layer, TriggerStore.layer).pipe(Layer.provideMerge(database))
    const engine = yield* Layer.build(
      Layer.provideMerge(Engine.runsLayer(runs), stored).pipe(
        Layer.mapError((error) => error._tag === "StoreFailed" ? new ServeProblem({ message: error.message }) : error)
      )
    )
    const store = Context.get(engine, RunStore.RunStore)
    const triggers = Context.get(engine, TriggerStore.TriggerStore)
    const unfinished = yield* Effect.orElseSucceed(store.unfinished, () => 0)
    if (unfinished > 0) {
      yield* say(`↻ ${unfinished} run${unfinished === 1 ? "" : "s"} accepted before a stop and not finished: the engine resumes ${unfinished === 1 ? "it" : "them"}`)
    }
    if (!embedded) yield* say(`● runner ${runner} at ${cluster.host}:${cluster.port} (the others reach it there)`)
    const wake = yield* Queue.sliding<void>(1)
    yield* Engine.dispatch({ runner, backlog: concurrency * 4, wake }).pipe(Effect.provide(engine))

    const accept = (name: string, event: { readonly id: string; readonly output: unknown }) =>
      Effect.tap(store.accept(name, event), ({ fresh }) => fresh ? Queue.offer(wake, undefined) : Effect.void)

    // What verifies a webhook's deliveries: the state its registration returned, whichever
    // runner registered it (read again every heartbeat).
    const states = new Map<string, unknown>()
    const refreshStates = Effect.forEach(webhooks, (served) =>
      Effect.map(triggers.get(served.name), (record) => {
        if (Option.isSome(record) && Option.isSome(record.value.state)) states.set(served.name, record.value.state.value)
      }), { discard: true })
    // Alive, for the other runners: the last one to stop removes the webhooks.
    yield* Effect.forkScoped(Effect.repeat(
      Effect.ignore(Effect.zipRight(triggers.heartbeat(runner), refreshStates)),
      Schedule.spaced(heartbeatEvery)
    ))
    yield* Effect.addFinalizer(() => Effect.ignore(triggers.leave(runner)))

    const maxBytes = Webhook.defaultMaxBytes
    const deliver = (served: Served) =>
      Effect.gen(function*() {
        const trigger = served.workflow.trigger!.prepared
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* CappedBody.read(request, maxBytes)
        if (Option.isNone(body)) return CappedBody.tooLarge(maxBytes)
        // Every request goes to the trigger, the provider's check of the URL (before the webhook
        // and its state exist) too.
        const handled = yield* Effect.either(executor.handleDelivery(trigger, states.get(served.name) ?? {}, {
          method: request.method,
          url: served.publicUrl!.toString(),
          headers: request.headers,
          body: body.value
        }))
        if (handled._tag === "Left") {
          yield* say(`✘ a delivery could not be handled: ${handled.left._tag}: ${handled.left.message}`)
          return HttpServerResponse.text("could not handle the delivery", { status: 500 })
        }
        const { events: delivered, response } = handled.right
        if (response.status >= 400) yield* say(`✘ a delivery was rejected (${response.status}): ${response.body ?? ""}`)
        for (const event of delivered) {
          // Not cut short by a client that goes away: a committed run is also dispatched.
          const accepted = yield* Effect.either(Effect.uninterruptible(accept(served.name, event)))
          if (accepted._tag === "Left") {
            yield* say(`✘ event ${event.id} could not be recorded, so it is not acknowledged: ${accepted.left.message}`)
            return HttpServerResponse.text("could not record the delivery", { status: 503 })
          }
          if (!accepted.right.fresh) yield* say(`= event ${event.id} was delivered again: already accepted, not run twice`)
        }
        return HttpServerResponse.text(response.body ?? "", { status: response.status })
      })
    let serving = true
    const health = Effect.suspend(() =>
      Effect.map(Effect.either(store.backlog), (backlog) =>
        HttpServerResponse.unsafeJson({
          status: serving && backlog._tag === "Right" ? "serving" : serving ? "database unreachable" : "stopping",
          workflows: options.workflows.map((served) => ({ name: served.name, trigger: served.workflow.trigger!.step.type })),
          runsInEngine: backlog._tag === "Right" ? backlog.right : null
        }, { status: serving && backlog._tag === "Right" ? 200 : 503 }))
    )
    let router: HttpRouter.HttpRouter<never, Connections.Connections> = HttpRouter.empty.pipe(HttpRouter.get("/healthz", health))
    for (const served of webhooks) router = HttpRouter.all(router, served.publicUrl!.pathname as HttpRouter.PathInput, deliver(served))
    router = HttpRouter.all(router, "*", Effect.succeed(CappedBody.notFound))
    yield* Effect.addFinalizer(() => Effect.sync(() => serving = false))
    const port = options.port ?? (webhooks.length > 0 ? defaultPort : undefined)
    const host = options.host ?? "127.0.0.1"
    if (port !== undefined) {
      // Built in serve's scope: it listens until serve stops.
      const server = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port, host })).pipe(
        Effect.catchTag("ServeError", (error) =>
          new ServeProblem({
            message: /EADDRINUSE/.test(String(error.cause)) ? `port ${port} is in use` : `the server could not start: ${String(error.cause)}`
          }))
      )
      yield* Effect.provide(HttpServer.serveEffect()(router), server)
      if (webhooks.length === 0) yield* say(`● health at http://${host}:${port}/healthz`)
    }

    // Each trigger is kept by one runner at a time (the engine's singletons): a dynamic webhook
    // registered, a polling trigger polled; another runner takes over when that one dies.
    const singletons: Array<Layer.Layer<never, never, Sharding.Sharding | Needs | TriggerStore.TriggerStore>> = []
    const registrations: Array<{ readonly served: Served; readonly local: Deferred.Deferred<void, ServeProblem> }> = []
    for (const served of options.workflows) {
      const checked = served.workflow.trigger!
      const trigger = checked.prepared
      if (trigger.trigger.kind === "POLLING") {
        singletons.push(Singleton.make(`x-runner/poll/${served.name}`, ServePolling.poll({ name: served.name, checked, pollInterval: options.pollInterval, accept })))
        continue
      }
      const publicUrl = served.publicUrl!.toString()
      if (trigger.trigger.kind === "STATIC_WEBHOOK") {
        // Registered by hand: nothing to enable, remove or keep; the user needs the URL.
        yield* say(`☛ paste ${publicUrl} as the webhook URL at the provider: ${trigger.trigger.setup}`)
        continue
      }
      const local = yield* Deferred.make<void, ServeProblem>()
      registrations.push({ served, local })
      singletons.push(Singleton.make(`x-runner/webhook/${served.name}`, keepRegistered({ served, runner, embedded, states, local })))
    }
    yield* Layer.build(singletons.reduce((all, one) => Layer.merge(all, one), Layer.empty).pipe(Layer.provide(Layer.succeedContext(engine))))
    // Served once registered: here, or by the runner that keeps the registration.
    for (const { local, served } of registrations) {
      yield* Effect.raceFirst(
        Deferred.await(local),
        Effect.repeat(triggers.get(served.name), {
          schedule: Schedule.spaced("500 millis"),
          until: (record) => Option.isSome(record) && Option.isSome(record.value.state) && record.value.url === served.publicUrl!.toString()
        }).pipe(Effect.ignore, Effect.zipRight(refreshStates.pipe(Effect.ignore)))
      )
    }
    for (const served of webhooks) {
      yield* say(`● serving ${served.workflow.trigger!.step.type} at ${served.publicUrl} (listening on port ${port})`)
    }
    if (options.ready !== undefined) yield* options.ready
    return yield* Effect.never
  }).pipe(
    // The engine's own logs (a runner listening, shards moving, no runner while one stops) are
    // not the runner's output; its errors are.
    Logger.withMinimumLogLevel(LogLevel.Error),
    Effect.scoped,
    Effect.provide(options.tracing ?? Layer.empty)
  )

/** How often a runner says it is alive; one silent for three times that is counted gone. */
const heartbeatEvery = Duration.seconds(2)

/**
 * A dynamic webhook kept registered while this runner holds its singleton: the registration
 * stored by a previous runner for the same URL and parameters is kept; another one (a crash
 * left it, or it was for another URL) is removed first. At this runner's stop the webhook is
 * removed only when no other runner is alive to serve it.
 */
const keepRegistered = (options: {
  readonly served: Served
  readonly runner: string
  readonly embedded: boolean
  readonly states: Map<string, unknown>
  readonly local: Deferred.Deferred<void, ServeProblem>
}) =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const say = (yield* Output).err
    const triggers = yield* TriggerStore.TriggerStore
    const { served } = options
    const checked = served.workflow.trigger!
    const trigger = checked.prepared
    const url = served.publicUrl!.toString()
    const type = trigger.step.type
    const parameters = checked.parameters
    const stored = yield* triggers.get(served.name)
    const previous = Option.flatMap(stored, (record) => Option.map(record.state, (state) => ({ record, state })))
    if (
      Option.isSome(previous) && previous.value.record.url === url && previous.value.record.type === type &&
      JSON.stringify(previous.value.record.parameters) === JSON.stringify(parameters)
    ) {
      options.states.set(served.name, previous.value.state)
      yield* say(`↻ the trigger enabled before at ${url} is kept`)
    } else {
      // A webhook a crash left behind, or one for another URL, goes first: the provider may refuse a second one.
      if (Option.isSome(previous)) {
        yield* Effect.matchEffect(executor.disableTrigger(trigger, previous.value.state), {
          onSuccess: () => say("↻ removed the trigger a previous run left enabled"),
          onFailure: (error) => say(`✘ the previous trigger could not be removed: ${error.message}`)
        })
        yield* triggers.disabled(served.name)
      }
      const enabled = yield* Effect.mapError(executor.enableTrigger(trigger, url), (error) =>
        new ServeProblem({ message: `the trigger could not be enabled: ${error._tag}: ${error.message}` }))
      yield* triggers.enabled({ workflow: served.name, type, parameters, url, state: enabled })
      options.states.set(served.name, enabled)
    }
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const others = options.embedded ? 0 : yield* Effect.orElseSucceed(triggers.othersAlive(options.runner, Duration.toMillis(heartbeatEvery) * 3), () => 0)
        if (others > 0) return yield* say(`○ the trigger stays enabled: ${others} other runner${others === 1 ? "" : "s"} serve${others === 1 ? "s" : ""} it`)
        const state = options.states.get(served.name)
        yield* Effect.matchEffect(executor.disableTrigger(trigger, state), {
          onSuccess: () => Effect.zipRight(Effect.ignore(triggers.disabled(served.name)), say("■ trigger disabled")),
          onFailure: (error) => say(`✘ the trigger could not be disabled: ${error.message}`)
        })
      })
    )
    yield* Deferred.succeed(options.local, undefined)
    return yield* Effect.never
  }).pipe(
    Effect.tapError((error) => Deferred.fail(options.local, error instanceof ServeProblem ? error : new ServeProblem({ message: error.message }))),
    Effect.catchAll((error) => Effect.zipRight(
      Effect.flatMap(Output, (output) => output.err(`✘ ${error.message}`)),
      Effect.never
    ))
  )

/**
 * What a run's end tells `run --serve`.
 *
 * @since 0.3.0
 * @category models
 */
export type Finished = (run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Run.RunResult) => Effect.Effect<void>
