/**
 * A request body read with a cap on its bytes: a body that declares more (`Content-Length`)
 * is refused unread, and one sent without a length (chunked) is refused as soon as the cap is
 * passed, without reading the rest. The answer to a refused body closes the connection, so
 * the rest of it is never read.
 *
 * It reads the Node request itself: `@effect/platform`'s readers collect the whole body first
 * (`arrayBuffer`) or destroy the socket when they stop early (`stream`), which would leave no
 * way to answer 413.
 *
 * @internal
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** The body, or none when it is larger than `maxBytes`. */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Option.Option<Uint8Array>> => {
  if (Number(request.headers["content-length"] ?? 0) > maxBytes) return Effect.succeed(Option.none())
  const source = NodeHttpServerRequest.toIncomingMessage(request)
  if (source.readableEnded) return Effect.succeed(Option.some(new Uint8Array(0)))
  return Effect.async<Option.Option<Uint8Array>>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onEnd)
      source.off("close", onEnd)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        stop()
        source.pause()
        chunks.length = 0
        resume(Effect.succeed(Option.none()))
      } else chunks.push(chunk)
    }
    // A client that goes away mid-body leaves what arrived, which its signature check refuses.
    const onEnd = () => {
      stop()
      resume(Effect.succeed(Option.some(Buffer.concat(chunks, size))))
    }
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onEnd)
    source.once("close", onEnd)
    return Effect.sync(stop)
  })
}

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
