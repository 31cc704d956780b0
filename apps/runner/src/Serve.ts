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
import * as Path from "@effect/platform/Path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { type Connections, Webhook } from "@x/core"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
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
import * as TriggerState from "./TriggerState.js"
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
    const path = yield* Path.Path
    const location = options.database ?? { _tag: "Embedded" as const, dataDir: options.dataDir }
    const concurrency = options.concurrency ?? defaultConcurrency
    for (const served of options.workflows) {
      if (served.workflow.trigger === undefined) return yield* new ServeProblem({ message: `${served.name}: the workflow has no trigger to serve` })
    }

    // The engine, its store and the runs' body, for as long as `serve` runs.
    const runs: Engine.Runs = {
      workflows: new Map(options.workflows.map((served) => [served.name, served.workflow])),
      executor,
      concurrency,
      say,
      finished: options.finished
    }
    const cluster = options.cluster ?? { host: "127.0.0.1", port: 0, shardLockExpiration: "5 seconds" }
    // One database layer: built once for the engine and the store.
    const database = Database.layer(location)
    const stored = Layer.merge(Engine.engineLayer(location, cluster), RunStore.layer).pipe(Layer.provideMerge(database))
    const engine = yield* Layer.build(
      Layer.provideMerge(Engine.runsLayer(runs), stored).pipe(
        Layer.mapError((error) => error._tag === "StoreFailed" ? new ServeProblem({ message: error.message }) : error)
      )
    )
    const store = yield* Effect.provide(RunStore.RunStore, engine)
    const unfinished = yield* Effect.orElseSucceed(store.unfinished, () => 0)
    if (unfinished > 0) {
      yield* say(`↻ ${unfinished} run${unfinished === 1 ? "" : "s"} accepted before a stop and not finished: the engine resumes ${unfinished === 1 ? "it" : "them"}`)
    }
    const wake = yield* Queue.sliding<void>(1)
    yield* Engine.dispatch({ runner: randomUUID(), backlog: concurrency * 4, wake }).pipe(Effect.provide(engine))

    const accept = (name: string, event: { readonly id: string; readonly output: unknown }) =>
      Effect.tap(store.accept(name, event), ({ fresh }) => fresh ? Queue.offer(wake, undefined) : Effect.void)

    // Deliveries: each webhook workflow at its path; its trigger's state once enabled.
    const states = new Map<string, unknown>()
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
    const webhooks = options.workflows.filter((served) => served.workflow.trigger!.prepared.trigger.kind !== "POLLING")
    for (const served of webhooks) {
      if (served.publicUrl === undefined) {
        return yield* new ServeProblem({ message: `${served.workflow.trigger!.step.type} is a webhook trigger: serving it needs --public-url` })
      }
    }
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
    if (port !== undefined) {
      // Built in serve's scope: it listens until serve stops.
      const server = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port, host: options.host ?? "127.0.0.1" })).pipe(
        Effect.catchTag("ServeError", (error) =>
          new ServeProblem({
            message: /EADDRINUSE/.test(String(error.cause)) ? `port ${port} is in use` : `the server could not start: ${String(error.cause)}`
          }))
      )
      yield* Effect.provide(HttpServer.serveEffect()(router), server)
      if (webhooks.length === 0) yield* say(`● health at http://${options.host ?? "127.0.0.1"}:${port}/healthz`)
    }

    for (const served of options.workflows) {
      const checked = served.workflow.trigger!
      const trigger = checked.prepared
      const stateDir = path.join(options.dataDir, "triggers", served.name)
      if (trigger.trigger.kind === "POLLING") {
        yield* ServePolling.poll({ name: served.name, checked, stateDir, pollInterval: options.pollInterval, accept })
        continue
      }
      const publicUrl = served.publicUrl!.toString()
      if (trigger.trigger.kind === "STATIC_WEBHOOK") {
        // Registered by hand: nothing to enable, remove or keep; the user needs the URL.
        yield* say(`☛ paste ${publicUrl} as the webhook URL at the provider: ${trigger.trigger.setup}`)
        yield* say(`● serving ${trigger.step.type} at ${publicUrl} (listening on port ${port})`)
        continue
      }
      yield* TriggerState.makeDataDir(stateDir)
      // Read before anything is enabled: a state that cannot be read stops the start.
      const stale = yield* TriggerState.read(stateDir)
      // A webhook a crash left behind goes first, or the provider refuses a second one.
      if (Option.isSome(stale)) {
        yield* Effect.matchEffect(executor.disableTrigger(trigger, stale.value), {
          onSuccess: () => say("↻ removed the trigger a previous run left enabled"),
          onFailure: (error) => say(`✘ the previous trigger could not be removed: ${error.message}`)
        })
        yield* TriggerState.clear(stateDir)
      }
      const enabled = yield* Effect.acquireRelease(
        Effect.mapError(executor.enableTrigger(trigger, publicUrl), (error) =>
          new ServeProblem({ message: `the trigger could not be enabled: ${error._tag}: ${error.message}` })).pipe(
            Effect.tap((enabled) => TriggerState.write(stateDir, enabled))
          ),
        (enabled) =>
          Effect.matchEffect(executor.disableTrigger(trigger, enabled), {
            onSuccess: () => Effect.zipRight(TriggerState.clear(stateDir), say("■ trigger disabled")),
            onFailure: (error) => say(`✘ the trigger could not be disabled: ${error.message}`)
          })
      )
      states.set(served.name, enabled)
      yield* say(`● serving ${trigger.step.type} at ${publicUrl} (listening on port ${port})`)
    }
    if (options.ready !== undefined) yield* options.ready
    return yield* Effect.never
  }).pipe(
    // The engine's own logs (a runner listening, shards acquired) are not the runner's output; its warnings are.
    Logger.withMinimumLogLevel(LogLevel.Warning),
    Effect.scoped
  )

/**
 * What a run's end tells `run --serve`.
 *
 * @since 0.3.0
 * @category models
 */
export type Finished = (run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Run.RunResult) => Effect.Effect<void>
