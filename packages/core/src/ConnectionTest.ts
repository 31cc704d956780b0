/**
 * Connection tests: the one cheap authenticated request a connection declares to prove that
 * its credentials work (what every platform runs when credentials are entered), what it found
 * out (who the credentials belong to, their scopes), and its typed failure, which says whether
 * the provider refused the credentials or could not be reached, what it said, and what to do.
 * The executor (`testConnection`) and the typed clients (`testConnection()`) run it through the
 * connection's own `ProviderClient`: auth, retries and scrubbing as for any action.
 *
 * @since 0.3.0
 */
import * as Data from "effect/Data"
import type * as Schema from "effect/Schema"
import type { ConnectorError, RequestInfo } from "./ConnectorError.js"
import type * as ProviderRequest from "./ProviderRequest.js"

/**
 * What a test's answer says about the credentials.
 *
 * @since 0.3.0
 * @category models
 */
export interface Identity {
  /** Who the credentials belong to (a member, an account, an app), when the answer says. */
  readonly account?: string | undefined
  /** The OAuth scopes the credentials carry, when the answer says. */
  readonly scopes?: ReadonlyArray<string> | undefined
}

/**
 * A connection's test: one read (`GET`) that needs valid credentials and changes nothing, the
 * Schema of its answer, what the answer says about the credentials, and what to do when the
 * provider refuses them (where to get new ones).
 *
 * @since 0.3.0
 * @category models
 */
export interface ConnectionTest<A = any> {
  readonly request: ProviderRequest.ProviderRequest & { readonly method: "GET" }
  readonly answer: Schema.Schema<A, any>
  readonly identify: (answer: A) => Identity
  /** What to do when the credentials are refused, e.g. "create a new token at https://…". */
  readonly whenRefused: string
}

/**
 * Declares a connection's test (given to a connection constructor as `test`).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = <A, I>(config: {
  readonly request: ProviderRequest.ProviderRequest & { readonly method: "GET" }
  readonly answer: Schema.Schema<A, I>
  readonly identify?: (answer: A) => Identity
  readonly whenRefused: string
}): ConnectionTest<A> => ({
  request: config.request,
  answer: config.answer,
  identify: config.identify ?? (() => ({})),
  whenRefused: config.whenRefused
})

/**
 * A test that passed: the connection (the component's name), the request it sent, what its
 * answer said, the OAuth2 scopes the component needs that the credentials lack (`[]` when
 * none, or when the answer does not list scopes), and one line saying all that.
 *
 * @since 0.3.0
 * @category models
 */
export interface Result {
  readonly connection: string
  readonly request: RequestInfo
  readonly account?: string | undefined
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly missingScopes: ReadonlyArray<string>
  readonly message: string
}

/**
 * Why a test failed: `refused` (401 or 403: the credentials are wrong, expired, revoked or not
 * allowed), `unreachable` (no answer, a 5xx, a time-out, or still rate limited after the
 * retries), `invalid` (the connection's values are missing or malformed: nothing was sent),
 * `unexpected` (any other answer: a base URL that is not the provider's API, say),
 * `undeclared` (the component declares no test).
 *
 * @since 0.3.0
 * @category models
 */
export type Reason = "refused" | "unreachable" | "invalid" | "unexpected" | "undeclared"

/**
 * A connection test that failed: the connection (the component's name), why, the request and
 * the provider's status and message (scrubbed of secrets, as every error is), what to do, and
 * the typed error it came from. `message` says all of it in one sentence.
 *
 * @since 0.3.0
 * @category errors
 */
export class ConnectionTestFailed extends Data.TaggedError("ConnectionTestFailed")<{
  readonly connection: string
  readonly reason: Reason
  readonly request?: RequestInfo | undefined
  readonly status?: number | undefined
  /** What the provider said (or why nothing was sent). */
  readonly providerMessage: string
  /** What to do about it. */
  readonly remedy: string
  readonly message: string
  readonly error?: ConnectorError | undefined
}> {}
