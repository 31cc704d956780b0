/**
 * The callback contract between `ProviderClient` and an `HttpClient` that can send a request
 * and call back with its response whole (as `@x/http-undici`'s does).
 *
 * Going through `HttpClient.execute`, an attempt is a chain of effects: the rate limit's
 * token, the time limit, the client's own wrapper, the request's effect, each a step of the
 * fiber and code of its own to run. With a client that offers a `BufferedSend`, not wrapped by
 * the credentials (static headers, or none: not an OAuth2 token that is refreshed, not a key in
 * the query), and when nothing asks for more (no span for the request, a body in memory, the
 * response read whole: no streaming reader, no `streamRequested` from the caller; a finite time limit (its watchdog started first when it has stopped), a rate limiter in memory
 * or none, with a token free now), the attempt is one
 * asynchronous step: the token and the time limit taken, the request sent, and, in the
 * callback, both given back and the response read. Any other attempt goes through `execute`
 * as before. Either way an attempt sends the same request and fails with the same errors, its
 * retries, time limit and interruption the same (the time limit ends at the answer, whose body
 * is whole by then).
 *
 * @since 0.13.0
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type * as Either from "effect/Either"
import type * as Fiber from "effect/Fiber"

/**
 * Marks an HttpClient that offers a `BufferedSend`.
 *
 * @since 0.13.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol("@x/core/BufferedSend")

/**
 * The type of `TypeId`.
 *
 * @since 0.13.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * Sends `request` now, for `fiber` (whose FiberRefs choose its connection as for `execute`: a
 * file policy's guarded connection, say), and calls
 * `done` once with the response, its body already read whole, or with the request's failure
 * (possibly before it returns). Returns the request's abort: once called, the request ends
 * with a failure, unless it had ended already. For requests whose body is in memory (empty
 * or bytes); the sender does not trace.
 *
 * @since 0.13.0
 * @category models
 */
export type Send = (
  request: HttpClientRequest.HttpClientRequest,
  fiber: Fiber.RuntimeFiber<any, any>,
  done: (result: Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>) => void
) => () => void

/**
 * An HttpClient that offers a `BufferedSend`.
 *
 * @since 0.13.0
 * @category models
 */
export interface BufferedSend {
  readonly [TypeId]: Send
}

/**
 * Whether an HttpClient offers a `BufferedSend`.
 *
 * @since 0.13.0
 * @category guards
 */
export const isBufferedSend = (client: unknown): client is BufferedSend =>
  typeof client === "object" && client !== null && typeof (client as Partial<BufferedSend>)[TypeId] === "function"

/**
 * Declares the `BufferedSend` of an HttpClient: `send` must do what `execute` does for the
 * same request on the same fiber (the same request on the wire, the same response or failure),
 * without the effect around it.
 *
 * @since 0.13.0
 * @category constructors
 */
export const bufferedSend = <C extends object>(client: C, send: Send): C & BufferedSend =>
  Object.assign(client, { [TypeId]: send } as const)

/**
 * Whether a request's body is one a `BufferedSend` takes: empty, or bytes in memory.
 *
 * @since 0.13.0
 * @category guards
 */
export const takes = (request: HttpClientRequest.HttpClientRequest): boolean =>
  request.body._tag === "Empty" || request.body._tag === "Uint8Array"
