/**
 * The HTTP client of one provider connection, on `@effect/platform`'s `HttpClient`: base URL,
 * credentials, a timeout per attempt, retries (see `RetryPolicy`), the client-side rate
 * limiter (see `RateLimiter`) and the mapping of every failure to a typed `ConnectorError`.
 * Components describe requests (`ProviderRequest`) and how to read them (`ResponseReader`);
 * this module sends them.
 *
 * The `HttpClient` implementation is provided at the edge (`FetchHttpClient.layer`,
 * `NodeHttpClient.layerUndici` from `@effect/platform-node`, or `@x/http-undici`, the fastest).
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import { constTrue } from "effect/Function"
import type * as Schema from "effect/Schema"
import * as Auth from "./Auth.js"
import * as BufferedSend from "./BufferedSend.js"
import * as Errors from "./ConnectorError.js"
import * as Attempt from "./internal/attempt.js"
import * as ExternalGuard from "./internal/externalGuard.js"
import * as Immediate from "./internal/immediatePermit.js"
import * as Paging from "./internal/paging.js"
import { requestBuilder } from "./internal/requestBuilder.js"
import * as Retrying from "./internal/retrying.js"
import * as Watchdog from "./internal/watchdog.js"
import type * as ProviderRequest from "./ProviderRequest.js"
import * as RateLimiter from "./RateLimiter.js"
import * as RequestDeadline from "./RequestDeadline.js"
import * as ResponseReader from "./ResponseReader.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as WriteGuard from "./WriteGuard.js"

/**
 * The client of one connection, as actions and triggers get it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderClient {
  readonly baseUrl: string
  /** Sends a request and reads its successful response, with retries, limits and typed errors. */
  readonly send: <A>(
    request: ProviderRequest.ProviderRequest,
    read: ResponseReader.ResponseReader<A>
  ) => Effect.Effect<A, Errors.ConnectorError>
  /** Sends a request and decodes its JSON response with a Schema. */
  readonly json: <A, I>(
    request: ProviderRequest.ProviderRequest,
    schema: Schema.Schema<A, I>
  ) => Effect.Effect<A, Errors.ConnectorError>
  /** Sends a request and ignores its response body. */
  readonly void: (request: ProviderRequest.ProviderRequest) => Effect.Effect<void, Errors.ConnectorError>
  /**
   * The same client for absolute URLs outside the provider's API (a presigned upload or
   * download URL, a file given by URL): the request's `path` is the whole URL; no base URL,
   * no credentials, no rate limit; the same time limit, retries and typed errors; the network
   * rule of the `FilePolicy` in context (a refused address is an `InvalidInput`, nothing sent).
   */
  readonly external: ProviderClient
  /**
   * The same client at another base URL of the same provider (another version of its API,
   * say): the same credentials, limits, retries, time limit and error reading. One client per
   * base URL, made once.
   */
  readonly rebase: (baseUrl: string) => ProviderClient
}

/**
 * The settings of one connection's client: base URL, credentials, limits, retries, time limit, error reading.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** The base URL every path is relative to, e.g. `https://api.trello.com/1`. */
  readonly baseUrl: string
  readonly credentials: Auth.Credentials
  /** The provider's limits, applied to these credentials. */
  readonly rateLimits?: ReadonlyArray<RateLimiter.KeyedRateLimit> | undefined
  readonly retry?: RetryPolicy.Settings | undefined
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

/**
 * The provider client for one connection, on the `HttpClient` and `RateLimiters` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (config: Settings): Effect.Effect<ProviderClient, never, HttpClient.HttpClient> =>
  Effect.map(
    Effect.zip(HttpClient.HttpClient, RateLimiter.RateLimiters),
    ([http, limiters]) => makeWith(http, limiters, config)
  )

/**
 * The provider client for one connection, on the given `HttpClient` and rate limiter.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeWith = (
  http: HttpClient.HttpClient,
  limiters: RateLimiter.RateLimiter,
  config: Settings
): ProviderClient => {
  const baseUrl = config.baseUrl.replace(/\/+$/, "")
  const retries = Retrying.make(config.credentials, config.retry)
  const timeout = Duration.decode(config.timeout ?? "30 seconds")
  const take = limiters.take(config.rateLimits ?? [])
  // The in-memory limiter's take in this client's own step (no effect around it), when it has one.
  const takeNow = Immediate.of(take)
  // Without limits there is no permit to hold or give back.
  const limited = (config.rateLimits ?? []).length > 0
  // A deadline-aware client aborts at the watchdog's word (no fiber or timer per request);
  // any other is interrupted, which a client built with `HttpClient.make` turns into an abort.
  // A tick of a twentieth of the limit, at most 100 ms: limits hold within 5 %, and a process
  // whose work is done waits at most that long for the watchdog's last sleep.
  const watchdog = RequestDeadline.isDeadlineAware(http)
    ? Watchdog.make(Duration.millis(Math.min(Math.max(Duration.toMillis(timeout) / 20, 10), 100)))
    : undefined
  const limit: Watchdog.Watchdog["limit"] = watchdog !== undefined
    ? watchdog.limit
    : (_fiber, duration, effect, onExpired, restore) => restore(Effect.timeoutFail(effect, { duration, onTimeout: onExpired }))
  const staticHeaders = config.credentials.staticHeaders
  const client = staticHeaders === undefined ? config.credentials.transform(http) : http
  // An attempt in one asynchronous step where the client calls back and the watchdog times it
  // (`BufferedSend`); a client wrapped by the credentials is not one (its wrapper would be skipped).
  const bufferedSend = watchdog !== undefined && client === http && BufferedSend.isBufferedSend(http) ? http[BufferedSend.TypeId] : undefined
  const takeFree = Immediate.freeOf(take)
  const buildRequest = requestBuilder(baseUrl, staticHeaders)
  const tracing = config.tracing === true
  // Spans are turned off per request only when the runtime has tracing on (`send` reads it
  // once per request): `Effect.locally` costs time on every call, and a runtime with tracing
  // off needs nothing.
  const executeDirect = (
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> => client.execute(request)
  const executeUntraced = (
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
    Effect.locally(client.execute(request), HttpClient.currentTracerDisabledWhen, constTrue)

  const send = <A>(
    request: ProviderRequest.ProviderRequest,
    read: ResponseReader.ResponseReader<A>
  ): Effect.Effect<A, Errors.ConnectorError> => {
    const query = request.path.indexOf("?")
    const info: Errors.RequestInfo = { method: request.method, path: query < 0 ? request.path : request.path.slice(0, query) }
    const idempotent = request.idempotent ?? RetryPolicy.isIdempotent(request.method)
    const httpRequest = buildRequest(request)
    const attemptTimeout = request.timeout === undefined ? timeout : Duration.decode(request.timeout)
    const timedOut = () =>
      new Errors.Timeout({ message: `no answer within ${Duration.format(attemptTimeout)}`, request: info })
    const finite = Duration.isFinite(attemptTimeout)
    const streaming = ResponseReader.isStreaming(read)
    // Built on the fiber that runs it, in the step that reads what the fiber says (the paged
    // walk to tell, the tracer on or off) once for every attempt.
    return Effect.withFiberRuntime((fiber) => {
      // A paged listing's walk is told which request gave each page (so that a loop names it).
      const page = fiber.getFiberRef(Paging.pageRequest)
      if (page !== undefined) page.request = info
      const traced = fiber.getFiberRef(FiberRef.currentTracerEnabled)
      const execute = tracing || !traced ? executeDirect : executeUntraced
      // Only where nothing asks for more than the callback does: no span, a body read whole.
      const sendNow = bufferedSend !== undefined && finite && !(tracing && traced) && !streaming &&
          !fiber.getFiberRef(ResponseReader.streamRequested) && BufferedSend.takes(httpRequest)
        ? bufferedSend
        : undefined
      return attempts(fiber, httpRequest, read, info, idempotent, attemptTimeout, finite, timedOut, streaming ? executeStreamed(execute) : execute, sendNow)
    })
  }

  const attempts = <A>(
    fiber: Fiber.RuntimeFiber<any, any>,
    httpRequest: HttpClientRequest.HttpClientRequest,
    read: ResponseReader.ResponseReader<A>,
    info: Errors.RequestInfo,
    idempotent: boolean,
    attemptTimeout: Duration.Duration,
    finite: boolean,
    timedOut: () => Errors.Timeout,
    execute: (request: HttpClientRequest.HttpClientRequest) => Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>,
    sendNow: BufferedSend.Send | undefined
  ): Effect.Effect<A, Errors.ConnectorError> => {
    // The rate limit's tokens are held from the start until the answer (its status and
    // headers: the provider counted the request before it answered), then given back, before
    // the body is read: a buffered body is parsed and decoded as soon as `read` is called.
    // `answered` is an effect, or a permit given back in this step (the in-memory limiter's).
    const next = (
      response: HttpClientResponse.HttpClientResponse
    ): Effect.Effect<A, Attempt.AttemptFailed | Errors.ConnectorError | HttpClientError.ResponseError> =>
      response.status >= 200 && response.status < 300
        ? read(response, info)
        : Attempt.fromResponse(config, response, info, idempotent)
    const exchange = (answered: Effect.Effect<void> | Immediate.ImmediatePermit | undefined) =>
      Effect.flatMap(
        execute(httpRequest),
        (response) => {
          if (answered === undefined) return next(response)
          if (Effect.isEffect(answered)) return Effect.flatMap(answered, () => next(response))
          answered.releaseNow(fiber)
          return next(response)
        }
      )
    // The attempt under its time limit, in a region where interruption is masked (`restore`
    // being the mask's): the limit's handler runs on an interruption too.
    const timed = (
      attempt: Effect.Effect<A, Attempt.AttemptFailed | Errors.ConnectorError | HttpClientError.HttpClientError>,
      restore: Watchdog.Restore
    ) => limit(fiber, attemptTimeout, attempt, timedOut, restore)
    // The wait for a start is outside the attempt's time limit; a failure or an interruption
    // gives the tokens back too. A success has given them back already (at the answer), so
    // only a failure is handled here, where the mask makes `ensuring`'s own needless.
    const limitedBy = (
      permit: Effect.Effect<void> | Immediate.ImmediatePermit,
      restore: Watchdog.Restore
    ): Effect.Effect<A, Attempt.AttemptFailed | Errors.ConnectorError | HttpClientError.HttpClientError> =>
      // The watchdog's failure handler gives an in-memory permit back: no handler of our own.
      finite && watchdog !== undefined && !Effect.isEffect(permit)
        ? watchdog.limit(fiber, attemptTimeout, exchange(permit), timedOut, restore, () => permit.releaseNow(fiber))
        : Effect.catchAllCause(
          finite ? timed(exchange(permit), restore) : restore(exchange(permit)),
          (cause) => {
            if (Effect.isEffect(permit)) return Effect.zipRight(permit, Effect.failCause(cause))
            permit.releaseNow(fiber)
            return Effect.failCause(cause)
          }
        )
    // Built when taken: the usual attempt goes through `direct` and never needs it.
    const once = () => !limited
      ? finite ? Effect.uninterruptibleMask((restore) => timed(exchange(undefined), restore)) : exchange(undefined)
      : takeNow === undefined
      ? Effect.uninterruptibleMask((restore) => Effect.flatMap(take, (permit) => limitedBy(permit.release, restore)))
      // In memory: a free token taken, and given back, in this fiber's steps.
      : Effect.uninterruptibleMask((restore) => {
        const taken = takeNow(fiber)
        return taken._tag === "Now" ? limitedBy(taken, restore) : Effect.flatMap(taken.wait, (permit) => limitedBy(permit.release, restore))
      })
    // The same attempt in one asynchronous step, when its token is free now (none is reserved
    // by asking) and the watchdog runs (started first if it stopped); otherwise (a wait for a
    // token, a watchdog stopped again at once) it is `once`. Given back at the answer, as
    // `exchange` does; an interruption gives the token back, stops the watch and aborts the
    // request, as the watchdog's handler does. With `recover`, its failure is handed to the
    // retries from the callback (no handler's frame around the attempt).
    type Failure = Attempt.AttemptFailed | Errors.ConnectorError | HttpClientError.HttpClientError
    const direct = (
      send: BufferedSend.Send,
      stopped: () => Effect.Effect<A, Failure>,
      recover?: (error: Failure) => Effect.Effect<A, Errors.ConnectorError>
    ) =>
      Effect.async<A, Failure>((resume) => {
        // Run on the fiber: what the retries' handler throws is the fiber's defect, not the client's.
        const failed = (error: Failure) => recover === undefined ? Effect.fail(error) : Effect.suspend(() => recover(error))
        const handedOver = (effect: Effect.Effect<A, Failure>) =>
          recover === undefined || (Exit.isExit(effect) && Exit.isSuccess(effect)) ? effect : Effect.catchAll(effect, recover)
        if (!watchdog!.active()) return resume(stopped())
        const permit = limited ? takeFree!(fiber) : undefined
        if (limited && permit === undefined) return resume(handedOver(once()))
        const watch = watchdog!.watch(fiber, attemptTimeout)
        let ended = false
        const end = () => {
          ended = true
          watchdog!.unwatch(watch)
          permit?.releaseNow(fiber)
        }
        let abort: () => void
        try {
          abort = send(httpRequest, fiber, (result) => {
            if (ended) return
            end()
            if (watch.expired) return resume(failed(timedOut()))
            if (Either.isLeft(result)) return resume(failed(result.left))
            // Read here, in the client's callback: what a reader throws is the fiber's defect, as
            // it is where the reader runs on the fiber (thrown into the client, it would be lost).
            let read: Effect.Effect<A, Attempt.AttemptFailed | Errors.ConnectorError | HttpClientError.ResponseError>
            try {
              read = next(result.right)
            } catch (defect) {
              read = Effect.die(defect)
            }
            resume(handedOver(read))
          })
        } catch (defect) {
          // A client that throws after calling back has given its answer already.
          if (ended) return
          end()
          return resume(Effect.die(defect))
        }
        watch.abort = abort
        return Effect.sync(() => {
          if (ended) return
          end()
          abort()
        })
      })
    // Every retry is the attempt as it fails; the first hands its failure to them itself.
    const directRetried = (send: BufferedSend.Send, toAttempt: (error: Failure) => Attempt.AttemptFailed) => {
      // The retries are built at the first failure: a success pays for none of them.
      let retry: ((error: Failure) => Effect.Effect<A, Errors.ConnectorError>) | undefined
      const recover = (error: Failure) => {
        retry ??= Retrying.recovery(
          retries,
          direct(send, () => Effect.zipRight(watchdog!.start, direct(send, once))),
          toAttempt,
          info,
          idempotent
        )
        return retry(error)
      }
      // Every failure of it goes through `recover`, which settles it as a ConnectorError.
      return direct(
        send,
        // The watchdog stopped again at once: `execute`'s attempt, its failure handed over too.
        () => Effect.zipRight(watchdog!.start, direct(send, () => Effect.catchAll(once(), recover), recover)),
        recover
      ) as Effect.Effect<A, Errors.ConnectorError>
    }
    const toAttempt = (error: Failure) => Attempt.fromFailure(error, baseUrl, info, idempotent)
    const retried = sendNow === undefined || (limited && takeFree === undefined)
      ? Retrying.retrying(retries, once(), toAttempt, info, idempotent)
      : directRetried(sendNow, toAttempt)
    // A write is announced to the guard in context (a durable engine's) before its first
    // attempt; reads, and writes with no guard, pay nothing.
    if (idempotent) return retried
    const guard = Context.get(fiber.currentContext, WriteGuard.WriteGuard)
    return guard === undefined ? retried : Effect.zipRight(guard.beforeWrite(info), retried)
  }

  // A streaming reader's request is executed with `streamRequested`, so that the HttpClient
  // hands its body over as it arrives; the usual path does not pay for the FiberRef.
  const executeStreamed = (
    execute: (request: HttpClientRequest.HttpClientRequest) => Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>
  ) =>
  (request: HttpClientRequest.HttpClientRequest) => Effect.locally(execute(request), ResponseReader.streamRequested, true)

  let external: ProviderClient | undefined
  const rebased = new Map<string, ProviderClient>()
  const self: ProviderClient = {
    baseUrl,
    send,
    json: (request, schema) => send(request, ResponseReader.json(schema)),
    void: (request) => send(request, ResponseReader.discard),
    get external() {
      return external ??= guarded(makeWith(http, limiters, {
        baseUrl: "",
        credentials: Auth.none,
        retry: config.retry,
        timeout: config.timeout,
        tracing: config.tracing
      }))
    },
    rebase: (url) => {
      const target = url.replace(/\/+$/, "")
      if (target === baseUrl) return self
      let client = rebased.get(target)
      if (client === undefined) rebased.set(target, client = makeWith(http, limiters, { ...config, baseUrl: target }))
      return client
    }
  }
  return self
}

/** An external client under the file policy's network rule (`internal/externalGuard.ts`). */
const guarded = (client: ProviderClient): ProviderClient => {
  const send = ExternalGuard.guard(client.send)
  const self: ProviderClient = {
    baseUrl: client.baseUrl,
    send,
    json: (request, schema) => send(request, ResponseReader.json(schema)),
    void: (request) => send(request, ResponseReader.discard),
    get external() {
      return self
    },
    // Absolute URLs have no base to change.
    rebase: () => self
  }
  return self
}
