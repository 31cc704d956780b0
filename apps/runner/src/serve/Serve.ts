/**
 * `serve`: serves the triggers of one or more workflows and runs their tasks once per event on
 * the durable engine, until interrupted. This thread receives the deliveries: each workflow's
 * webhook at its own path (the lean path of `IngestionServer`), `GET /healthz`, and the runs
 * page under `/runs` (`RunsPage`); a delivery is acknowledged once its run is committed (`RunStore`). The engine (`EngineHost`)
 * runs in a thread of its own (`EngineWorker`): it executes the runs, and keeps the triggers (a
 * dynamic webhook registered with the provider and removed by the last runner to stop; a
 * polling trigger polled). A static webhook (registered by hand in the provider's dashboard) is
 * only received: `serve` prints the URL to paste.
 *
 * @since 0.2.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Path from "@effect/platform/Path"
import { type Connections, FilePolicy, Webhook } from "@x/core"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import { randomUUID } from "node:crypto"
import { Components } from "../components/Components.js"
import { isRequestTrigger } from "../components/HttpComponent.js"
import * as Database from "../store/Database.js"
import * as DataDirLock from "../store/internal/dataDirLock.js"
import type * as Engine from "../engine/Engine.js"
import type * as EngineGates from "../engine/EngineGates.js"
import * as EngineWorker from "../engine/EngineWorker.js"
import { DamagedData, ServeProblem } from "../Errors.js"
import * as CappedBody from "../internal/cappedBody.js"
import * as WebhookPath from "./internal/webhookPath.js"
import { Output } from "../Output.js"
import type * as Interpreter from "../engine/Interpreter.js"
import * as RunsPage from "../page/RunsPage.js"
import * as RunStore from "../store/RunStore.js"
import * as IngestionServer from "./IngestionServer.js"
import * as Signing from "./Signing.js"
import * as TriggerStore from "../store/TriggerStore.js"
import type * as Workflow from "../workflow/Workflow.js"

/**
 * A workflow `serve` serves: its name (its runs' workflow, its trigger state's directory) and,
 * for a webhook trigger, the public URL its deliveries come to.
 *
 * @since 0.3.0
 * @category models
 */
export interface Served {
  readonly name: string
  /** Its file: the engine's thread reads and checks it again. */
  readonly file: string
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
  readonly database?: Database.Location | undefined
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
  /** The workflows' inputs, as given on the command line. */
  readonly inputs: ReadonlyMap<string, string>
  /** The connection values (the engine's thread opens its own connections with them). */
  readonly connections: ReadonlyMap<string, Readonly<Record<string, unknown>>>
  /** Whether the runs keep to the providers' rate limits (not under `--without-rate-limits`). */
  readonly rateLimits: boolean
  /**
   * The serving thread's rate limiter (its connections'), on the engine thread's store: one
   * store of tokens per runner on the embedded database.
   */
  readonly gates?: EngineGates.EngineGates | undefined
  /** Where runs' and steps' traces go over OTLP, if anywhere. */
  readonly otlpEndpoint?: string | undefined
  /** A test's full disk, in both threads (`Database.WriteFault`); never set by the command line. */
  readonly writeFault?: Database.WriteFault | undefined
  readonly version: string
  /**
   * The operator's choice (`--allow-unsigned-deliveries`): a trigger whose provider signs
   * deliveries starts without the signing secret, and accepts them unsigned.
   */
  readonly allowUnsignedDeliveries?: boolean | undefined
  /** Polling workflows whose stored cursor is dropped first (`--reset-cursor`): each starts from a new baseline. */
  readonly resetCursors?: ReadonlyArray<string> | undefined
  /** The runs page's token (`XRUNNER_UI_TOKEN`, `--ui-token-file`): needed beyond loopback. */
  readonly uiToken?: Redacted.Redacted<string> | undefined
}

type Needs = Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path

/** The port a webhook is received on when neither `--port` nor the public URL names one. */
const defaultPort = 8080

/** How often the webhooks' registrations are read again (another runner may have registered one). */
const statesRefreshEvery = Duration.seconds(2)

/** Where `GET /healthz` answers: a load balancer's check. */
const healthPath = "/healthz"

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
    for (const served of options.workflows) {
      if (served.workflow.trigger === undefined) return yield* new ServeProblem({ message: `${served.name}: the workflow has no trigger to serve` })
    }
    const webhooks = options.workflows.filter((served) => {
      const kind = served.workflow.trigger!.prepared.trigger.kind
      return kind !== "POLLING" && kind !== "SCHEDULE"
    })
    for (const served of webhooks) {
      if (served.publicUrl === undefined) {
        return yield* new ServeProblem({ message: `${served.workflow.trigger!.step.type} is a webhook trigger: serving it needs --public-url` })
      }
    }
    // One workflow per name (its runs', its trigger's state) and per path.
    for (const [index, served] of options.workflows.entries()) {
      const other = options.workflows.slice(0, index).find((earlier) =>
        earlier.name === served.name ||
        (earlier.publicUrl !== undefined && served.publicUrl !== undefined &&
          WebhookPath.canonical(earlier.publicUrl.pathname) === WebhookPath.canonical(served.publicUrl.pathname))
      )
      if (other !== undefined) {
        return yield* new ServeProblem({ message: `${other.file} and ${served.file} would be served as one workflow ("${served.name}"): rename one` })
      }
    }
    // The health check's path is its own: a workflow there would answer for it, or the reverse.
    const atHealth = webhooks.find((served) => WebhookPath.canonical(served.publicUrl!.pathname) === healthPath)
    if (atHealth !== undefined) {
      return yield* new ServeProblem({ message: `${atHealth.file} would be served at ${healthPath}, the health check's path: rename it, or give another --public-url` })
    }
    // The runs page's paths are its own too.
    const atPage = webhooks.find((served) => RunsPage.isPagePath(WebhookPath.canonical(served.publicUrl!.pathname)))
    if (atPage !== undefined) {
      return yield* new ServeProblem({ message: `${atPage.file} would be served at ${atPage.publicUrl!.pathname}, under /runs, the runs page's path: give another --public-url` })
    }
    yield* Signing.check(options.workflows.map((served) => served.workflow), options.connections, options.allowUnsignedDeliveries === true)

    // One runner per data directory (a second would run the first's runs too): held by the
    // operating system until this process ends, before the runs' database is opened.
    if (location._tag === "Embedded") {
      yield* Database.makeDataDir(location.dataDir)
      yield* DataDirLock.hold(location.dataDir).pipe(Effect.catchTags({
        DataDirInUse: ({ pid }) =>
          new ServeProblem({
            message: `another x-runner${Option.match(pid, { onNone: () => "", onSome: (pid) => ` (process ${pid})` })} serves from ${location.dataDir}: ` +
              `one runner uses a data directory. Stop it, or give this one another --data-dir; several runners share a PostgreSQL (--database)`
          }),
        DataDirLockFailed: ({ file, message }) => new DamagedData({ file, message })
      }))
    }
    // This thread's stores: the runs it accepts, the triggers' registrations it verifies with.
    const stores = yield* Layer.build(Layer.mergeAll(RunStore.layer, TriggerStore.layer).pipe(
      // The engine's thread, on the same file, checkpoints its WAL: not this one, which acknowledges
      // (unless its WAL passes 10,000 pages).
      // On SQLite its group commit waits a moment for the deliveries arriving together (`receivingCommitDelay`).
      Layer.provideMerge(Database.layer(location, {
        writeFault: options.writeFault,
        checkpointElsewhere: true,
        commitDelay: location._tag === "Embedded" ? Database.receivingCommitDelay : undefined
      })),
      Layer.mapError((error) => error._tag === "StoreFailed" ? new ServeProblem({ message: error.message }) : error)
    ))
    const store = Context.get(stores, RunStore.RunStore)
    const triggers = Context.get(stores, TriggerStore.TriggerStore)
    // Whether the runs' database takes writes, as this thread's writes find it and as the engine's do.
    const ownWrites = Context.get(stores, Database.RunsHealth)
    let engineWrites: Effect.Effect<Option.Option<string>> = Effect.succeedNone
    const storageFailing = Effect.zipWith(ownWrites.failing, Effect.suspend(() => engineWrites), (own, engine) => Option.orElse(own, () => engine))
    const runner = randomUUID()
    for (const name of options.resetCursors ?? []) {
      yield* Effect.mapError(triggers.resetCursor(name), (error) => new ServeProblem({ message: error.message }))
      yield* say(`↻ ${name}: its stored cursor was dropped (--reset-cursor): its first poll sets a new baseline`)
    }
    const unfinished = yield* Effect.orElseSucceed(store.unfinished, () => 0)
    if (unfinished > 0) {
      yield* say(`↻ ${unfinished} run${unfinished === 1 ? "" : "s"} accepted before a stop and not finished: the engine resumes ${unfinished === 1 ? "it" : "them"}`)
    }

    // What verifies a webhook's deliveries: the state its registration returned, whichever
    // runner registered it (read again every few seconds).
    const states = new Map<string, unknown>()
    const refreshStates = Effect.forEach(webhooks, (served) =>
      Effect.map(triggers.get(served.name), (record) => {
        if (Option.isSome(record) && Option.isSome(record.value.state)) states.set(served.name, record.value.state.value)
      }), { discard: true })
    yield* Effect.forkScoped(Effect.repeat(Effect.ignore(refreshStates), Schedule.spaced(statesRefreshEvery)))

    // The engine's thread: woken by each run accepted here.
    let wake: Effect.Effect<void> = Effect.void
    const accept = (name: string, event: { readonly id: string; readonly output: unknown }) =>
      Effect.tap(store.accept(name, event), ({ fresh }) => fresh ? wake : Effect.void)

    const maxBytes = Webhook.defaultMaxBytes
    // A webhook's deliveries (the lean path of `IngestionServer`): any method, since the
    // provider's check of the URL (before the webhook and its state exist) goes to the trigger too.
    const deliver = (served: Served): IngestionServer.Handler<Connections.Connections> => {
      const trigger = served.workflow.trigger!.prepared
      const url = served.publicUrl!.toString()
      const allowUnsigned = { allowUnsigned: options.allowUnsignedDeliveries === true }
      return (request) => Effect.gen(function*() {
        // Not acknowledged while its run could not be kept: the provider delivers it again later.
        const refusing = yield* storageFailing
        if (Option.isSome(refusing)) {
          yield* say(`✘ a delivery was refused (503): the runs' database refuses writes (${refusing.value})`)
          return HttpServerResponse.text("the runs' database refuses writes: deliver again later", { status: 503 })
        }
        const body = yield* request.body
        if (Option.isNone(body)) return CappedBody.tooLarge(maxBytes)
        const handled = yield* Effect.either(executor.handleDelivery(trigger, states.get(served.name) ?? {}, {
          method: request.method,
          url,
          headers: request.headers,
          body: body.value
        }, allowUnsigned))
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
          if (isRequestTrigger(trigger.trigger)) return yield* answerRequest(accepted.right.runId, trigger.params)
        }
        return HttpServerResponse.text(response.body ?? "", { status: response.status })
      })
    }
    // The HTTP trigger's answer: the run's id at once, or (respond: whenDone) its outputs once it
    // ended, read from the store every 100 ms within the time limit (the run may be on another
    // runner, so the store is where its end is seen); still going by then, its id (202).
    const answerRequest = (runId: string, params: Readonly<Record<string, unknown>>) =>
      Effect.gen(function*() {
        const accepted = HttpServerResponse.unsafeJson({ runId, status: "accepted" }, { status: 202 })
        if (params["respond"] !== "whenDone") return accepted
        const ended = yield* store.show(runId).pipe(
          Effect.flatMap(Option.filter(({ run }) => run.status === "succeeded" || run.status === "failed" || run.status === "unknown")),
          Effect.retry(Schedule.spaced("100 millis")),
          Effect.timeoutOption(Duration.seconds(Number(params["timeoutSeconds"] ?? 30))),
          Effect.orElseSucceed(() => Option.none())
        )
        if (Option.isNone(ended)) return accepted
        const { run, steps } = ended.value
        // The outputs of its top-level tasks by name, as a called workflow's output is.
        const outputs = Object.fromEntries(steps.filter((step) => step.path === step.name && step.status === "succeeded").map((step) => [step.name, step.output]))
        return HttpServerResponse.unsafeJson(
          { runId, status: run.status, outputs, ...(run.failedStep === undefined ? {} : { failedStep: run.failedStep }) },
          { status: run.status === "succeeded" ? 200 : 500 }
        )
      })
    let serving = true
    // The triggers served now, as health lists them: a webhook once its deliveries are received,
    // a polling trigger while this runner polls it, a schedule while it keeps it; one that cannot be, with why.
    const live = new Map<string, "listening" | "polling" | "scheduled">()
    const failed = new Map<string, string>()
    const health = Effect.suspend(() =>
      Effect.zipWith(Effect.either(store.unfinished), storageFailing, (unfinished, failing) => {
        // Reads succeeding say nothing of writes: while they are refused, deliveries are too.
        const status = !serving ? "stopping" : Option.isSome(failing) ? "storage failing" : unfinished._tag === "Right" ? "serving" : "database unreachable"
        return HttpServerResponse.unsafeJson({
          status,
          workflows: options.workflows.flatMap((served) =>
            live.has(served.name) ? [{ name: served.name, trigger: served.workflow.trigger!.step.type, state: live.get(served.name) }] : []
          ),
          notServed: options.workflows.flatMap((served) =>
            failed.has(served.name) ? [{ name: served.name, trigger: served.workflow.trigger!.step.type, reason: failed.get(served.name) }] : []
          ),
          unfinishedRuns: unfinished._tag === "Right" ? unfinished.right : null
        }, { status: status === "serving" ? 200 : 503 })
      })
    )
    // Each webhook at its path, matched in one form (`WebhookPath`): a router's own matching
    // takes a path case-insensitively and a registered one percent-encoded (`my%20hook`) never.
    // Its deliveries take the lean path (`IngestionServer`); every other request the app below.
    const byPath = new Map(webhooks.map((served) => [WebhookPath.canonical(served.publicUrl!.pathname), deliver(served)]))
    // The health check in the same one form: `/healthz` exactly, by GET or HEAD; the runs page
    // (once the server listens) everything under /runs.
    let page: RunsPage.RunsPage | undefined
    const route = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const path = WebhookPath.canonical(request.url)
      if (path === healthPath && (request.method === "GET" || request.method === "HEAD")) return health
      if (page !== undefined && RunsPage.isPagePath(path)) return page.handle
      return Effect.succeed(CappedBody.notFound)
    })
    const router: HttpRouter.HttpRouter<never, Connections.Connections> = HttpRouter.all(HttpRouter.empty, "*", route)
    const port = options.port ?? (webhooks.length > 0 ? defaultPort : undefined)
    const host = options.host ?? "127.0.0.1"
    if (port !== undefined) {
      // Built in serve's scope: it listens until serve stops (after the engine's thread).
      yield* IngestionServer.serve({ port, host, webhooks: byPath, maxBytes, app: router })
      // Made after the server: its live streams end first when serve stops, then the server closes.
      page = yield* Effect.provideService(
        RunsPage.make({ host, token: options.uiToken, wake: Effect.suspend(() => wake) }),
        RunStore.RunStore,
        store
      )
      if (webhooks.length === 0) yield* say(`● health at http://${host}:${port}/healthz`)
      yield* say(`● runs at http://${host.includes(":") ? `[${host}]` : host}:${port}/runs`)
      if (options.uiToken === undefined && RunsPage.needsTokenAt(host)) yield* say(`○ ${RunsPage.needsToken(host)} (until then it answers 403)`)
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => serving = false))

    const cluster = options.cluster ?? { host: "127.0.0.1", port: 0, shardLockExpiration: "5 seconds" }
    const engine = yield* EngineWorker.start({
      runner,
      workflows: options.workflows.map((served) => ({ name: served.name, file: served.file, publicUrl: served.publicUrl?.toString() })),
      inputs: [...options.inputs],
      connections: Object.fromEntries(options.connections),
      rateLimits: options.rateLimits,
      location: location._tag === "Embedded" ? location : { _tag: "Postgres", url: Redacted.value(location.url) },
      cluster: { host: cluster.host, port: cluster.port, shardLockExpirationMillis: Duration.toMillis(Duration.decode(cluster.shardLockExpiration)) },
      concurrency: options.concurrency ?? defaultConcurrency,
      pollIntervalMillis: options.pollInterval === undefined ? undefined : Duration.toMillis(options.pollInterval),
      otlpEndpoint: options.otlpEndpoint,
      version: options.version,
      filePolicy: yield* FilePolicy.FilePolicy,
      reportsFinished: options.finished !== undefined,
      writeFault: options.writeFault?.buffer
    }, options.finished, options.gates, (workflow, state, message) => {
      const kind = options.workflows.find((served) => served.name === workflow)?.workflow.trigger?.prepared.trigger.kind
      // A webhook reports too: "failed" while the provider dropped it, "polling" once registered again.
      if (state === "polling") live.set(workflow, kind === "SCHEDULE" ? "scheduled" : kind === "DYNAMIC_WEBHOOK" ? "listening" : "polling")
      else live.delete(workflow)
      if (state === "failed") failed.set(workflow, message ?? "")
      else failed.delete(workflow)
    })
    wake = engine.wake
    engineWrites = engine.storageFailing
    yield* engine.ready
    // Anything accepted while the engine's thread started.
    yield* engine.wake

    for (const served of webhooks) {
      const trigger = served.workflow.trigger!.prepared
      const publicUrl = served.publicUrl!.toString()
      if (isRequestTrigger(trigger.trigger)) {
        yield* say(`☛ POST JSON to ${publicUrl} with Authorization: Bearer <the ${trigger.step.connection ?? "http"} connection's token>`)
        live.set(served.name, "listening")
        continue
      }
      if (trigger.trigger.kind === "STATIC_WEBHOOK") {
        // Registered by hand: nothing to enable, remove or keep; the user needs the URL.
        yield* say(`☛ paste ${publicUrl} as the webhook URL at the provider: ${trigger.trigger.setup}`)
        live.set(served.name, "listening")
        continue
      }
      // Served once registered: by this runner's engine, or by the runner that keeps it.
      yield* Effect.raceFirst(
        engine.enableFailed(served.name),
        Effect.repeat(triggers.get(served.name), {
          schedule: Schedule.spaced("100 millis"),
          until: (record) => Option.isSome(record) && Option.isSome(record.value.state) && record.value.url === publicUrl
        }).pipe(Effect.ignore, Effect.zipRight(refreshStates.pipe(Effect.ignore)))
      )
      live.set(served.name, "listening")
    }
    for (const served of webhooks) {
      yield* say(`● serving ${served.workflow.trigger!.step.type} at ${served.publicUrl} (listening on port ${port})`)
    }
    if (options.ready !== undefined) yield* options.ready
    return yield* Effect.never
  }).pipe(Effect.scoped)

/**
 * What a run's end tells `run --serve`.
 *
 * @since 0.3.0
 * @category models
 */
export type Finished = (run: { readonly runId: string; readonly eventId: string; readonly workflow: string }, result: Interpreter.RunResult) => Effect.Effect<void>
