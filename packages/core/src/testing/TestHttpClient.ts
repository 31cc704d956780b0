/**
 * An in-memory HttpClient for tests: it answers from a handler, at once, and records each
 * request with the Clock's time. Its bodies read synchronously (a web Response's would wait
 * on a Promise), so retries, polling and rate limits run entirely on `TestClock`.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * A request as the client received it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sent {
  /** When it was sent, by the Clock (TestClock's time in tests). */
  readonly at: number
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/**
 * An answer from the handler.
 *
 * @since 0.1.0
 * @category models
 */
export interface Reply {
  readonly status: number
  /** A string is sent as it is; anything else as JSON. */
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * What the handler returns: a reply, or how the request fails ("refused" before it is sent).
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = Reply | "refused" | "reset" | "hang"

const respond = (request: HttpClientRequest.HttpClientRequest, reply: Reply) => {
  const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body)
  const response = HttpClientResponse.fromWeb(request, new Response(null, { status: reply.status, headers: { ...reply.headers } }))
  Object.defineProperty(response, "text", { get: () => Effect.succeed(text) })
  Object.defineProperty(response, "json", { get: () => Effect.try(() => JSON.parse(text) as unknown) })
  Object.defineProperty(response, "arrayBuffer", { get: () => Effect.succeed(new TextEncoder().encode(text).buffer) })
  return response
}

/**
 * The client, the requests it received, and a layer that provides it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (handler: (request: Sent, index: number) => Outcome) => {
  const sent: Array<Sent> = []
  const client = HttpClient.make((request, url, signal) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : undefined
      const record: Sent = { at, method: request.method, url: url.toString(), headers: request.headers, body }
      sent.push(record)
      const outcome = handler(record, sent.length - 1)
      if (outcome === "hang") {
        // Like a real client: no answer until the request is aborted.
        return Effect.async<never, HttpClientError.RequestError>((resume) => {
          signal.addEventListener("abort", () =>
            resume(Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("aborted") }))))
        })
      }
      if (outcome === "refused" || outcome === "reset") {
        const cause = Object.assign(new Error(outcome === "refused" ? "connect ECONNREFUSED" : "socket hang up"), {
          code: outcome === "refused" ? "ECONNREFUSED" : "ECONNRESET"
        })
        return Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause }))
      }
      return Effect.succeed(respond(request, outcome))
    })
  )
  return { client, sent, layer: Layer.succeed(HttpClient.HttpClient, client) }
}
