/**
 * How a successful response is read: JSON decoded with a Schema, text, bytes, or discarded; or,
 * by a `streaming` reader, as a stream (a download to a file, never buffered whole).
 * `ProviderClient.send` takes one; a reader's failure is a typed `ConnectorError`.
 *
 * @since 0.2.0
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Schema from "effect/Schema"
import * as Errors from "./ConnectorError.js"
import { acceptedUnreadable, isWrite } from "./internal/accepted.js"
import { describeMismatch, mismatchIssues, parseJson } from "./internal/json.js"
import { flatMapNow } from "./internal/flatMapNow.js"
import * as PlainSchema from "./internal/plainSchema.js"

/**
 * Reads a successful response; `info` names the request in errors.
 *
 * @since 0.2.0
 * @category models
 */
export type ResponseReader<A> = (
  response: HttpClientResponse.HttpClientResponse,
  info: Errors.RequestInfo
) => Effect.Effect<A, Errors.ConnectorError | HttpClientError.ResponseError>

/**
 * Reads a JSON body and decodes it with a Schema. A body that does not decode is an
 * `UnexpectedResponse`, or, answering a write (any method but GET, HEAD and OPTIONS), an
 * `AcceptedUnreadable` that carries the answer: the provider did what was asked.
 *
 * @since 0.2.0
 * @category constructors
 */
export const json = <A, I>(schema: Schema.Schema<A, I>): ResponseReader<A> => {
  let reader = jsonReaders.get(schema)
  if (reader === undefined) {
    reader = makeJsonReader(schema)
    jsonReaders.set(schema, reader)
  }
  return reader as ResponseReader<A>
}

// Compiling a decoder costs more than using it: one reader per Schema.
const jsonReaders = new WeakMap<Schema.Schema<any, any>, ResponseReader<any>>()

const makeJsonReader = <A, I>(schema: Schema.Schema<A, I>): ResponseReader<A> => {
  const decode = PlainSchema.decodeUnknownEither(schema, { errors: "all" })
  return (response, info) =>
    flatMapNow(response.text, (text) => {
      const body = parseJson(text)
      // Only an answer that is not JSON is looked at again: an empty one is read as no value.
      const empty = body === undefined && text.trim() === ""
      const result = decode(empty ? undefined : body)
      if (Either.isRight(result)) return Effect.succeed(result.right)
      return Effect.fail(
        isWrite(info.method)
          ? acceptedUnreadable(
            info,
            response.status,
            text,
            body !== undefined
              ? mismatchIssues(result.left)
              : [{ path: "", message: empty ? "the answer is empty" : "the answer is not JSON" }]
          )
          : new Errors.UnexpectedResponse({
            message: `the response does not match the expected shape: ${describeMismatch(result.left)}`,
            request: info,
            status: response.status
          })
      )
    })
}

/**
 * Reads the body as text.
 *
 * @since 0.2.0
 * @category constructors
 */
export const text: ResponseReader<string> = (response) => response.text

/**
 * Reads the body as bytes.
 *
 * @since 0.2.0
 * @category constructors
 */
export const bytes: ResponseReader<Uint8Array> = (response) =>
  Effect.map(response.arrayBuffer, (b) => new Uint8Array(b))

/**
 * Reads and discards the body (it must be read, or the connection is not reused).
 *
 * @since 0.2.0
 * @category constructors
 */
export const discard: ResponseReader<void> = (response) => Effect.asVoid(response.arrayBuffer)

/**
 * True on the fiber that executes a request whose response a `streaming` reader reads: an
 * HttpClient that buffers responses (as `@x/http-undici` does, with a size cap) must hand
 * this one over as a stream as it arrives, without buffering or capping it.
 *
 * @since 0.2.0
 * @category streaming
 */
export const streamRequested: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(false)

const StreamingId: unique symbol = Symbol("@x/core/ResponseReader/streaming")

/**
 * A reader that reads the body as a stream (`response.stream`), e.g. to a file: the request is
 * executed with `streamRequested`, so the HttpClient does not buffer the body first.
 *
 * @since 0.2.0
 * @category streaming
 */
export const streaming = <A>(reader: ResponseReader<A>): ResponseReader<A> =>
  Object.assign((response: HttpClientResponse.HttpClientResponse, info: Errors.RequestInfo) => reader(response, info), {
    [StreamingId]: true
  })

/**
 * Whether a reader is `streaming`.
 *
 * @since 0.2.0
 * @category streaming
 */
export const isStreaming = (reader: ResponseReader<unknown>): boolean =>
  (reader as unknown as { readonly [StreamingId]?: boolean })[StreamingId] === true
