/**
 * `serve`: enables the workflow's trigger (a webhook registered with the provider, pointing at
 * the public URL), receives its deliveries, and runs the tasks once per accepted event, one at
 * a time. On interruption (SIGINT, SIGTERM) it disables the trigger. A static webhook (its URL
 * registered by hand in the provider's dashboard) is neither enabled nor disabled: `serve`
 * prints the URL to paste there, and receives its deliveries the same way. The trigger's
 * connection comes from the `Connections` service, like every step's. A polling trigger is
 * served by `ServePolling` instead (no URL, no server).
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
import type * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import { createServer } from "node:http"
import { Components } from "./Components.js"
import { type DamagedData, ServeProblem } from "./Errors.js"
import * as CappedBody from "./internal/cappedBody.js"
import * as EventWorker from "./internal/eventWorker.js"
import type * as Journal from "./Journal.js"
import { Output } from "./Output.js"
import type * as Run from "./Run.js"
import * as ServePolling from "./ServePolling.js"
import * as TriggerState from "./TriggerState.js"
import * as Workflow from "./Workflow.js"

/**
 * What `serve` serves.
 *
 * @since 0.2.0
 * @category models
 */
export interface ServeOptions {
  readonly workflow: Workflow.Workflow
  /** Where a webhook trigger's deliveries come (not used by a polling trigger). */
  readonly publicUrl: URL | undefined
  readonly port: number
  readonly dataDir: string
  /** A polling trigger's interval, instead of the one it declares. */
  readonly pollInterval?: Duration.Duration | undefined
  /** Run once a webhook trigger is enabled and its deliveries are received (`run --serve` waits on it). */
  readonly ready?: Effect.Effect<void> | undefined
  /** Told of each event's run, once it ended. */
  readonly finished?: ((event: Journal.Event, result: Run.RunResult) => Effect.Effect<void>) | undefined
}

type Needs = Components | Output | Connections.Connections | FileSystem.FileSystem | Path.Path

/**
 * Serves the workflow until interrupted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const serve = (options: ServeOptions): Effect.Effect<never, ServeProblem | DamagedData, Needs> =>
  options.workflow.trigger?.prepared.trigger.kind === "POLLING" ? ServePolling.serve(options) : serveWebhook(options)

const serveWebhook = (options: ServeOptions): Effect.Effect<never, ServeProblem | DamagedData, Needs> =>
  Effect.gen(function*() {
    const { dataDir, workflow } = options
    const { executor } = yield* Components
    const output = yield* Output
    const say = output.err
    const checked = workflow.trigger
    if (checked === undefined) return yield* new ServeProblem({ message: "the workflow has no trigger to serve" })
    if (options.publicUrl === undefined) {
      return yield* new ServeProblem({ message: `${checked.step.type} is a webhook trigger: serving it needs --public-url` })
    }
    // Prepared by the check (resolved, its parameters decoded): nothing is decoded again per delivery.
    const trigger = checked.prepared
    const publicUrl = options.publicUrl.toString()

    // One run at a time, in the order events were accepted; started once the trigger is enabled.
    const { accept, journal, start: worker } = yield* EventWorker.open(dataDir, workflow, executor, say, options.finished)
    // Read before anything is served: a state that cannot be read stops the start.
    const stale = yield* TriggerState.read(dataDir)

    let state: unknown = undefined
    const maxBytes = Webhook.defaultMaxBytes
    const deliver = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = yield* CappedBody.read(request, maxBytes)
      if (Option.isNone(body)) return CappedBody.tooLarge(maxBytes)
      // Every request goes to the trigger, the provider's check of the URL (before the webhook
      // and its state exist) too.
      const handled = yield* Effect.either(executor.handleDelivery(trigger, state ?? {}, {
        method: request.method,
        url: publicUrl,
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
        if (journal.seen(event.id)) {
          yield* say(`= event ${event.id} was delivered again: already accepted, not run twice`)
          // Acknowledged only once the first delivery's record is on disk too.
          yield* journal.durable(event.id)
          continue
        }
        // Not cut short by a client that goes away: an event on disk is also queued to run.
        const accepted = yield* Effect.either(accept(event))
        if (accepted._tag === "Left") {
          yield* say(`✘ event ${event.id} could not be written to the journal, so it is not acknowledged: ${accepted.left.message}`)
          return HttpServerResponse.text("could not record the delivery", { status: 503 })
        }
      }
      return HttpServerResponse.text(response.body ?? "", { status: response.status })
    })
    yield* HttpServer.serveEffect()(HttpRouter.empty.pipe(
      HttpRouter.all(new URL(publicUrl).pathname as HttpRouter.PathInput, deliver),
      HttpRouter.all("*", Effect.succeed(CappedBody.notFound))
    ))

    if (trigger.trigger.kind === "STATIC_WEBHOOK") {
      // Registered by hand: nothing to enable, remove or keep; the user needs the URL.
      yield* say(`☛ paste ${publicUrl} as the webhook URL at the provider: ${trigger.trigger.setup}`)
      yield* worker
      yield* say(`● serving ${trigger.step.type} at ${publicUrl} (listening on port ${options.port})`)
      return yield* Effect.never
    }

    // A webhook a crash left behind goes first, or the provider refuses a second one.
    if (Option.isSome(stale)) {
      yield* Effect.matchEffect(executor.disableTrigger(trigger, stale.value), {
        onSuccess: () => say("↻ removed the trigger a previous run left enabled"),
        onFailure: (error) => say(`✘ the previous trigger could not be removed: ${error.message}`)
      })
      yield* TriggerState.clear(dataDir)
    }
    state = yield* Effect.acquireRelease(
      Effect.mapError(executor.enableTrigger(trigger, publicUrl), (error) =>
        new ServeProblem({ message: `the trigger could not be enabled: ${error._tag}: ${error.message}` })).pipe(
          Effect.tap((enabled) => TriggerState.write(dataDir, enabled))
        ),
      (enabled) =>
        Effect.matchEffect(executor.disableTrigger(trigger, enabled), {
          onSuccess: () => Effect.zipRight(TriggerState.clear(dataDir), say("■ trigger disabled")),
          onFailure: (error) => say(`✘ the trigger could not be disabled: ${error.message}`)
        })
    )
    yield* worker
    yield* say(`● serving ${trigger.step.type} at ${publicUrl} (listening on port ${options.port})`)
    if (options.ready !== undefined) yield* options.ready
    return yield* Effect.never
  }).pipe(
    Effect.provide(NodeHttpServer.layer(() => createServer(), { port: options.port, host: "127.0.0.1" })),
    Effect.catchTag("ServeError", (error) =>
      new ServeProblem({
        message: /EADDRINUSE/.test(String(error.cause)) ? `port ${options.port} is in use` : `the server could not start: ${String(error.cause)}`
      })),
    Effect.scoped
  )
