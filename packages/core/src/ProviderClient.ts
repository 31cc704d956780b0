/**
 * The HTTP client of one provider connection, on `@effect/platform`'s `HttpClient`: base URL,
 * credentials, JSON with Schema, a timeout per attempt, retries (see `RetryPolicy`), the
 * client-side rate limiter (see `RateLimiter`) and the mapping of every failure to a typed
 * `ConnectorError`. Components describe requests; this module sends them.
 *
 * The `HttpClient` implementation is provided at the edge (`FetchHttpClient.layer`, or
 * `NodeHttpClient.layerUndici` from `@effect/platform-node`, which is much faster).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import { constTrue } from "effect/Function"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Auth from "./Auth.js"
import * as Errors from "./ConnectorError.js"
import * as RateLimiter from "./RateLimiter.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Watchdog from "./Watchdog.js"

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>

export type Body =
  | { readonly _tag: "json"; readonly value: unknown }
  | { readonly _tag: "form"; readonly value: Readonly<Record<string, QueryValue>> }
  | { readonly _tag: "text"; readonly value: string; readonly contentType: string }
  | { readonly _tag: "bytes"; readonly value: Uint8Array; readonly contentType: string }

export const jsonBody = (value: unknown): Body => ({ _tag: "json", value })
export const formBody = (value: Readonly<Record<string, QueryValue>>): Body => ({ _tag: "form", value })
export const textBody = (value: string, contentType = "text/plain; charset=utf-8"): Body =>
  ({ _tag: "text", value, contentType })

/** A request to the provider, relative to the connection's base URL. */
export interface Request {
  readonly method: HttpMethod
  /** A path below the base URL, already encoded; build it with `path\`/cards/${id}\``. */
  readonly path: string
  /** Undefined and null values are left out; arrays repeat the parameter. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body?: Body | undefined
  /** Overrides the connection's timeout per attempt. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Overrides the method's idempotency, e.g. a POST that carries an idempotency key. */
  readonly idempotent?: boolean | undefined
}

/**
 * Builds a path, percent-encoding every interpolated value: `path\`/boards/${id}/lists\``. A
 * value that is a dot segment ("." or "..", which a URL resolves, even percent-encoded) is
 * encoded twice, so it stays one segment of this path and cannot climb out of it.
 */
export const path = (strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string =>
  strings.reduce((acc, part, i) => acc + part + (i < values.length ? segment(String(values[i])) : ""), "")

const segment = (value: string) =>
  value === "." || value === ".." ? value.replaceAll(".", "%252E") : encodeURIComponent(value)

/** How a successful response is read. */
export type Reader<A> = (
  response: HttpClientResponse.HttpClientResponse,
  info: Errors.RequestInfo
) => Effect.Effect<A, Errors.ConnectorError | HttpClientError.ResponseError>

// ---------------------------------------------------------------------------
// The service

export interface ProviderClient {
  readonly baseUrl: string
  /** Sends a request and reads its successful response, with retries, limits and typed errors. */
  readonly send: <A>(request: Request, read: Reader<A>) => Effect.Effect<A, Errors.ConnectorError>
  /** Sends a request and decodes its JSON response with a Schema. */
  readonly json: <A, I>(request: Request, schema: Schema.Schema<A, I>) => Effect.Effect<A, Errors.ConnectorError>
  /** Sends a request and ignores its response body. */
  readonly void: (request: Request) => Effect.Effect<void, Errors.ConnectorError>
}

export const ProviderClient: Context.Tag<ProviderClient, ProviderClient> = Context.GenericTag<ProviderClient>(
  "@x/core/ProviderClient"
)

export interface Config {
  /** The base URL every path is relative to, e.g. `https://api.trello.com/1`. */
  readonly baseUrl: string
  readonly credentials: Auth.Credentials
  /** The provider's limits, applied to these credentials. */
  readonly rateLimits?: ReadonlyArray<RateLimiter.KeyedRateLimit> | undefined
  readonly retry?: RetryPolicy.RetryOptions | undefined
  /** The time limit of one attempt (connect, headers and body). Default 30 s. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Extracts the provider's message from an error body, when the default guess is not enough. */
  readonly errorMessage?: ((body: unknown) => string | undefined) | undefined
  /** Refines an error from the provider's body, e.g. a 403 that names the missing scopes. */
  readonly refineError?: ((error: Errors.ConnectorError, body: unknown) => Errors.ConnectorError) | undefined
  /**
   * Whether requests are traced as spans. Off by default: tracing costs time on every call,
   * and a span records the full URL, query string included.
   */
  readonly tracing?: boolean | undefined
}

/** The provider client for one connection; it needs an `HttpClient` implementation. */
export const make = (config: Config): Effect.Effect<ProviderClient, never, HttpClient.HttpClient> =>
  Effect.map(
    Effect.zip(HttpClient.HttpClient, RateLimiter.RateLimiters),
    ([http, limiters]) => makeWith(http, limiters, config)
  )

/** The provider client for one connection, as a layer. */
export const layer = (config: Config): Layer.Layer<ProviderClient, never, HttpClient.HttpClient> =>
  Layer.effect(ProviderClient, make(config))

/** One failed attempt, with what the retry loop needs to know of it. */
class AttemptFailed implements RetryPolicy.Attempt {
  constructor(
    readonly error: Errors.ConnectorError,
    readonly idempotent: boolean,
    readonly transient: boolean,
    readonly notProcessed: boolean,
    readonly retryAfter?: Duration.Duration | undefined
  ) {}
}

export const makeWith = (
  http: HttpClient.HttpClient,
  limiters: RateLimiter.RateLimiter,
  config: Config
): ProviderClient => {
  const baseUrl = config.baseUrl.replace(/\/+$/, "")
  const policy = RetryPolicy.make(config.retry)
  const schedule = RetryPolicy.schedule<AttemptFailed>(policy)
  const retryWhile = (failure: AttemptFailed) => RetryPolicy.shouldRetry(policy, failure)
  const timeout = Duration.decode(config.timeout ?? "30 seconds")
  const gate = limiters.gate(config.rateLimits ?? [])
  // A tick of a twentieth of the limit, at most 100 ms: limits hold within 5 %, and a process
  // whose work is done waits at most that long for the watchdog's last sleep.
  const watchdog = Watchdog.make(Duration.millis(Math.min(Math.max(Duration.toMillis(timeout) / 20, 10), 100)))
  // Abortable innermost, so that the watchdog aborts the request as sent, whatever auth does on top.
  const abortable = Watchdog.hasNativeAbort(http) ? http : watchdog.abortable(http)
  const staticHeaders = config.credentials.staticHeaders
  const client = staticHeaders === undefined ? config.credentials.transform(abortable) : abortable
  const buildRequest = requestBuilder(baseUrl, staticHeaders)
  const tracing = config.tracing === true
  // Spans are turned off per request only when the runtime has tracing on: `Effect.locally`
  // costs time on every call, and a runtime with tracing off needs nothing.
  const execute = (
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
    tracing ? client.execute(request) : Effect.withFiberRuntime((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled)
        ? Effect.locally(client.execute(request), HttpClient.currentTracerDisabledWhen, constTrue)
        : client.execute(request)
    )

  const fail = (
    info: Errors.RequestInfo,
    idempotent: boolean,
    status: number,
    body: unknown,
    text: string,
    retryAfter: Duration.Duration | undefined
  ): AttemptFailed => {
    const message = providerMessage(config.errorMessage, body, text, status)
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
    if (config.refineError !== undefined) error = config.refineError(error, body)
    const transient = status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505)
    const notProcessed = status === 429 || status === 503
    return new AttemptFailed(error, idempotent, transient, notProcessed, retryAfter)
  }

  const failFromResponse = (
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
        return Effect.fail(fail(info, idempotent, response.status, parseJson(text), text, retryAfter))
      }
    )

  const failFromTransport = (error: HttpClientError.HttpClientError, info: Errors.RequestInfo, idempotent: boolean) => {
    const code = errorCode(error)
    const notSent = code !== undefined && notSentCodes.has(code)
    const host = safeHost(baseUrl)
    const message = error.reason === "Encode" || error.reason === "InvalidUrl"
      ? `the request could not be built (${error.reason})`
      : notSent
      ? `could not connect to ${host} (${code})`
      : `the connection to ${host} failed${code === undefined ? "" : ` (${code})`}`
    const invalid = error.reason === "Encode" || error.reason === "InvalidUrl"
    return new AttemptFailed(
      invalid
        ? new Errors.InvalidInput({ message, request: info, issues: [{ path: "", message }] })
        : new Errors.UpstreamUnavailable({ message, request: info }),
      idempotent,
      !invalid,
      notSent
    )
  }

  const send = <A>(request: Request, read: Reader<A>): Effect.Effect<A, Errors.ConnectorError> => {
    const query = request.path.indexOf("?")
    const info: Errors.RequestInfo = { method: request.method, path: query < 0 ? request.path : request.path.slice(0, query) }
    const idempotent = request.idempotent ?? RetryPolicy.isIdempotent(request.method)
    const httpRequest = buildRequest(request)
    const attemptTimeout = request.timeout === undefined ? timeout : Duration.decode(request.timeout)
    const timedOut = () =>
      new Errors.Timeout({ message: `no answer within ${Duration.format(attemptTimeout)}`, request: info })
    const exchange = Effect.flatMap(execute(httpRequest), (response): Effect.Effect<
      A,
      AttemptFailed | Errors.ConnectorError | HttpClientError.ResponseError
    > =>
      response.status >= 200 && response.status < 300
        ? read(response, info)
        : failFromResponse(response, info, idempotent))
    const once = gate.pipe(
      Effect.zipRight(
        Duration.isFinite(attemptTimeout)
          ? watchdog.limit(attemptTimeout, exchange, timedOut)
          : exchange
      ),
      Effect.catchAll((
        error: AttemptFailed | Errors.ConnectorError | HttpClientError.HttpClientError
      ): Effect.Effect<never, AttemptFailed> => {
        if (error instanceof AttemptFailed) return Effect.fail(error)
        switch (error._tag) {
          case "RequestError":
            return Effect.fail(failFromTransport(error, info, idempotent))
          case "ResponseError":
            // The body could not be read or parsed after a success status.
            return Effect.fail(
              new AttemptFailed(
                new Errors.UnexpectedResponse({
                  message: `the response body could not be read (${error.reason})`,
                  request: info,
                  status: error.response.status
                }),
                idempotent,
                false,
                false
              )
            )
          case "Timeout":
            // A read timeout: the provider may have processed the request, so only idempotent ones retry.
            return Effect.fail(new AttemptFailed(error, idempotent, true, false))
          default:
            return Effect.fail(new AttemptFailed(error, idempotent, false, false))
        }
      })
    )
    // The retry machinery is entered only after a failure, so the success path pays nothing for it.
    const withRetry = Effect.catchAll(once, (first): Effect.Effect<A, AttemptFailed> => {
      if (!retryWhile(first)) return Effect.fail(first)
      let replayed = false
      let attempt = 1
      const again: Effect.Effect<A, AttemptFailed> = Effect.suspend(() => {
        if (!replayed) {
          replayed = true
          return Effect.fail(first)
        }
        attempt++
        return Effect.zipRight(
          Effect.logDebug(Auth.scrub(config.credentials.secrets, `retrying ${info.method} ${info.path}`)).pipe(
            Effect.annotateLogs({ attempt })
          ),
          once
        )
      })
      return Effect.retry(
        Effect.tapError(again, (failure) =>
          Effect.logDebug(Auth.scrub(
            config.credentials.secrets,
            `${info.method} ${info.path} failed: ${failure.error._tag}: ${failure.error.message}`
          ))),
        { schedule, while: retryWhile }
      )
    })
    const refresh = config.credentials.refresh
    const withRefresh = refresh === undefined ? withRetry : Effect.catchAll(withRetry, (failure) =>
      failure.error._tag !== "AuthenticationFailed"
        ? Effect.fail(failure)
        : Effect.flatMap(
          Effect.mapError(refresh, (error) => new AttemptFailed(error, idempotent, false, false)),
          (renewed) => renewed ? withRetry : Effect.fail(failure)
        ))
    // Secrets are scrubbed once, here, from whatever reached the error: the provider's message
    // and body, the path (a token may be part of it), decoding details.
    return Effect.mapError(withRefresh, (failure) => scrubError(config.credentials.secrets, failure.error))
  }

  return {
    baseUrl,
    send,
    json: (request, schema) => send(request, json(schema)),
    void: (request) => send(request, discard)
  }
}

// ---------------------------------------------------------------------------
// Readers

/** Reads a JSON body and decodes it with a Schema; a body that does not decode is an `UnexpectedResponse`. */
export const json = <A, I>(schema: Schema.Schema<A, I>): Reader<A> => {
  let reader = jsonReaders.get(schema)
  if (reader === undefined) {
    reader = makeJsonReader(schema)
    jsonReaders.set(schema, reader)
  }
  return reader as Reader<A>
}

// Compiling a decoder costs more than using it: one reader per Schema.
const jsonReaders = new WeakMap<Schema.Schema<any, any>, Reader<any>>()

const makeJsonReader = <A, I>(schema: Schema.Schema<A, I>): Reader<A> => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all" })
  return (response, info) =>
    Effect.flatMap(response.text, (text) => {
      const body = parseJson(text)
      const result = decode(body === undefined && text.trim() === "" ? undefined : body)
      return Either.isRight(result) ? Effect.succeed(result.right) : Effect.fail(
        new Errors.UnexpectedResponse({
          message: `the response does not match the expected shape: ${describeMismatch(result.left)}`,
          request: info,
          status: response.status
        })
      )
    })
}

/** Reads the body as text. */
export const text: Reader<string> = (response) => response.text

/** Reads the body as bytes. */
export const bytes: Reader<Uint8Array> = (response) => Effect.map(response.arrayBuffer, (b) => new Uint8Array(b))

/** Reads and discards the body (it must be read, or the connection is not reused). */
export const discard: Reader<void> = (response) => Effect.asVoid(response.arrayBuffer)

// ---------------------------------------------------------------------------
// Internals

const acceptJson = { accept: "application/json" }

/**
 * Builds the requests of one client. Its usual request (no headers of its own) starts from a
 * request of its method made once, with the JSON accept header and the credentials already
 * in the platform's form: one copy per call, where building it whole (method, URL, headers
 * converted) made three and cost ≈ 5 µs a call.
 */
const requestBuilder = (baseUrl: string, credentials: Readonly<Record<string, string>> | undefined) => {
  const bases = new Map<HttpMethod, HttpClientRequest.HttpClientRequest>()
  const baseOf = (method: HttpMethod) => {
    let base = bases.get(method)
    if (base === undefined) {
      base = HttpClientRequest.make(method)(baseUrl, { headers: credentials === undefined ? acceptJson : { ...acceptJson, ...credentials } })
      bases.set(method, base)
    }
    return base
  }
  return (request: Request): HttpClientRequest.HttpClientRequest => {
    let req = request.headers === undefined
      ? HttpClientRequest.setUrl(baseOf(request.method), baseUrl + request.path)
      // JSON unless the request asks for something else; the credentials win over the request's.
      : HttpClientRequest.make(request.method)(baseUrl + request.path, { headers: { ...acceptJson, ...request.headers, ...credentials } })
    if (request.query !== undefined) req = HttpClientRequest.setUrlParams(req, queryParams(request.query))
    const body = request.body
    if (body !== undefined) {
      switch (body._tag) {
        case "json":
          req = HttpClientRequest.bodyUnsafeJson(req, body.value)
          break
        case "form":
          req = HttpClientRequest.bodyUrlParams(req, queryParams(body.value))
          break
        case "text":
          req = HttpClientRequest.bodyText(req, body.value, body.contentType)
          break
        case "bytes":
          req = HttpClientRequest.bodyUint8Array(req, body.value, body.contentType)
          break
      }
    }
    return req
  }
}

const queryParams = (query: Readonly<Record<string, QueryValue>>): Array<[string, string]> => {
  const params: Array<[string, string]> = []
  for (const key in query) {
    const value = query[key]
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const item of value) params.push([key, String(item)])
    else params.push([key, String(value)])
  }
  return params
}

/** The first few problems of a decoding failure, each with its path, not the whole value. */
const describeMismatch = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const shown = issues.slice(0, 5).map((issue) =>
    `${issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")}: ${
      issue._tag === "Missing" ? "is missing" : issue._tag === "Unexpected" ? "is unexpected" : truncate(issue.message, 200)
    }`
  )
  return shown.join("; ") + (issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "")
}

const truncate = (text: string, max: number) => text.length > max ? text.slice(0, max) + "…" : text

/** The same error with every secret scrubbed from its message, path, body and issues. */
const scrubError = (
  secrets: ReadonlyArray<import("effect/Redacted").Redacted<string>>,
  error: Errors.ConnectorError
): Errors.ConnectorError => {
  if (secrets.length === 0) return error
  const fields: Record<string, unknown> = { ...error, message: Auth.scrub(secrets, error.message ?? "") }
  delete fields["_tag"]
  if (error.request !== undefined) {
    fields["request"] = { method: error.request.method, path: Auth.scrub(secrets, error.request.path) }
  }
  if (error.body !== undefined) fields["body"] = Auth.scrubValue(secrets, error.body)
  // Whatever the tag: an error turned into another by a refinement may still carry issues.
  const issues = (error as { issues?: ReadonlyArray<Errors.Issue> }).issues
  if (Array.isArray(issues)) {
    fields["issues"] = issues.map((issue: Errors.Issue) => ({ path: issue.path, message: Auth.scrub(secrets, issue.message) }))
  }
  const Class = error.constructor as new(fields: Record<string, unknown>) => Errors.ConnectorError
  return new Class(fields)
}

export const parseJson = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
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
