/**
 * `connect`: the OAuth2 authorization-code flow. It prints the authorization URL, serves
 * `{app_url}/callback`, checks the `state`, exchanges the code and stores the token in the
 * connections file (written with mode 0600).
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Connection, OAuth2 } from "@x/core"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { chmodSync, existsSync, renameSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { components } from "./components.js"
import * as Connections from "./Connections.js"

export class ConnectProblem extends Error {}

export const connect = (name: string, file: string, appUrl: string, say: (line: string) => void) => {
  let base: URL
  try {
    base = new URL(appUrl)
  } catch {
    return Effect.fail(new ConnectProblem(`--app-url ${appUrl}: not a URL`))
  }
  return Effect.gen(function*() {
    const component = components.find((c) => c.name === name)
    if (component === undefined || component.connection.kind !== "OAUTH2") {
      const oauth = components.filter((c) => c.connection.kind === "OAUTH2").map((c) => c.name)
      return yield* Effect.fail(new ConnectProblem(`"${name}" does not connect with OAuth2; these do: ${oauth.join(", ")}`))
    }
    // The file's own contents are what is written back; the environment only adds values to use.
    const own = yield* Effect.try({
      try: () => existsSync(file) ? Connections.load(file, {}) : {},
      catch: (error) => new ConnectProblem((error as Error).message)
    })
    const all = yield* Effect.try({
      try: () => Connections.load(existsSync(file) ? file : undefined, process.env),
      catch: (error) => new ConnectProblem((error as Error).message)
    })
    const values = all[name]
    if (values === undefined || values["clientId"] === undefined || values["clientSecret"] === undefined) {
      return yield* Effect.fail(
        new ConnectProblem(`put {"${name}": {"clientId": …, "clientSecret": …}} in ${file} (or set ${Connections.envName(name, "clientId")} and ${Connections.envName(name, "clientSecret")}) first`)
      )
    }
    const redirectUri = `${appUrl.replace(/\/+$/, "")}/callback`
    const state = OAuth2.makeState()
    const url = yield* Effect.mapError(
      Connection.authorizationUrl(component.connection, values, { redirectUri, state }),
      (error) => new ConnectProblem(error.message)
    )
    const callback = yield* Deferred.make<URLSearchParams>()
    const app = HttpRouter.empty.pipe(
      HttpRouter.get(
        `${base.pathname.replace(/\/+$/, "")}/callback` as HttpRouter.PathInput,
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const query = new URL(request.url, "http://callback").searchParams
          return Effect.as(
            Deferred.succeed(callback, query),
            HttpServerResponse.text("Received: the terminal says whether the connection succeeded. You can close this page.")
          )
        })
      )
    )
    yield* HttpServer.serveEffect()(app)
    say(`Open this URL to connect ${name}:\n${url}\nWaiting for ${redirectUri} …`)
    const query = yield* Deferred.await(callback)
    if (query.get("error") !== null) {
      return yield* Effect.fail(new ConnectProblem(`the provider refused: ${query.get("error")} ${query.get("error_description") ?? ""}`.trim()))
    }
    yield* Effect.mapError(OAuth2.checkState(state, query.get("state") ?? undefined), (error) => new ConnectProblem(error.message))
    const token = yield* Effect.mapError(
      Connection.exchangeCode(component.connection, values, { code: query.get("code") ?? "", redirectUri }),
      (error) => new ConnectProblem(`${error._tag}: ${error.message}`)
    )
    const updated = { ...own, [name]: { ...own[name], accessToken: Redacted.value(token.accessToken) } }
    // Written to a new file created 0600, then renamed over the old one: never readable by others.
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(updated, null, 2) + "\n", { mode: 0o600 })
    chmodSync(temporary, 0o600)
    renameSync(temporary, file)
    say(`Connected ${name}${token.scope === undefined ? "" : ` (scopes: ${token.scope})`}; the token is in ${file}.`)
  }).pipe(
    // The callback server lives as long as the flow.
    Effect.provide(NodeHttpServer.layer(() => createServer(), { port: Number(base.port || 80), host: base.hostname })),
    Effect.mapError((error) =>
      error instanceof ConnectProblem
        ? error
        : new ConnectProblem(/EADDRINUSE/.test(String((error as { cause?: unknown }).cause ?? error)) ? `port ${base.port} is in use` : String(error))
    ),
    Effect.scoped
  )
}
