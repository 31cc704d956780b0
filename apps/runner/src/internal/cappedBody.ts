/**
 * A request body read with a cap on its bytes: a body that declares more (`Content-Length`)
 * is refused unread, and one sent without a length (chunked) is refused as soon as the cap is
 * passed, without reading the rest. The answer to a refused body closes the connection, so
 * the rest of it is never read.
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

/** The body, or none when it is larger than `maxBytes`; empty when the client went away before its end (no signature holds then). */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Option.Option<Uint8Array>> =>
  Effect.map(
    Effect.promise(() =>
      Webhook.readBody(NodeHttpServerRequest.toIncomingMessage(request), maxBytes).catch(() => ({
        _tag: "Body" as const,
        bytes: Buffer.alloc(0)
      }))
    ),
    (body) => body._tag === "TooLarge" ? Option.none() : Option.some(body.bytes)
  )

/** The answer to a body over the cap: 413, and the connection closed rather than read on. */
export const tooLarge = (maxBytes: number): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(`a request body is at most ${maxBytes} bytes`, { status: 413, headers: { connection: "close" } })

/**
 * The answer to a request no route takes: 404, and the connection closed, so that a body sent
 * with it is not read either.
 */
export const notFound: HttpServerResponse.HttpServerResponse = HttpServerResponse.text("not found", {
  status: 404,
  headers: { connection: "close" }
})
