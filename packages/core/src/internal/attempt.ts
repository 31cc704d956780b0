/**
 * One failed attempt at a request, and how each way of failing becomes a typed
 * `ConnectorError` plus what the retry loop must know: an error status (with the provider's
 * own message), a transport failure, an unreadable body.
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Errors from "../ConnectorError.js"
import { refusedCode } from "../FilePolicy.js"
import * as RetryPolicy from "../RetryPolicy.js"
import { acceptedUnreadable, isWrite } from "./accepted.js"
import { parseJson } from "./json.js"

/** @internal One failed attempt, with what the retry loop needs to know of it. */
export class AttemptFailed implements RetryPolicy.Attempt {
  constructor(
    readonly error: Errors.ConnectorError,
    readonly idempotent: boolean,
    readonly transient: boolean,
    readonly notProcessed: boolean,
    readonly retryAfter?: Duration.Duration | undefined
  ) {}
}

/** @internal The provider-specific hooks of the mapping (see `ProviderClient.Settings`). */
export interface ErrorHooks {
  readonly errorMessage?: ((body: unknown) => string | undefined) | undefined
  readonly refineError?: ((error: Errors.ConnectorError, body: unknown) => Errors.ConnectorError) | undefined
}

/** @internal An error status, as the typed error it means. */
export const fromStatus = (
  hooks: ErrorHooks,
  info: Errors.RequestInfo,
  idempotent: boolean,
  status: number,
  body: unknown,
  text: string,
  retryAfter: Duration.Duration | undefined
): AttemptFailed => {
  const message = providerMessage(hooks.errorMessage, body, text, status)
  const fields = { message, request: info, status, body }
  let error: Errors.ConnectorError
  if (status === 400 || status === 422) {
    error = new Errors.InvalidInput({ ...fields, issues: [{ path: "", message }] })
  } else if (status === 401) error = new Errors.AuthenticationFailed(fields)
  else if (status === 402) error = new Errors.PaymentRequired(fields)
  else if (status === 403) error = new Errors.PermissionDenied(fields)
  else if (status === 404 || status === 410) error = new Errors.NotFound(fields)
  else if (status === 408) error = new Errors.Timeout(fields)
  else if (status === 409) error = new Errors.Conflict(fields)
  else if (status === 429) error = new Errors.RateLimited({ ...fields, retryAfter })
  else if (status >= 500) error = new Errors.UpstreamUnavailable({ ...fields, retryAfter })
  else error = new Errors.UnexpectedResponse(fields)
  if (hooks.refineError !== undefined) error = hooks.refineError(error, body)
  const transient = status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505)
  const notProcessed = status === 429 || status === 503
  return new AttemptFailed(error, idempotent, transient, notProcessed, retryAfter)
}

/** @internal Reads an error response (its body and Retry-After) into the failed attempt. */
export const fromResponse = (
  hooks: ErrorHooks,
  response: HttpClientResponse.HttpClientResponse,
  info: Errors.RequestInfo,
  idempotent: boolean
): Effect.Effect<never, AttemptFailed> =>
  Effect.flatMap(
    Effect.zip(Effect.orElseSucceed(response.text, () => ""), Clock.currentTimeMillis),
    ([text, now]) => {
      const retryAfter = response.status === 429 || response.status === 503
        ? RetryPolicy.parseRetryAfter(response.headers["retry-after"], now)
        : undefined
      return Effect.fail(fromStatus(hooks, info, idempotent, response.status, parseJson(text), text, retryAfter))
    }
  )

/** @internal Any failure of one attempt (a status already mapped, a transport or body error, a typed error). */
export const fromFailure = (
  error: AttemptFailed | Errors.ConnectorError | HttpClientError.HttpClientError,
  baseUrl: string,
  info: Errors.RequestInfo,
  idempotent: boolean
): AttemptFailed => {
  if (error instanceof AttemptFailed) return error
  switch (error._tag) {
    case "RequestError":
      return fromTransport(error, baseUrl, info, idempotent)
    case "ResponseError":
      // The body could not be read or parsed after a success status: for a write, accepted.
      return new AttemptFailed(
        isWrite(info.method)
          ? acceptedUnreadable(info, error.response.status, "", [{
            path: "",
            message: `${error.reason} error while reading the body`
          }])
          : new Errors.UnexpectedResponse({
            message: `the response body could not be read (${error.reason})`,
            request: info,
            status: error.response.status
          }),
        idempotent,
        false,
        false
      )
    case "Timeout":
      // A read timeout: the provider may have processed the request, so only idempotent ones retry.
      return new AttemptFailed(error, idempotent, true, false)
    default:
      return new AttemptFailed(error, idempotent, false, false)
  }
}

const fromTransport = (
  error: HttpClientError.RequestError,
  baseUrl: string,
  info: Errors.RequestInfo,
  idempotent: boolean
): AttemptFailed => {
  const code = errorCode(error)
  // The file policy refused the address connected to: nothing was sent, and a retry would be refused too.
  if (code === refusedCode) {
    const message = `the connection was refused: ${refusalMessage(error)}`
    return new AttemptFailed(new Errors.InvalidInput({ message, request: info, issues: [{ path: "url", message }] }), idempotent, false, true)
  }
  const notSent = code !== undefined && notSentCodes.has(code)
  const host = safeHost(baseUrl)
  const invalid = error.reason === "Encode" || error.reason === "InvalidUrl"
  const message = invalid
    ? `the request could not be built (${error.reason})`
    : notSent
    ? `could not connect to ${host} (${code})`
    : `the connection to ${host} failed${code === undefined ? "" : ` (${code})`}`
  return new AttemptFailed(
    invalid
      ? new Errors.InvalidInput({ message, request: info, issues: [{ path: "", message }] })
      : new Errors.UpstreamUnavailable({ message, request: info }),
    idempotent,
    !invalid,
    notSent
  )
}

const messageKeys = ["message", "msg", "error_description", "error", "detail", "title", "code"] as const

/** The provider's own message: a JSON body's message field, or the plain-text body. */
const providerMessage = (
  custom: ((body: unknown) => string | undefined) | undefined,
  body: unknown,
  text: string,
  status: number
): string => {
  const fromCustom = custom?.(body)
  if (fromCustom !== undefined && fromCustom !== "") return fromCustom
  if (typeof body === "object" && body !== null) {
    for (const key of messageKeys) {
      const value = (body as Record<string, unknown>)[key]
      if (typeof value === "string" && value !== "") return value
      if (typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string") {
        return (value as { message: string }).message
      }
    }
    const errors = (body as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0) {
      const first = errors[0]
      if (typeof first === "string") return first
      if (typeof first === "object" && first !== null && typeof first.message === "string") return first.message
    }
  }
  const trimmed = text.trim()
  if (trimmed !== "" && body === undefined) return trimmed.length > 500 ? trimmed.slice(0, 500) + "…" : trimmed
  return `HTTP ${status}`
}

/** Error codes that mean the request never reached the provider. */
const notSentCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/** The sentence of the policy's refusal: the error that carries its code. */
const refusalMessage = (error: unknown): string => {
  let current: unknown = error
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if ((current as { code?: unknown }).code === refusedCode) return String((current as { message?: unknown }).message)
    current = (current as { cause?: unknown }).cause
  }
  return "the address is not allowed"
}

const errorCode = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    const errors = (current as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = errorCode(errors[0])
      if (inner !== undefined) return inner
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const safeHost = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return "the provider"
  }
}
