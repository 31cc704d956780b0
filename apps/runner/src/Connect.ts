/**
 * `connect`: the OAuth2 authorization-code flow. It prints the authorization URL, serves
 * `{app_url}/callback`, checks the `state`, exchanges the code and stores the token in the
 * connections file (written to a new file created 0600, then renamed over the old one).
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Connection, OAuth2, Webhook } from "@x/core"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createServer } from "node:http"
import { Components } from "./Components.js"
import * as ConnectionValues from "./ConnectionValues.js"
import { ConnectProblem } from "./Errors.js"
import * as CappedBody from "./internal/cappedBody.js"
import { Output } from "./Output.js"
import * as PrivateFile from "./internal/privateFile.js"

/**
 * Connects the named component, storing its token in `file`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const connect = (
  name: string,
  file: string,
  appUrl: string
): Effect.Effect<void, ConnectProblem, Components | Output | HttpClient.HttpClient | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const base = yield* Effect.try({ try: () => new URL(appUrl), catch: () => new ConnectProblem({ message: `--app-url ${appUrl}: not a URL` }) })
    const { entries } = yield* Components
    const output = yield* Output
    const oauth = entries.map((entry) => entry.component).filter((c) => c.connection.kind === "OAUTH2")
    const component = oauth.find((c) => c.name === name)
    if (component === undefined) {
      return yield* new ConnectProblem({ message: `"${name}" does not connect with OAuth2; these do: ${oauth.map((c) => c.name).join(", ")}` })
    }
    const problem = (error: { readonly message: string }) => new ConnectProblem({ message: error.message })
    // The file's own contents are what is written back; the environment only adds values to use.
    const own = yield* Effect.mapError(ConnectionValues.readFile(file, "empty"), problem)
    const values = ConnectionValues.withEnvironment([component], own, process.env).get(component.name)
    if (values === undefined || values["clientId"] === undefined || values["clientSecret"] === undefined) {
      return yield* new ConnectProblem({
        message: `put {"${name}": {"clientId": …, "clientSecret": …}} in ${file} (or set ${ConnectionValues.envName(name, "clientId")} and ${
          ConnectionValues.envName(name, "clientSecret")
        }) first`
      })
    }
    const redirectUri = `${appUrl.replace(/\/+$/, "")}/callback`
    const state = OAuth2.makeState()
    const url = yield* Effect.mapError(Connection.authorizationUrl(component.connection, values, { redirectUri, state }), problem)
    const callback = yield* Deferred.make<URLSearchParams>()
    const maxBytes = Webhook.defaultMaxBytes
    const app = HttpRouter.empty.pipe(
      HttpRouter.get(
        `${base.pathname.replace(/\/+$/, "")}/callback` as HttpRouter.PathInput,
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          // A callback has no body: one is read no further than the cap.
          if (Option.isNone(yield* CappedBody.read(request, maxBytes))) return CappedBody.tooLarge(maxBytes)
          yield* Deferred.succeed(callback, new URL(request.url, "http://callback").searchParams)
          return HttpServerResponse.text("Received: the terminal says whether the connection succeeded. You can close this page.")
        })
      ),
      HttpRouter.all("*", Effect.succeed(CappedBody.notFound))
    )
    // The callback server lives as long as the flow.
    const server = HttpServer.serve(app).pipe(
      Layer.provide(NodeHttpServer.layer(() => createServer(), { port: Number(base.port || 80), host: base.hostname }))
    )
    yield* Layer.build(server).pipe(
      Effect.catchTag("ServeError", (error) =>
        new ConnectProblem({ message: /EADDRINUSE/.test(String(error.cause)) ? `port ${base.port} is in use` : String(error.cause) }))
    )
    yield* output.err(`Open this URL to connect ${name}:\n${url}\nWaiting for ${redirectUri} …`)
    const query = yield* Deferred.await(callback)
    if (query.get("error") !== null) {
      return yield* new ConnectProblem({ message: `the provider refused: ${query.get("error")} ${query.get("error_description") ?? ""}`.trim() })
    }
    yield* Effect.mapError(OAuth2.checkState(state, query.get("state") ?? undefined), problem)
    const token = yield* Effect.mapError(
      Connection.exchangeCode(component.connection, values, { code: query.get("code") ?? "", redirectUri }),
      (error) => new ConnectProblem({ message: `${error._tag}: ${error.message}` })
    )
    const updated = Object.fromEntries([...own, [name, { ...own.get(name), accessToken: Redacted.value(token.accessToken) }]])
    yield* Effect.mapError(
      PrivateFile.write(file, JSON.stringify(updated, null, 2) + "\n"),
      (error) => new ConnectProblem({ message: `${file} cannot be written: ${error.message}` })
    )
    yield* output.err(`Connected ${name}${token.scope === undefined ? "" : ` (scopes: ${token.scope})`}; the token is in ${file}.`)
  }).pipe(Effect.scoped)
