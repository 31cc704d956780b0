/**
 * A request body read with a cap on its bytes: a body that declares more (`Content-Length`)
 * is refused unread, and one sent without a length (chunked) is refused as soon as the cap is
 * passed: what the client still sends is then dropped as it arrives (never kept), for at most
 * a few seconds, and the connection is left for the client to close.
 *
 * It reads the Node request itself (with core's `Webhook.readBody`): `@effect/platform`'s
 * readers collect the whole body first (`arrayBuffer`) or destroy the socket when they stop
 * early (`stream`), which would leave no way to answer 413.
 *
 * @internal
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { IncomingMessage } from "node:http"

/**
 * How long the rest of a refused body is read and dropped, at most: closing a connection whose
 * data is still unread makes the kernel reset it, and a reset can discard the 413 before the
 * client reads it; a client that has its answer stops sending long before this.
 */
const lingerMillis = 2_000

/** The body, or none when it is larger than `maxBytes`; empty when the client went away before its end (no signature holds then). */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Option.Option<Uint8Array>> => readIncoming(NodeHttpServerRequest.toIncomingMessage(request), maxBytes)

/**
 * `read` of a Node request: read when the effect first runs, and once (running it again gives
 * the same body).
 */
export const readIncoming = (incoming: IncomingMessage, maxBytes: number): Effect.Effect<Option.Option<Uint8Array>> => {
  let reading: Promise<Option.Option<Uint8Array>> | undefined
  return Effect.promise(() =>
    reading ??= Webhook.readBody(incoming, maxBytes).then(
      (body) => {
        if (body._tag === "Body") return Option.some<Uint8Array>(body.bytes)
        dropRest(incoming)
        return Option.none()
      },
      () => Option.some<Uint8Array>(Buffer.alloc(0))
    )
  )
}

/**
 * The rest of a body refused over its cap, read on and dropped (memory stays flat) until the
 * client, answered, goes away; its connection closed after `lingerMillis` at most.
 */
export const dropRest = (incoming: IncomingMessage): void => {
  incoming.on("data", () => {})
  incoming.resume()
  setTimeout(() => incoming.socket.destroy(), lingerMillis).unref()
}

/** The answer to a body over the cap: 413 (the client closes; see `lingerMillis`). */
export const tooLarge = (maxBytes: number): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(`a request body is at most ${maxBytes} bytes`, { status: 413 })

/**
 * The answer to a request no route takes: 404, and the connection closed, so that a body sent
 * with it is not read either.
 */
export const notFound: HttpServerResponse.HttpServerResponse = HttpServerResponse.text("not found", {
  status: 404,
  headers: { connection: "close" }
})
