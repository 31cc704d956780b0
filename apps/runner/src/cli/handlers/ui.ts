/**
 * `x-runner ui`: the runs page alone, for a store whose runner is not running (or runs
 * elsewhere): it reads and acts on the runs as `x-runner runs` does, without the data
 * directory's runner lock (a `serve` started later takes it), until stopped.
 *
 * @since 0.11.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Path from "@effect/platform/Path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createServer } from "node:http"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import * as WebhookPath from "../../serve/internal/webhookPath.js"
import { locationOf } from "../internal/shared.js"

/**
 * `ui`: serves the runs page of the store at `location` on `host:port` until stopped.
 *
 * @since 0.11.0
 * @category commands
 */
export const ui = (args: {
  readonly dataDir: string
  readonly database: Option.Option<string>
  readonly host: string
  readonly port: number
  readonly uiTokenFile: string | undefined
}) =>
  Effect.gen(function*() {
    const output = yield* Output
    if (!(Number.isInteger(args.port) && args.port >= 1 && args.port <= 65535)) {
      return yield* new Errors.InvalidArguments({ message: `--port ${args.port}: a port from 1 to 65535` })
    }
    const location = yield* locationOf(args.dataDir, args.database)
    const [RunsPage, Database, RunStore] = yield* Effect.promise(() =>
      Promise.all([import("../../page/RunsPage.js"), import("../../store/Database.js"), import("../../store/RunStore.js")])
    )
    const token = yield* RunsPage.readToken(args.uiTokenFile)
    if (token === undefined && RunsPage.needsTokenAt(args.host)) {
      return yield* new Errors.InvalidArguments({ message: `--host ${args.host}: ${RunsPage.needsToken(args.host)}` })
    }
    // As `runs` opens it: a data directory without a database is not made one.
    if (location._tag === "Embedded") {
      const file = (yield* Path.Path).join(location.dataDir, "runs.db")
      if (!(yield* Effect.orElseSucceed((yield* FileSystem.FileSystem).exists(file), () => false))) {
        return yield* new Errors.InvalidArguments({ message: `no runs' database in ${location.dataDir} (serve or run --data-dir ${location.dataDir} keeps one there)` })
      }
    }
    const store = yield* Layer.build(RunStore.layer.pipe(Layer.provide(Database.layer(location)))).pipe(
      Effect.mapError((error) => error instanceof RunStore.StoreFailed ? new Errors.ServeProblem({ message: error.message }) : error)
    )
    const server = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port: args.port, host: args.host })).pipe(
      Effect.catchTag("ServeError", (error) =>
        new Errors.ServeProblem({
          message: /EADDRINUSE/.test(String(error.cause)) ? `port ${args.port} is in use` : `the server could not start: ${String(error.cause)}`
        }))
    )
    // Made after the server: its live streams end first when the command stops.
    const page = yield* Effect.provide(RunsPage.make({ host: args.host, token }), store)
    const route = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      // The one form serve routes by (raw, no dot segments resolved): the page decides the same way on both.
      const path = WebhookPath.canonical(request.url)
      if (RunsPage.isPagePath(path)) return page.handle
      if (path === "/" && (request.method === "GET" || request.method === "HEAD")) return Effect.succeed(HttpServerResponse.redirect("/runs", { status: 303 }))
      return Effect.succeed(HttpServerResponse.text("not found", { status: 404 }))
    })
    yield* Effect.provide(HttpServer.serveEffect()(HttpRouter.all(HttpRouter.empty, "*", route)), server)
    yield* output.err(`● runs at http://${args.host.includes(":") ? `[${args.host}]` : args.host}:${args.port}/runs`)
    return yield* Effect.never
  }).pipe(Effect.scoped)
