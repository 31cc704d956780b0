/**
 * Running a connection's test on its opened connection: written once for the executor and the
 * typed clients. Any failure, opening included, becomes a `ConnectionTestFailed` that names the
 * connection, says whether the credentials were refused or the provider not reached, and what
 * to do.
 */
import * as Effect from "effect/Effect"
import type * as Component from "../Component.js"
import * as ConnectionTest from "../ConnectionTest.js"
import type { ConnectorError } from "../ConnectorError.js"
import type { Opened } from "./open.js"

const reasonOf = (error: ConnectorError): ConnectionTest.Reason => {
  switch (error._tag) {
    case "AuthenticationFailed":
    case "PermissionDenied":
      return "refused"
    case "UpstreamUnavailable":
    case "Timeout":
    case "RateLimited":
      return "unreachable"
    case "InvalidInput":
      // An InvalidInput with a status is the provider's 400; without one, the values did not decode.
      return error.status === undefined ? "invalid" : "unexpected"
    default:
      return "unexpected"
  }
}

const remedyOf = (reason: ConnectionTest.Reason, error: ConnectorError, test: ConnectionTest.ConnectionTest, baseUrl: string) => {
  switch (reason) {
    case "refused":
      return test.whenRefused
    case "unreachable":
      return error._tag === "RateLimited"
        ? "the provider is limiting requests on these credentials: try again later"
        : `check that ${baseUrl} is reachable from here, or try again later if the provider is down`
    case "invalid":
      return "give the connection the values it names"
    default:
      return `check that the connection's base URL (${baseUrl}) is the provider's API`
  }
}

const what: Record<ConnectionTest.Reason, string> = {
  refused: "refused the credentials",
  unreachable: "could not be reached",
  invalid: "cannot be opened",
  unexpected: "answered unexpectedly",
  undeclared: "declares no test"
}

/** The failure of a test (or of opening its connection), classified. */
const failed = (
  test: ConnectionTest.ConnectionTest,
  baseUrl: string,
  error: ConnectorError,
  name: string
): ConnectionTest.ConnectionTestFailed => {
  const reason = reasonOf(error)
  const remedy = remedyOf(reason, error, test, baseUrl)
  const status = "status" in error ? error.status : undefined
  const request = "request" in error ? error.request : undefined
  const said = `${status === undefined ? "" : `${status} `}${error.message}`
  const subject = reason === "invalid" ? `the ${name} connection` : `${baseUrl}`
  return new ConnectionTest.ConnectionTestFailed({
    connection: name,
    reason,
    request,
    status,
    providerMessage: error.message,
    remedy,
    message: `connection ${name}: ${subject} ${what[reason]} (${
      request === undefined ? "" : `${request.method} ${request.path}: `
    }${said}): ${remedy}`,
    error
  })
}

/** The OAuth2 scopes the component's actions need that these scopes lack. */
const lacking = (component: Component.Component, scopes: ReadonlyArray<string> | undefined): ReadonlyArray<string> => {
  const needed = component.connection.oauth2?.scopes ?? []
  if (scopes === undefined) return []
  const held = new Set(scopes)
  return needed.filter((scope) => !held.has(scope))
}

/**
 * Opens the component's connection (`open`) and sends its test; a failure of either is a
 * `ConnectionTestFailed`. What the answer says is scrubbed of the connection's secrets.
 */
export const run = (
  component: Component.Component,
  open: Effect.Effect<Opened, ConnectorError>,
  /** What messages call the connection: a named connection's name (the component's by default). */
  name: string = component.name
): Effect.Effect<ConnectionTest.Result, ConnectionTest.ConnectionTestFailed> => {
  const test = component.connection.test
  if (test === undefined) {
    return Effect.fail(
      new ConnectionTest.ConnectionTestFailed({
        connection: name,
        reason: "undeclared",
        providerMessage: "nothing was sent",
        remedy: "run one of its actions to see whether the credentials work",
        message: `connection ${name}: the component declares no connection test`
      })
    )
  }
  const defaultBaseUrl = component.connection.client.defaultBaseUrl
  return Effect.flatMap(
    Effect.mapError(open, (error) => failed(test, defaultBaseUrl, error, name)),
    (opened) =>
      Effect.mapError(
        Effect.map(opened.client.json(test.request, test.answer), (answer): ConnectionTest.Result => {
          const { account, scopes } = opened.scrub(test.identify(answer))
          const missingScopes = lacking(component, scopes)
          const request = { method: test.request.method, path: test.request.path }
          return {
            connection: name,
            request,
            account,
            scopes,
            missingScopes,
            message: `connection ${name}: the credentials work${account === undefined ? "" : ` (${account})`}` +
              (missingScopes.length === 0
                ? ""
                : `, but they lack the scope${missingScopes.length === 1 ? "" : "s"} ${missingScopes.join(", ")} that some actions need: connect again to grant ${
                  missingScopes.length === 1 ? "it" : "them"
                }`)
          }
        }),
        (error) => failed(test, opened.client.baseUrl, error, name)
      )
  )
}
