/**
 * An `@effect/platform` HttpClient on an undici dispatcher, kept lean for the hot path.
 *
 * Measured here, `@effect/platform-node`'s undici client spends as much time around a
 * request as in it (each body read runs a fiber of its own). This one dispatches straight to
 * undici with a handler that buffers the response, so a request is one async step and the
 * body is ready when the response is. When the runtime traces, requests go through
 * `HttpClient.make` and get the platform's spans; otherwise that wrapper is skipped.
 * Requests are aborted on interruption (and, on the traced path, when `HttpClient.withScope`'s
 * scope closes).
 *
 * The client is `RequestDeadline.DeadlineAware` (see `@x/core`): a `ProviderClient`'s time
 * limit reaches it as the deadline of the fiber's request, which it fills with its abort, so a
 * time limit costs no AbortController, fiber or timer. It is also a `BufferedSend` (see
 * `@x/core`): a provider client's usual attempt hands it the request and gets the response whole
 * in a callback, without an effect of its own around the exchange.
 *
 * Bodies are buffered (API responses are small): a response over `maxResponseBytes` fails;
 * except where the fiber asks for a stream (`ResponseReader.streamRequested`, a download):
 * then the response comes as soon as its headers do, and its body is a stream fed as it
 * arrives, with backpressure, neither buffered nor capped. Request bodies that are Blobs (a
 * file from `fs.openAsBlob`, a multipart body) and FormData are streamed, never read whole.
 *
 * Redirects are never followed (a 3xx is the answer). A request made under a file policy that
 * refuses private networks (`FilePolicy.guardedConnection`, set by `client.external`) goes
 * through an Agent of its own whose connections are checked: a host name's addresses before
 * connecting (`FilePolicy.lookup`), an IP address before connecting, and the address actually
 * connected to once connected, so that a name that resolves elsewhere the second time (DNS
 * rebinding) is refused too. Its connections are never shared with unguarded requests.
 *
 * @since 0.1.0
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import { constVoid } from "effect/Function"
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { IncomingHttpHeaders } from "node:http"
import { Readable } from "node:stream"
import { BufferedSend, FilePolicy, RequestDeadline, ResponseReader } from "@x/core"
import { isIP, type Socket } from "node:net"
import { Agent, buildConnector, type Dispatcher as UndiciDispatcher } from "undici"

/**
 * The undici dispatcher requests go through (an `Agent`: a connection pool per origin).
 *
 * @since 0.1.0
 * @category services
 */
export class Dispatcher extends Context.Tag("@x/http-undici/Dispatcher")<Dispatcher, UndiciDispatcher>() {}

/**
 * The client's settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** A response body larger than this fails with a `ResponseError`. Default 64 MiB. */
  readonly maxResponseBytes?: number
}

class BufferedResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private cachedHeaders: Headers.Headers | undefined
  private cachedText: string | undefined

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    private readonly rawHeaders: IncomingHttpHeaders,
    private readonly body: Buffer
  ) {
    super()
  }

  private decodeError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  get headers(): Headers.Headers {
    return this.cachedHeaders ??= Headers.fromInput(this.rawHeaders as Headers.Input)
  }

  get cookies(): Cookies.Cookies {
    const header = this.rawHeaders["set-cookie"]
    return header === undefined ? Cookies.empty : Cookies.fromSetCookie(Array.isArray(header) ? header : [header])
  }

  get remoteAddress(): Option.Option<string> {
    return Option.none()
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return Effect.succeed(this.cachedText ??= this.body.toString("utf8"))
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => text === "" ? null : JSON.parse(text) as unknown, catch: (e) => this.decodeError(e) }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return Effect.sync(() =>
      this.body.buffer.slice(this.body.byteOffset, this.body.byteOffset + this.body.byteLength) as ArrayBuffer
    )
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.tryPromise({
      try: () => new Response(new Uint8Array(this.body), { headers: this.headers }).formData(),
      catch: (e) => this.decodeError(e)
    })
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.succeed(new Uint8Array(this.body.buffer, this.body.byteOffset, this.body.byteLength))
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }
}

/** How an exchange ends: called once, with the response or the request's failure. */
type Done = (result: Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>) => void

/**
 * What both kinds of exchange share: aborting (before undici hands over its controller, the
 * abort waits for it), the caller's abort signal, and the end after which nothing is aborted.
 */
abstract class AbortableExchange implements UndiciDispatcher.DispatchHandler {
  private controller: UndiciDispatcher.DispatchController | undefined
  private pendingAbort: Error | undefined
  protected ended = false

  constructor(
    protected readonly request: HttpClientRequest.HttpClientRequest,
    protected readonly done: Done,
    protected readonly maxBytes: number,
    private readonly signal: AbortSignal | undefined
  ) {}

  readonly abort = (reason?: unknown): void => {
    if (this.ended) return
    const error = reason instanceof Error ? reason : new Error("the request was aborted")
    if (this.controller !== undefined) this.controller.abort(error)
    else this.pendingAbort = error
  }

  readonly onSignal = (): void => this.abort(this.signal?.reason)

  protected end(): void {
    this.ended = true
    // undici's controller reaches the whole request (its abort closure's scope). An exchange
    // can sit in V8's old generation (promoted while in flight, or pretenured), and whatever it
    // references then outlives the young generation's collections until a full one: holding the
    // controller past the end took the promotion from 1.3 to 2.2 MB a scavenge (`--trace-gc-nvp`,
    // getCard at concurrency 32; the rest was V8's pretenuring, which x-runner turns off).
    this.controller = undefined
    this.signal?.removeEventListener("abort", this.onSignal)
  }

  // undici rejects a request it cannot build (a bad header, say) with an argument error.
  protected requestError(cause: Error): HttpClientError.RequestError {
    const reason = (cause as { code?: unknown }).code === "UND_ERR_INVALID_ARG" ? "Encode" : "Transport"
    return new HttpClientError.RequestError({ request: this.request, reason, cause })
  }

  onRequestStart(controller: UndiciDispatcher.DispatchController): void {
    if (this.ended) return
    this.controller = controller
    if (this.pendingAbort !== undefined) controller.abort(this.pendingAbort)
  }

  abstract onResponseError(controller: UndiciDispatcher.DispatchController, cause: Error): void
}

/** One request on the wire: collects the response and ends once. */
class Exchange extends AbortableExchange {
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Array<Buffer> = []
  private size = 0

  private finish(result: Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>) {
    if (this.ended) return
    this.end()
    this.done(result)
  }

  onResponseStart(_: UndiciDispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode
    this.headers = headers
  }

  onResponseData(controller: UndiciDispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length
    if (this.size > this.maxBytes) {
      controller.abort(new Error(`the response body is larger than ${this.maxBytes} bytes`))
      return
    }
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size)
    this.finish(Either.right(new BufferedResponse(this.request, this.status, this.headers, body)))
  }

  onResponseError(_: UndiciDispatcher.DispatchController, cause: Error): void {
    this.finish(Either.left(this.requestError(cause)))
  }
}

/** A response whose body is a stream, read once: `stream`, or collected by `text` and the others. */
class StreamedResponse extends BufferedResponse {
  private collected: Promise<Buffer> | undefined

  constructor(
    request: HttpClientRequest.HttpClientRequest,
    status: number,
    rawHeaders: IncomingHttpHeaders,
    private readonly readable: Readable,
    private readonly maxBytes: number
  ) {
    super(request, status, rawHeaders, Buffer.alloc(0))
  }

  private streamError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  // An error body (or a caller that wants it whole) is collected, within the client's cap.
  private get whole(): Effect.Effect<Buffer, HttpClientError.ResponseError> {
    return Effect.tryPromise({
      try: () =>
        this.collected ??= (async () => {
          const chunks: Array<Buffer> = []
          let size = 0
          for await (const chunk of this.readable as AsyncIterable<Buffer>) {
            size += chunk.length
            if (size > this.maxBytes) {
              this.readable.destroy()
              throw new Error(`the response body is larger than ${this.maxBytes} bytes`)
            }
            chunks.push(chunk)
          }
          return Buffer.concat(chunks, size)
        })(),
      catch: (cause) => this.streamError(cause)
    })
  }

  override get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return Effect.map(this.whole, (body) => body.toString("utf8"))
  }

  override get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return Effect.map(this.whole, (body) => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer)
  }

  override get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.flatMap(this.whole, (body) =>
      Effect.tryPromise({
        try: () => new Response(new Uint8Array(body), { headers: this.headers }).formData(),
        catch: (e) => this.streamError(e)
      }))
  }

  override get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.fromAsyncIterable(this.readable as AsyncIterable<Uint8Array>, (cause) => this.streamError(cause))
  }
}

/**
 * One request whose response is streamed: the fiber resumes at the headers; the body is pushed
 * into a Readable as it arrives, undici paused while the reader is behind. A reader that stops
 * early (or a deadline, or an interruption) aborts the request.
 */
class StreamingExchange extends AbortableExchange {
  private body: Readable | undefined
  private resumed = false

  onResponseStart(controller: UndiciDispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    const body = new Readable({
      read: () => controller.resume(),
      destroy: (error, callback) => {
        if (!this.ended) this.abort(error ?? new Error("the response body was not read to its end"))
        callback(error)
      }
    })
    this.body = body
    this.resumed = true
    this.done(Either.right(new StreamedResponse(this.request, statusCode, headers, body, this.maxBytes)))
  }

  onResponseData(controller: UndiciDispatcher.DispatchController, chunk: Buffer): void {
    if (!this.body!.push(chunk)) controller.pause()
  }

  onResponseEnd(): void {
    this.end()
    this.body!.push(null)
  }

  onResponseError(_: UndiciDispatcher.DispatchController, cause: Error): void {
    this.end()
    if (this.resumed) return void this.body!.destroy(cause)
    this.done(Either.left(this.requestError(cause)))
  }
}

type Body = string | Uint8Array | Readable | null

const requestBody = (
  body: HttpClientRequest.HttpClientRequest["body"]
): { readonly body: Body; readonly contentType?: string } => {
  switch (body._tag) {
    case "Empty":
      return { body: null }
    case "Uint8Array":
      return { body: body.body }
    case "Raw":
      // A Blob is streamed (undici would read it whole first); its length is the request's.
      return body.body instanceof Blob
        ? { body: Readable.fromWeb(body.body.stream() as import("node:stream/web").ReadableStream) }
        : { body: body.body as Body }
    case "Stream":
      return { body: Readable.from(Stream.toAsyncIterable(body.stream)) }
    case "FormData": {
      // The platform's Response encodes the multipart body and its boundary, streamed.
      const encoded = new Response(body.formData)
      return {
        body: Readable.fromWeb(encoded.body as import("node:stream/web").ReadableStream),
        contentType: encoded.headers.get("content-type") ?? "multipart/form-data"
      }
    }
  }
}

/** Hands an exchange's request to undici (a request undici refuses ends the exchange at once). */
const sendOn = (
  dispatcher: UndiciDispatcher,
  exchange: AbortableExchange,
  request: HttpClientRequest.HttpClientRequest,
  origin: string,
  path: string
): void => {
  const prepared = requestBody(request.body)
  const headers = prepared.contentType === undefined ? request.headers : { ...request.headers, "content-type": prepared.contentType }
  try {
    dispatcher.dispatch({ origin, path, method: request.method, headers, body: prepared.body }, exchange)
  } catch (cause) {
    exchange.onResponseError(undefined as never, cause instanceof Error ? cause : new Error(String(cause)))
  }
}

const dispatch = (
  dispatcher: UndiciDispatcher,
  maxBytes: number,
  request: HttpClientRequest.HttpClientRequest,
  origin: string,
  path: string,
  signal: AbortSignal | undefined,
  deadline: RequestDeadline.RequestDeadline | undefined,
  streamed = false
): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError> =>
  Effect.async<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>((resume) => {
    const exchange = streamed
      ? new StreamingExchange(request, resume, maxBytes, signal)
      : new Exchange(request, resume, maxBytes, signal)
    if (deadline !== undefined) {
      deadline.abort = exchange.abort
      if (deadline.expired) exchange.abort()
    }
    if (signal !== undefined) {
      if (signal.aborted) exchange.abort(signal.reason)
      else signal.addEventListener("abort", exchange.onSignal, { once: true })
    }
    sendOn(dispatcher, exchange, request, origin, path)
    // With a deadline, an interruption aborts the request through it (core's limit calls its
    // abort then too), which spares the fiber the canceler's interruption handler.
    return deadline === undefined ? Effect.sync(() => exchange.abort(new Error("the request was interrupted"))) : undefined
  })

// An absolute http(s) URL whose path and query need no encoding or normalising (no spaces,
// non-ASCII or dot segments): the fast path sends it as it is; anything else goes through URL.
const absoluteUrl = /^(https?:\/\/[^/?#\s]+)((?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?)$/
const dotSegment = /(^|\/)\.{1,2}(\/|\?|$)/

/** Where a request goes: its origin, and its path with its query. */
interface Target {
  readonly origin: string
  readonly path: string
}

/** A request's target, or the failure of a URL that is not one. */
const targetOf = (request: HttpClientRequest.HttpClientRequest): Target | HttpClientError.RequestError => {
  const match = absoluteUrl.exec(request.url)
  if (match === null || dotSegment.test(match[2]!)) {
    const url = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
    return url._tag === "Left"
      ? new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause: url.left })
      : { origin: url.right.origin, path: url.right.pathname + url.right.search }
  }
  let path = match[2] === "" ? "/" : match[2]!
  if (request.urlParams.length > 0) {
    const query = new URLSearchParams(request.urlParams as Array<[string, string]>).toString()
    path += (path.includes("?") ? "&" : "?") + query
  }
  return { origin: match[1]!, path }
}

/**
 * An undici connector that keeps to a file policy: an IP address is checked before connecting,
 * a host name's addresses by the lookup, and the address connected to once connected.
 */
const guardedConnector = (policy: FilePolicy.Policy): buildConnector.connector => {
  const connect = buildConnector({ lookup: FilePolicy.lookup(policy) })
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80)
    const literal = isIP(options.hostname) === 0 ? undefined : FilePolicy.addressRefusal(policy, options.hostname, port)
    if (literal !== undefined) return callback(FilePolicy.addressRefused(literal), null)
    return connect(options, (error, socket) => {
      if (error !== null) return callback(error, null)
      const connected = socket as Socket
      const refusal = FilePolicy.addressRefusal(policy, connected.remoteAddress ?? "", connected.remotePort ?? port)
      if (refusal === undefined) return callback(null, socket)
      connected.destroy()
      callback(FilePolicy.addressRefused(refusal), null)
    })
  }
}

/** The dispatchers of guarded requests, one Agent per policy, made when first needed. */
const guardedAgents = () => {
  const agents = new Map<FilePolicy.Policy, Agent>()
  return {
    get: (policy: FilePolicy.Policy): UndiciDispatcher => {
      let agent = agents.get(policy)
      if (agent === undefined) agents.set(policy, agent = new Agent({ connect: guardedConnector(policy) }))
      return agent
    },
    close: () => Promise.all([...agents.values()].map((agent) => agent.close())).then(() => agents.clear())
  }
}

/**
 * An HttpClient on this dispatcher.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  dispatcher: UndiciDispatcher,
  settings: Settings = {}
): HttpClient.HttpClient & RequestDeadline.DeadlineAware & BufferedSend.BufferedSend => build(dispatcher, settings, guardedAgents())

const build = (
  defaultDispatcher: UndiciDispatcher,
  settings: Settings,
  guarded: ReturnType<typeof guardedAgents>
): HttpClient.HttpClient & RequestDeadline.DeadlineAware & BufferedSend.BufferedSend => {
  const maxBytes = settings.maxResponseBytes ?? 64 * 1024 * 1024
  // A request under a policy that guards its connection goes through that policy's Agent.
  const dispatcherOf = (fiber: { getFiberRef: <A>(ref: FiberRef.FiberRef<A>) => A }) => {
    const policy = fiber.getFiberRef(FilePolicy.guardedConnection)
    return policy === undefined ? defaultDispatcher : guarded.get(policy)
  }
  // With the tracer on: the platform's wrapper, for its spans, propagation and abort handling.
  const traced = HttpClient.make((request, url, signal, fiber) =>
    dispatch(
      dispatcherOf(fiber),
      maxBytes,
      request,
      url.origin,
      url.pathname + url.search,
      signal,
      RequestDeadline.take(fiber),
      fiber.getFiberRef(ResponseReader.streamRequested)
    )
  )
  const send = (request: HttpClientRequest.HttpClientRequest) =>
    Effect.withFiberRuntime<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((fiber) => {
      if (
        fiber.getFiberRef(FiberRef.currentTracerEnabled) &&
        !fiber.getFiberRef(HttpClient.currentTracerDisabledWhen)(request)
      ) {
        return traced.execute(request)
      }
      const deadline = RequestDeadline.take(fiber)
      const target = targetOf(request)
      return target instanceof HttpClientError.RequestError ? Effect.fail(target) : dispatch(
        dispatcherOf(fiber),
        maxBytes,
        request,
        target.origin,
        target.path,
        undefined,
        deadline,
        fiber.getFiberRef(ResponseReader.streamRequested)
      )
    })
  // The same request in callback form (`BufferedSend`), for a provider client's usual attempt.
  const sendBuffered: BufferedSend.Send = (request, fiber, done) => {
    const target = targetOf(request)
    if (target instanceof HttpClientError.RequestError) {
      done(Either.left(target))
      return constVoid
    }
    const exchange = new Exchange(request, done, maxBytes, undefined)
    sendOn(dispatcherOf(fiber), exchange, request, target.origin, target.path)
    return exchange.abort
  }
  const client = HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
    // A request given as it is (`execute`, no `mapRequestEffect` in front) is sent at once.
    (effect) => Exit.isExit(effect) && Exit.isSuccess(effect) ? send(effect.value as HttpClientRequest.HttpClientRequest) : Effect.flatMap(effect, send),
    Effect.succeed
  )
  return BufferedSend.bufferedSend(RequestDeadline.deadlineAware(client), sendBuffered)
}

/**
 * An undici `Agent` for the layer's lifetime, closed with it.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerDispatcher = (options?: Agent.Options): Layer.Layer<Dispatcher> =>
  Layer.scoped(
    Dispatcher,
    Effect.acquireRelease(
      Effect.sync(() => new Agent(options)),
      (agent) => Effect.promise(() => agent.close())
    )
  )

/**
 * The HttpClient on the `Dispatcher` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithoutDispatcher = (settings?: Settings): Layer.Layer<HttpClient.HttpClient, never, Dispatcher> =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.flatMap(Dispatcher, (dispatcher) =>
      // The guarded requests' Agents are closed with the layer.
      Effect.map(
        Effect.acquireRelease(Effect.sync(guardedAgents), (guarded) => Effect.promise(guarded.close)),
        (guarded) => build(dispatcher, settings ?? {}, guarded)
      ))
  )

/**
 * The HttpClient on its own undici `Agent`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient> = Layer.provide(layerWithoutDispatcher(), layerDispatcher())
