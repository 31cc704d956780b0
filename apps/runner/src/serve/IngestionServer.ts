/**
 * The HTTP side of `serve`: one `node:http` server on which a webhook's deliveries take a lean
 * path and everything else (the health check, the runs page under `/runs`, a 404) is the
 * `@effect/platform` app's (`NodeHttpServer.makeHandler`). `@effect/platform`'s server makes a
 * fiber, a request object with its headers, a router match, middleware and a response
 * conversion per request; a delivery needs none of it: its path is looked up in a map, its body
 * read under the cap (`Webhook.readBody`), and its handler (an Effect: the signature checked,
 * the event committed) runs in one fiber whose answer is written to the Node response as it is.
 *
 * What a delivery's handler is given and answers keeps `@effect/platform`'s shapes (its
 * `Headers`, an `HttpServerResponse`), so that deliveries are answered as before, to the header.
 *
 * @since 0.12.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Headers from "@effect/platform/Headers"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import type * as Scope from "effect/Scope"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { ServeProblem } from "../Errors.js"
import * as CappedBody from "../internal/cappedBody.js"
import * as WebhookPath from "./internal/webhookPath.js"

/**
 * A delivery as its handler sees it: the method, the headers (lower-case names, repeated ones
 * joined, as `@effect/platform` gives them) and the body, read whole under the cap.
 *
 * @since 0.12.0
 * @category models
 */
export interface Delivery {
  readonly method: string
  readonly headers: Headers.Headers
  /**
   * The body, or none when it is over the cap (then answer `CappedBody.tooLarge`: the rest
   * is dropped as it arrives); read when first asked for, so that a delivery refused before
   * it is read is not read at all. Empty when the client went away before its end.
   */
  readonly body: Effect.Effect<Option.Option<Uint8Array>>
}

/**
 * What handles the deliveries to one path.
 *
 * @since 0.12.0
 * @category models
 */
export type Handler<R> = (delivery: Delivery) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>

/**
 * What the server serves.
 *
 * @since 0.12.0
 * @category models
 */
export interface Options<R> {
  readonly port: number
  readonly host: string
  /** The webhooks' handlers by path (`WebhookPath.canonical`): the lean path. */
  readonly webhooks: ReadonlyMap<string, Handler<R>>
  /** A delivery's body cap (`CappedBody`). */
  readonly maxBytes: number
  /** Every other request's app. */
  readonly app: HttpApp.Default<unknown, R>
}

/** What a request body may be read up to by the app, as `NodeHttpServer.make` sets it (10 MiB). */
const appMaxBodySize = Option.some(FileSystem.Size(10 * 1024 * 1024))

/**
 * An answer's body as Node writes it: a text or bytes (what deliveries are answered with), or
 * `undefined` for none. A stream or a form is no delivery's answer: one is a mistake here, not
 * a client's, and answered as a defect.
 */
const contentOf = (body: HttpServerResponse.HttpServerResponse["body"]): string | Uint8Array | undefined | "defect" => {
  switch (body._tag) {
    case "Empty":
      return undefined
    case "Uint8Array":
      return body.body
    case "Raw":
      return typeof body.body === "string" || body.body instanceof Uint8Array ? body.body : "defect"
    default:
      return "defect"
  }
}

/**
 * Ends the Node response with `status` and no body (a defect's 500, an interruption's 503, as
 * `@effect/platform` answers them), or, once an answer was begun, cuts its connection: the
 * client sees it unfinished rather than whole.
 */
const fail = (status: number, nodeResponse: ServerResponse) => {
  if (nodeResponse.writableEnded) return
  if (nodeResponse.headersSent) return void nodeResponse.destroy()
  try {
    nodeResponse.writeHead(status)
    nodeResponse.end()
  } catch {
    nodeResponse.destroy()
  }
}

/**
 * Writes an answer to the Node response. It runs in the handler's fiber's observer, where a
 * throw (Node refuses a status out of range or a header it cannot send) would end the process:
 * such an answer is a defect's 500 instead.
 */
const write = (method: string, response: HttpServerResponse.HttpServerResponse, nodeResponse: ServerResponse) => {
  if (nodeResponse.writableEnded) return
  const content = contentOf(response.body)
  if (content === "defect") return fail(500, nodeResponse)
  try {
    nodeResponse.writeHead(response.status, response.headers)
    if (method === "HEAD" || content === undefined) nodeResponse.end()
    else nodeResponse.end(content)
  } catch {
    fail(500, nodeResponse)
  }
}

/**
 * Listens on `port` until the scope closes (then the server stops taking connections and the
 * scope waits for those open to end, as `NodeHttpServer` does); a port in use fails.
 *
 * @since 0.12.0
 * @category constructors
 */
export const serve = <R>(options: Options<R>): Effect.Effect<Server, ServeProblem, R | Scope.Scope> =>
  Effect.gen(function*() {
    // Handlers interruptible (their client's leaving stops them) however the server was started
    // (a runtime taken in an uninterruptible region, such as a resource's acquisition, is not).
    const runtime = Runtime.enableRuntimeFlag(yield* Effect.runtime<R>(), RuntimeFlags.Interruption)
    const runFork = Runtime.runFork(runtime)
    // What `NodeHttpServer.layer` gives the app beside the server (the platform, ETags, Node's file system).
    const platform = yield* Layer.build(NodeHttpServer.layerContext)
    const app = yield* NodeHttpServer.makeHandler(options.app).pipe(
      Effect.provide(platform),
      Effect.provideService(HttpIncomingMessage.MaxBodySize, appMaxBodySize)
    )
    // Once the server is closing, an answer ends its connection (`Connection: close`): a client's
    // idle keep-alive connection would hold the close until its timeout (5 s). The app's requests
    // in flight are kept to be told so at the close (the app writes their answers itself).
    let closing = false
    const appAnswering = new Set<ServerResponse>()
    const deliver = (handler: Handler<R>, request: IncomingMessage, nodeResponse: ServerResponse) => {
      const method = request.method ?? "GET"
      const body = CappedBody.readIncoming(request, options.maxBytes)
      const fiber = runFork(handler({ method, headers: Headers.fromInput(request.headers), body }))
      let clientLeft = false
      fiber.addObserver((exit) => {
        if (closing) nodeResponse.shouldKeepAlive = false
        if (Exit.isSuccess(exit)) return write(method, exit.value, nodeResponse)
        // Interrupted by its client's leaving: nobody to answer. Otherwise an answer (503 for an
        // interruption, 500 for a defect, as `@effect/platform` answers them), so that the
        // connection does not stay open unanswered (the server's close would wait on it).
        if (clientLeft) return
        fail(Cause.isInterruptedOnly(exit.cause) ? 503 : 500, nodeResponse)
      })
      // A client that goes away before its answer: what the handler does not protect stops.
      nodeResponse.once("close", () => {
        if (nodeResponse.writableEnded) return
        clientLeft = true
        fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
      })
    }
    const server = yield* Effect.acquireRelease(
      Effect.sync(() =>
        createServer((request, nodeResponse) => {
          if (closing) nodeResponse.shouldKeepAlive = false
          const handler = options.webhooks.size === 0 ? undefined : options.webhooks.get(WebhookPath.canonical(request.url ?? "/"))
          if (handler !== undefined) return deliver(handler, request, nodeResponse)
          appAnswering.add(nodeResponse)
          nodeResponse.once("close", () => appAnswering.delete(nodeResponse))
          app(request, nodeResponse)
        })
      ),
      (server) =>
        Effect.async<void>((resume) => {
          if (!server.listening) return resume(Effect.void)
          closing = true
          for (const answering of appAnswering) answering.shouldKeepAlive = false
          // Node closes the idle connections; those with a request in flight end at its answer
          // (one whose answer was begun, such as the page's live stream, ends with it).
          server.close(() => resume(Effect.void))
        })
    )
    yield* Effect.async<void, ServeProblem>((resume) => {
      const failed = (error: Error) =>
        resume(Effect.fail(
          new ServeProblem({
            message: /EADDRINUSE/.test(String(error)) ? `port ${options.port} is in use` : `the server could not start: ${String(error)}`
          })
        ))
      server.once("error", failed)
      server.listen({ port: options.port, host: options.host }, () => {
        server.off("error", failed)
        resume(Effect.void)
      })
    })
    return server
  })
