/**
 * The typed errors of every connector: one class per cause a user can act on.
 *
 * Each carries the provider's own message and, for HTTP failures, the request's method
 * and path (never its query string, headers or body, which is where credentials live).
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"

/**
 * The method and path of the request that failed; the query string is never kept.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestInfo {
  readonly method: string
  readonly path: string
}

/**
 * One problem with an input, with the path of the field it concerns.
 *
 * @since 0.1.0
 * @category models
 */
export interface Issue {
  readonly path: string
  readonly message: string
}

interface HttpFields {
  readonly message: string
  readonly request?: RequestInfo | undefined
  readonly status?: number | undefined
  /** The provider's error body, as decoded JSON or text, for diagnostics. */
  readonly body?: unknown
}

/**
 * The input is invalid: a step's parameters, a connection, a workflow or a provider's 400/422.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Data.TaggedError("InvalidInput")<
  HttpFields & { readonly issues: ReadonlyArray<Issue> }
> {}

/**
 * 401: the credentials are missing, wrong, expired or revoked.
 *
 * @since 0.1.0
 * @category errors
 */
export class AuthenticationFailed extends Data.TaggedError("AuthenticationFailed")<HttpFields> {}

/**
 * 402: the account's plan does not allow this (e.g. order fulfilment on a free plan).
 *
 * @since 0.1.0
 * @category errors
 */
export class PaymentRequired extends Data.TaggedError("PaymentRequired")<HttpFields> {}

/**
 * 403: authenticated, but not allowed; `missingScopes` names the OAuth scopes to grant when known.
 *
 * @since 0.1.0
 * @category errors
 */
export class PermissionDenied extends Data.TaggedError("PermissionDenied")<
  HttpFields & { readonly missingScopes?: ReadonlyArray<string> | undefined }
> {}

/**
 * 404: the resource does not exist, or is not visible to these credentials.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Data.TaggedError("NotFound")<HttpFields> {}

/**
 * 409: the request conflicts with the resource's current state.
 *
 * @since 0.1.0
 * @category errors
 */
export class Conflict extends Data.TaggedError("Conflict")<HttpFields> {}

/**
 * 429, once every retry is spent. `retryAfter` is what the provider asked for, if it said.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Data.TaggedError("RateLimited")<
  HttpFields & { readonly retryAfter?: Duration.Duration | undefined }
> {}

/**
 * 5xx, or the connection failed: the provider could not be reached or could not answer.
 *
 * @since 0.1.0
 * @category errors
 */
export class UpstreamUnavailable extends Data.TaggedError("UpstreamUnavailable")<
  HttpFields & { readonly retryAfter?: Duration.Duration | undefined }
> {}

/**
 * No answer within the time limit. For a request that creates something, its outcome is unknown.
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends Data.TaggedError("Timeout")<HttpFields> {}

/**
 * The provider answered with something we cannot understand (an undecodable body, an unknown status).
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends Data.TaggedError("UnexpectedResponse")<HttpFields> {}

/**
 * A paged listing that would never end: the provider gave a next-page cursor (or key) it had
 * given before, or the same page of items again. The walk stops at the first repeat;
 * `request` is the request that gave it.
 *
 * @since 0.2.0
 * @category errors
 */
export class PagingLoop extends Data.TaggedError("PagingLoop")<HttpFields> {}

/**
 * A write (any method but GET, HEAD and OPTIONS) that the provider accepted with a 2xx, whose
 * answer could not be read: not JSON, or without what identifies the record. What it asked was
 * most likely done, so it must not be repeated blindly (it is never retried). `body` is the
 * answer's text (secrets scrubbed, at most `acceptedAnswerMaxChars` characters), `issues` what
 * could not be read in it.
 *
 * @since 0.2.0
 * @category errors
 */
export class AcceptedUnreadable extends Data.TaggedError("AcceptedUnreadable")<{
  readonly message: string
  readonly request: RequestInfo
  readonly status: number
  readonly body: string
  readonly issues: ReadonlyArray<Issue>
}> {}

/**
 * How much of an accepted write's unreadable answer `AcceptedUnreadable.body` keeps.
 *
 * @since 0.2.0
 * @category constants
 */
export const acceptedAnswerMaxChars = 4096

/**
 * Every failure a step can have, one class per cause a user can act on.
 *
 * @since 0.1.0
 * @category models
 */
export type ConnectorError =
  | InvalidInput
  | AuthenticationFailed
  | PaymentRequired
  | PermissionDenied
  | NotFound
  | Conflict
  | RateLimited
  | UpstreamUnavailable
  | Timeout
  | UnexpectedResponse
  | PagingLoop
  | AcceptedUnreadable

/**
 * Builds an `InvalidInput` whose message lists every issue.
 *
 * @since 0.1.0
 * @category utils
 */
export const invalidInput = (issues: ReadonlyArray<Issue>, context?: string): InvalidInput =>
  new InvalidInput({
    message: (context ? `${context}: ` : "") +
      issues.map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`)).join("; "),
    issues
  })

/**
 * Whether a value is one of the connector errors (useful at the edges, e.g. the runner).
 *
 * @since 0.1.0
 * @category utils
 */
export const isConnectorError = (u: unknown): u is ConnectorError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof (u as { _tag: unknown })._tag === "string" &&
  connectorErrorTags.has((u as { _tag: string })._tag)

/**
 * Every connector error's tag: what a workflow may name, e.g. the errors a task's retry retries.
 *
 * @since 0.2.0
 * @category models
 */
export const tags = [
  "InvalidInput",
  "AuthenticationFailed",
  "PaymentRequired",
  "PermissionDenied",
  "NotFound",
  "Conflict",
  "RateLimited",
  "UpstreamUnavailable",
  "Timeout",
  "UnexpectedResponse",
  "PagingLoop",
  "AcceptedUnreadable"
] as const satisfies ReadonlyArray<ConnectorError["_tag"]>

// Every tag is listed: a new error fails the build here until it is added.
type Unlisted = Exclude<ConnectorError["_tag"], typeof tags[number]>
const everyTagListed: [Unlisted] extends [never] ? true : Unlisted = true
void everyTagListed

const connectorErrorTags: ReadonlySet<string> = new Set(tags)
