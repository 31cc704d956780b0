/**
 * An `@effect/platform` HttpClient on an undici dispatcher, kept lean for the hot path.
 *
 * `@effect/platform-node`'s undici client reads every body through `Effect.runSync` of a
 * cached Effect, a fiber per read, which halves its throughput here; this one resumes the
 * reading fiber directly from undici's promise. Everything else is the platform's own:
 * requests, abort on interruption, spans, and the `HttpClientError`s.
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
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Readable } from "node:stream"
import { Agent, type Dispatcher as UndiciDispatcher } from "undici"

/** The undici dispatcher requests go through (an `Agent` with a connection pool per origin). */
export class Dispatcher extends Context.Tag("@x/http-undici/Dispatcher")<Dispatcher, UndiciDispatcher>() {}

const fromPromise = <A, E>(promise: () => Promise<A>, onError: (cause: unknown) => E): Effect.Effect<A, E> =>
  Effect.async<A, E>((resume) => {
    promise().then(
      (value) => resume(Effect.succeed(value)),
      (cause) => resume(Effect.fail(onError(cause)))
    )
  })

type RequestBody = string | Uint8Array | Readable | FormData | null

const requestBody = (body: HttpClientRequest.HttpClientRequest["body"]): RequestBody => {
  switch (body._tag) {
    case "Empty":
      return null
    case "Uint8Array":
      return body.body
    case "Raw":
      return body.body as RequestBody
    case "FormData":
      return body.formData
    case "Stream":
      return Readable.from(Stream.toAsyncIterable(body.stream))
  }
}

class UndiciResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private bodyText: Promise<string> | undefined
  private bodyBytes: Promise<ArrayBuffer> | undefined
  private cachedHeaders: Headers.Headers | undefined

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    private readonly source: UndiciDispatcher.ResponseData
  ) {
    super()
    // An error on a body nobody reads must not crash the process.
    source.body.on("error", () => {})
  }

  private decodeError = (cause: unknown): HttpClientError.ResponseError =>
    new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })

  get status(): number {
    return this.source.statusCode
  }

  get headers(): Headers.Headers {
    return this.cachedHeaders ??= Headers.fromInput(this.source.headers as Record<string, string | Array<string>>)
  }

  get cookies(): Cookies.Cookies {
    const header = this.source.headers["set-cookie"]
    return header === undefined ? Cookies.empty : Cookies.fromSetCookie(Array.isArray(header) ? header : [header])
  }

  get remoteAddress(): Option.Option<string> {
    return Option.none()
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return fromPromise(() => this.bodyText ??= this.source.body.text(), this.decodeError)
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => text === "" ? null : JSON.parse(text) as unknown, catch: this.decodeError }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return fromPromise(() => this.bodyBytes ??= this.source.body.arrayBuffer(), this.decodeError)
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.flatMap(this.arrayBuffer, (bytes) =>
      fromPromise(
        () => new Response(bytes, { headers: this.source.headers as Record<string, string> }).formData(),
        this.decodeError
      ))
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.fromAsyncIterable(this.source.body as AsyncIterable<Uint8Array>, this.decodeError)
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }
}

/** An HttpClient on this dispatcher. */
export const make = (dispatcher: UndiciDispatcher): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) =>
    Effect.map(
      fromPromise(
        (): Promise<UndiciDispatcher.ResponseData> =>
          dispatcher.request({
            method: request.method,
            origin: url.origin,
            path: url.pathname + url.search,
            headers: request.headers,
            // The global FormData and undici's are the same class under two declarations.
            body: requestBody(request.body) as Exclude<UndiciDispatcher.RequestOptions["body"], undefined>,
            signal,
            // Time limits are the caller's (Effect), as with @effect/platform's clients.
            headersTimeout: 0,
            bodyTimeout: 0
          }),
        (cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
      ),
      (response) => new UndiciResponse(request, response)
    )
  )

/** An undici `Agent` for the layer's lifetime, closed with it. */
export const layerDispatcher = (options?: Agent.Options): Layer.Layer<Dispatcher> =>
  Layer.scoped(
    Dispatcher,
    Effect.acquireRelease(
      Effect.sync(() => new Agent(options)),
      (agent) => Effect.promise(() => agent.close())
    )
  )

/** The HttpClient on the `Dispatcher` in context. */
export const layerWithoutDispatcher: Layer.Layer<HttpClient.HttpClient, never, Dispatcher> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(Dispatcher, make)
)

/** The HttpClient on its own undici `Agent`. */
export const layer: Layer.Layer<HttpClient.HttpClient> = Layer.provide(layerWithoutDispatcher, layerDispatcher())
