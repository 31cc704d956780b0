/**
 * `serve`: enables the workflow's trigger (a webhook registered with the provider, pointing at
 * the public URL), receives its deliveries, and runs the tasks once per accepted event. On
 * interruption (SIGINT, SIGTERM) it disables the trigger.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Executor } from "@x/core"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import { createServer } from "node:http"
import type { Connections } from "./Connections.js"
import * as Journal from "./Journal.js"
import * as References from "./References.js"
import * as Run from "./Run.js"
import * as TriggerState from "./TriggerState.js"
import type { Workflow } from "./Workflow.js"

export class ServeProblem extends Error {}

const maxDeliveryBytes = 1024 * 1024

export interface ServeOptions {
  readonly executor: Executor.Executor
  readonly workflow: Workflow
  readonly connections: Connections
  readonly inputs: Readonly<Record<string, unknown>>
  readonly publicUrl: string
  readonly port: number
  readonly dataDir: string
  readonly say: (line: string) => void
}

export const serve = (options: ServeOptions): Effect.Effect<never, ServeProblem, HttpClient.HttpClient> => {
  const { connections, executor, publicUrl, say, workflow } = options
  const declared = workflow.triggers[0]
  if (declared === undefined) return Effect.fail(new ServeProblem("the workflow has no trigger to serve"))
  // The trigger's own parameters may refer to the inputs.
  let trigger: typeof declared
  try {
    trigger = { ...declared, parameters: References.resolve(declared.parameters, { inputs: options.inputs }) as Record<string, unknown> }
  } catch (error) {
    return Effect.fail(new ServeProblem((error as Error).message))
  }
  const connection = connections[trigger.type.split("/")[0]!]
  const path = new URL(publicUrl).pathname
  return Effect.gen(function*() {
    const journal = yield* Effect.acquireRelease(
      Effect.sync(() => Journal.open(options.dataDir)),
      (j) => Effect.promise(() => j.close())
    )
    const events = yield* Queue.unbounded<{ readonly id: string; readonly output: unknown }>()
    for (const event of journal.unfinished) {
      say(`↻ event ${event.id} was accepted before a stop and not finished: it runs once the trigger is enabled`)
      yield* Queue.offer(events, event)
    }
    // One run at a time, in the order events were accepted; started once the trigger is enabled.
    const worker = Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(events), (event) =>
      Effect.gen(function*() {
        say(`▶ event ${event.id}`)
        const result = yield* Run.run(executor, workflow, connections, { inputs: { ...options.inputs }, trigger: event.output }, {
          started: () => {},
          finished: (step) =>
            say(`  ${step.status === "succeeded" ? "✔" : step.status === "failed" ? "✘" : "–"} ${step.name} ${step.status}${
              step.error === undefined ? "" : `: ${step.error.tag}: ${step.error.message}`
            }`)
        })
        // Not waited for: a run whose record is lost runs again at the next start, which
        // steps (at least once) allow; the next run need not wait for the disk.
        journal.finish(event.id, result.status).catch((error: Error) =>
          say(`✘ event ${event.id} could not be recorded as finished (it runs again at the next start): ${error.message}`))
        say(`■ event ${event.id} ${result.status}`)
      })
    )))
    let state: unknown = undefined
    const app = HttpRouter.empty.pipe(HttpRouter.all(
      path as HttpRouter.PathInput,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        // The provider's check of the URL, before the webhook (and its state) exists.
        if (request.method === "HEAD") return HttpServerResponse.empty({ status: 200 })
        // Refused before it is read: a delivery is at most 1 MiB.
        if (Number(request.headers["content-length"] ?? 0) > maxDeliveryBytes) {
          return HttpServerResponse.text(`a delivery is at most ${maxDeliveryBytes} bytes`, { status: 413 })
        }
        const body = new Uint8Array(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
        const handled = yield* Effect.either(executor.handleDelivery(trigger, connection, state ?? {}, {
          method: request.method,
          url: publicUrl,
          headers: request.headers,
          body
        }))
        if (handled._tag === "Left") {
          say(`✘ a delivery could not be handled: ${handled.left._tag}: ${handled.left.message}`)
          return HttpServerResponse.text("could not handle the delivery", { status: 500 })
        }
        const { events: delivered, response } = handled.right
        if (response.status >= 400) say(`✘ a delivery was rejected (${response.status}): ${response.body ?? ""}`)
        for (const event of delivered) {
          if (journal.seen(event.id)) {
            say(`= event ${event.id} was delivered again: already accepted, not run twice`)
            // Acknowledged only once the first delivery's record is on disk too.
            yield* Effect.promise(() => journal.durable(event.id))
            continue
          }
          // Not cut short by a client that goes away: an event on disk is also queued to run.
          yield* Effect.uninterruptible(
            Effect.zipRight(Effect.promise(() => journal.accept(event.id, event.output)), Queue.offer(events, event))
          )
        }
        return HttpServerResponse.text(response.body ?? "", { status: response.status })
      }).pipe(Effect.orDie)
    ))
    yield* HttpServer.serveEffect()(app)
    // A webhook a crash left behind goes first, or the provider refuses a second one.
    const stale = TriggerState.read(options.dataDir)
    if (stale !== undefined) {
      yield* Effect.matchEffect(executor.disableTrigger(trigger, connection, stale), {
        onSuccess: () => Effect.sync(() => say("↻ removed the trigger a previous run left enabled")),
        onFailure: (error) => Effect.sync(() => say(`✘ the previous trigger could not be removed: ${error.message}`))
      })
      TriggerState.clear(options.dataDir)
    }
    state = yield* Effect.acquireRelease(
      Effect.mapError(executor.enableTrigger(trigger, connection, publicUrl), (error) =>
        new ServeProblem(`the trigger could not be enabled: ${error._tag}: ${error.message}`)).pipe(
          Effect.tap((enabled) => Effect.sync(() => TriggerState.write(options.dataDir, enabled)))
        ),
      (enabled) =>
        Effect.matchEffect(executor.disableTrigger(trigger, connection, enabled), {
          onSuccess: () => Effect.sync(() => {
            TriggerState.clear(options.dataDir)
            say("■ trigger disabled")
          }),
          onFailure: (error) => Effect.sync(() => say(`✘ the trigger could not be disabled: ${error.message}`))
        })
    )
    yield* worker
    say(`● serving ${trigger.type} at ${publicUrl} (listening on port ${options.port})`)
    return yield* Effect.never
  }).pipe(
    Effect.provide(NodeHttpServer.layer(() => createServer(), { port: options.port, host: "127.0.0.1" })),
    Effect.mapError((error) =>
      error instanceof ServeProblem
        ? error
        : new ServeProblem(/EADDRINUSE/.test(String((error as { cause?: unknown }).cause ?? error)) ? `port ${options.port} is in use` : `the server could not start: ${String((error as { cause?: unknown }).cause ?? error)}`)
    ),
    Effect.scoped
  )
}
