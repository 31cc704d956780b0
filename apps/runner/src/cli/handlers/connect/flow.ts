/**
 * `connect`: the OAuth2 authorization-code flow. It prints the authorization URL, serves
 * `{app_url}/callback`, checks the `state`, exchanges the code and stores the token in the
 * connections file (written to a new file created 0600, then renamed over the old one), then
 * tests the connection. `connect --test` tests a connection as configured, writing nothing:
 * the component's declared request (core's `ConnectionTest`), sent as its actions send theirs.
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
import { type Component, Connection, Connections, type ConnectionTest, OAuth2, type Property, Webhook } from "@x/core"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createServer } from "node:http"
import { Components } from "../../../components/Components.js"
import * as ConnectionValues from "../../../components/ConnectionValues.js"
import { type ConnectionProblem, ConnectProblem, type InvalidArguments, StepFailed } from "../../../Errors.js"
import * as CappedBody from "../../../internal/cappedBody.js"
import { Output } from "../../../Output.js"
import * as PrivateFile from "../../../internal/privateFile.js"
import * as ConnectionSource from "../../../components/ConnectionSource.js"

/**
 * Connects the named component, storing its token in `file`, then tests the connection.
 *
 * @since 0.2.0
 * @category constructors
 */
export const connect = (
  name: string,
  file: string,
  appUrl: string,
  /** A named connection of the component: its entry (with its `component`) is the one read and written. */
  connection?: string | undefined
): Effect.Effect<void, ConnectProblem | StepFailed, Components | Output | HttpClient.HttpClient | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const base = yield* Effect.try({ try: () => new URL(appUrl), catch: () => new ConnectProblem({ message: `--app-url ${appUrl}: not a URL` }) })
    const { entries } = yield* Components
    const output = yield* Output
    const oauth = entries.map((entry) => entry.component).filter((c) => c.connection.kind === "OAUTH2")
    const component = oauth.find((c) => c.name === name)
    if (component === undefined) {
      return yield* new ConnectProblem({
        message: `"${name}" does not connect with OAuth2; these do: ${oauth.map((c) => c.name).join(", ")}` +
          (entries.some((entry) => entry.component.name === name)
            ? ` (test ${name}'s connection as configured with x-runner connect ${name} --test)`
            : "")
      })
    }
    const problem = (error: { readonly message: string }) => new ConnectProblem({ message: error.message })
    // The file's own contents are what is written back; the environment only adds values to use.
    const own = yield* Effect.mapError(ConnectionValues.readFile(file, "empty"), problem)
    // A named connection is read from the file only; a new one starts from the default's app (clientId, clientSecret).
    const key = connection ?? name
    const withEnv = ConnectionValues.withEnvironment([component], own, process.env)
    const entry = own.get(key)
    if (entry !== undefined && connection !== undefined && Object.hasOwn(entry, "component") && entry["component"] !== name) {
      return yield* new ConnectProblem({ message: `the connection "${connection}" in ${file} is of ${String(entry["component"])}, not ${name}` })
    }
    const { component: _, ...given } = entry ?? {}
    const values = connection === undefined ? withEnv.get(name) : { ...withEnv.get(name), ...given }
    if (values === undefined || values["clientId"] === undefined || values["clientSecret"] === undefined) {
      return yield* new ConnectProblem({
        message: `put {"${key}": {${connection === undefined ? "" : `"component": "${name}", `}"clientId": …, "clientSecret": …}} in ${file}${
          connection === undefined
            ? ` (or set ${ConnectionValues.envName(name, "clientId")} and ${ConnectionValues.envName(name, "clientSecret")})`
            : ""
        } first`
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
    const updated = Object.fromEntries([
      ...own,
      [key, connection === undefined
        ? { ...own.get(name), accessToken: Redacted.value(token.accessToken) }
        : { component: name, ...appFields(own.get(name)), ...given, accessToken: Redacted.value(token.accessToken) }]
    ])
    yield* Effect.mapError(
      PrivateFile.write(file, JSON.stringify(updated, null, 2) + "\n"),
      (error) => new ConnectProblem({ message: `${file} cannot be written: ${error.message}` })
    )
    yield* output.err(
      `Connected ${name}${connection === undefined ? "" : ` as "${connection}"`}${token.scope === undefined ? "" : ` (scopes: ${token.scope})`}; the token is in ${file}.`
    )
    // The token just written, tested as the actions will send it.
    const tested = yield* testWith(component, new Map([[name, { ...values, accessToken: Redacted.value(token.accessToken) }]]), { file })
    yield* output.err(tested)
  }).pipe(Effect.scoped)

/** A default connection's fields that are the app's, not its account's: what a new named connection of it starts from in the file. */
const appFields = (values: Readonly<Record<string, unknown>> | undefined) => {
  const { accessToken: _a, component: _c, expiresAt: _e, refreshToken: _r, ...app } = values ?? {}
  return app
}

/** The connection fields that hold its credentials: required secrets (a key, a token). */
const credentialFields = (component: Component.Component) =>
  Object.entries(component.connection.props as Property.Properties)
    .filter(([, property]) => property.secret && property.required)
    .map(([field]) => field)

/** Where to put renewed credentials: `connect` again for OAuth2, else the variables or the file. */
const whereToPut = (component: Component.Component, where: { readonly sandbox?: boolean; readonly file?: string | undefined }) => {
  if (where.sandbox === true) return ""
  if (component.connection.kind === "OAUTH2") return `: x-runner connect ${component.name}`
  const fields = credentialFields(component)
  return ` (set ${fields.map((field) => ConnectionValues.envName(component.name, field)).join(" and ")}, or ${
    fields.map((field) => `"${field}"`).join(" and ")
  } under "${component.name}" in ${where.file ?? "a connections file (--connections FILE)"})`
}

/**
 * Sends the component's connection test with these values; its line on success. A failure names
 * the connection and what to do: unreachable is a `StepFailed` (exit 1: try again later), any
 * other a `ConnectProblem` (exit 2: the connection must change).
 */
const testWith = (
  component: Component.Component,
  connections: ConnectionValues.ConnectionValues,
  where: { readonly sandbox?: boolean; readonly file?: string | undefined },
  connection?: string | undefined
): Effect.Effect<string, ConnectProblem | StepFailed, Components | HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const result = yield* Effect.either(
      executor.testConnection(component, connection).pipe(Effect.provide(Connections.layer(connections)))
    )
    if (Either.isRight(result)) return result.right.message
    const failure: ConnectionTest.ConnectionTestFailed = result.left
    const message = failure.reason === "refused" ? `${failure.message}${whereToPut(component, where)}` : failure.message
    return yield* failure.reason === "unreachable" ? new StepFailed({ message }) : new ConnectProblem({ message })
  })

/**
 * `connect <component> --test`: tests the component's connection as configured (the connections
 * file, by default `connections.json` when it exists, and `XRUNNER_<COMPONENT>_<FIELD>`; or the
 * sandbox's), writing nothing, and prints one line saying whose the credentials are.
 *
 * @since 0.3.0
 * @category constructors
 */
export const test = (
  name: string,
  source: { readonly sandbox: boolean; readonly file: Option.Option<string> },
  /** A named connection of the component to test instead of its default. */
  connection?: string | undefined
): Effect.Effect<
  void,
  ConnectProblem | StepFailed | ConnectionProblem | InvalidArguments,
  Components | Output | HttpClient.HttpClient | FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const component = executor.registry.components.find((c) => c.name === name)
    if (component === undefined) {
      return yield* new ConnectProblem({
        message: `there is no component "${name}"; there are: ${executor.registry.components.map((c) => c.name).join(", ")}`
      })
    }
    const fs = yield* FileSystem.FileSystem
    // Left out, the connections file is the one `connect` writes, when there is one.
    const file = Option.isSome(source.file) || source.sandbox
      ? source.file
      : (yield* Effect.orElseSucceed(fs.exists("connections.json"), () => false))
      ? Option.some("connections.json")
      : Option.none()
    const { connections } = yield* ConnectionSource.connect({ sandbox: source.sandbox, file, withoutRateLimits: false }, [{ component, connection }])
    const tested = yield* testWith(component, connections, { sandbox: source.sandbox, file: Option.getOrUndefined(file) }, connection)
    yield* Effect.flatMap(Output, (output) => output.out(tested))
  }).pipe(Effect.scoped)
