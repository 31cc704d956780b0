/**
 * Webhook delivery checks: HMAC signatures compared in constant time, timestamp tolerance
 * and a body size limit. A delivery that fails any of them is rejected before it runs anything.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { createHmac, timingSafeEqual } from "node:crypto"
import type { IncomingMessage } from "node:http"
import { asciiOnly, parsedAndSorted, sortedJson } from "./internal/sortedJson.js"

/**
 * Why a delivery was rejected; `status` is what to answer (401 bad signature, 413 too large, ...).
 *
 * @since 0.1.0
 * @category errors
 */
export class DeliveryRejected extends Data.TaggedError("DeliveryRejected")<{
  readonly status: 400 | 401 | 413
  readonly message: string
}> {}

/**
 * Compares two strings in constant time (for their common length; a length mismatch is unequal).
 *
 * @since 0.1.0
 * @category utils
 */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  // Comparing against itself keeps the time independent of where a mismatch of lengths is found.
  return left.length === right.length ? timingSafeEqual(left, right) : (timingSafeEqual(left, left), false)
}

const toBuffer = (body: Uint8Array | string) => typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength)

/**
 * How a provider checks a callback URL before it registers a webhook there: a request with this
 * method, to be answered with `response` (before any state exists: it comes while enabling).
 *
 * @since 0.2.0
 * @category models
 */
export interface UrlCheck {
  readonly method: string
  readonly response: { readonly status: number; readonly body?: string }
}

/**
 * A `HEAD` to the callback URL answered 200, as Trello checks it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const headCheck: UrlCheck = { method: "HEAD", response: { status: 200 } }

/**
 * The default body size limit of a delivery: 1 MiB.
 *
 * @since 0.1.0
 * @category utils
 */
export const defaultMaxBytes = 1024 * 1024

/**
 * Rejects a body larger than `maxBytes` with a 413.
 *
 * @since 0.1.0
 * @category utils
 */
export const checkSize = (body: Uint8Array, maxBytes = defaultMaxBytes): Effect.Effect<void, DeliveryRejected> =>
  body.byteLength > maxBytes
    ? Effect.fail(new DeliveryRejected({ status: 413, message: `the delivery is larger than ${maxBytes} bytes` }))
    : Effect.void

/**
 * Base64 HMAC-SHA1 of the raw body followed by the callback URL (Trello's `X-Trello-Webhook`).
 *
 * @since 0.1.0
 * @category utils
 */
export const hmacSha1Base64 = (secret: Redacted.Redacted<string>, body: Uint8Array | string, callbackUrl: string): string =>
  createHmac("sha1", Redacted.value(secret)).update(toBuffer(body)).update(callbackUrl, "utf8").digest("base64")

/**
 * Verifies a base64 HMAC-SHA1 over body + callback URL; a missing or wrong signature is a 401.
 *
 * @since 0.1.0
 * @category utils
 */
export const verifyHmacSha1Base64 = (options: {
  readonly secret: Redacted.Redacted<string>
  readonly body: Uint8Array
  readonly callbackUrl: string
  readonly signature: string | undefined
}): Effect.Effect<void, DeliveryRejected> =>
  options.signature === undefined || options.signature === ""
    ? Effect.fail(new DeliveryRejected({ status: 401, message: "the delivery has no signature" }))
    : safeEqual(hmacSha1Base64(options.secret, options.body, options.callbackUrl), options.signature.trim())
    ? Effect.void
    : Effect.fail(new DeliveryRejected({ status: 401, message: "the delivery's signature does not match" }))

/**
 * Hex HMAC-SHA256 of `timestamp:body` (Webflow's `x-webflow-signature`).
 *
 * @since 0.1.0
 * @category utils
 */
export const hmacSha256Hex = (secret: Redacted.Redacted<string>, timestamp: string, body: Uint8Array | string): string =>
  createHmac("sha256", Redacted.value(secret)).update(`${timestamp}:`, "utf8").update(toBuffer(body)).digest("hex")


/**
 * A delivery signed over its timestamp: the secret, the raw body, the timestamp and signature
 * headers' values, and how far from now the timestamp may be (default 5 minutes).
 *
 * @since 0.2.0
 * @category models
 */
export interface TimestampedDelivery {
  readonly secret: Redacted.Redacted<string>
  readonly body: Uint8Array
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly tolerance?: Duration.DurationInput
}

/**
 * What every timestamped scheme checks before it computes a signature: the signature and
 * timestamp of a delivery, or why it is refused: either is missing, or the timestamp (`digits`,
 * in units of `unitMs`) is outside `tolerance` (default 5 minutes) of now.
 */
const checkTimestamp = (
  now: number,
  options: TimestampedDelivery,
  unitMs: number,
  digits: RegExp
): Either.Either<{ readonly timestamp: string; readonly signature: string }, string> => {
  const { signature, timestamp } = options
  if (signature === undefined || signature === "" || timestamp === undefined || timestamp === "") {
    return Either.left("the delivery has no signature or timestamp")
  }
  const tolerance = Duration.toMillis(Duration.decode(options.tolerance ?? "5 minutes"))
  return !digits.test(timestamp) || Math.abs(now - Number(timestamp) * unitMs) > tolerance
    ? Either.left("the delivery's timestamp is outside the tolerance window")
    : Either.right({ timestamp, signature })
}

/**
 * Verifies a hex HMAC-SHA256 over `timestamp:body`, and that the timestamp (ms since the
 * epoch) is within `tolerance` of now (default 5 minutes), so an old delivery cannot be replayed.
 *
 * @since 0.1.0
 * @category utils
 */
export const verifyHmacSha256Hex = (options: TimestampedDelivery): Effect.Effect<void, DeliveryRejected> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const checked = checkTimestamp(now, options, 1, /^\d+$/)
    if (Either.isLeft(checked)) return Effect.fail(new DeliveryRejected({ status: 401, message: checked.left }))
    const { signature, timestamp } = checked.right
    return safeEqual(hmacSha256Hex(options.secret, timestamp, options.body), signature.trim().toLowerCase())
      ? Effect.void
      : Effect.fail(new DeliveryRejected({ status: 401, message: "the delivery's signature does not match" }))
  })

/**
 * Hex HMAC-SHA256 of `{timestamp}.{value as JSON with sorted keys, no spaces}`, characters
 * outside ASCII escaped and numbers written as Python writes them once it has read the value's
 * JSON text (Browser Use's `X-Browser-Use-Signature`).
 *
 * @since 0.2.0
 * @category utils
 */
export const hmacSha256SortedJsonHex = (secret: Redacted.Redacted<string>, timestamp: string, value: unknown): string =>
  createHmac("sha256", Redacted.value(secret)).update(`${timestamp}.${asciiOnly(sortedJson(value))}`, "utf8").digest("hex")

/**
 * Verifies a hex HMAC-SHA256 over `{timestamp}.{body re-serialized with sorted keys, no spaces}`
 * (Browser Use's scheme), and that the timestamp (seconds since the epoch) is within
 * `tolerance` of now (default 5 minutes). The body is re-serialized as Python's `json.dumps`
 * writes what `json.loads` reads from it (the service is in Python): integers with every digit,
 * floats as Python writes them (`1.0`, `1e-06`). Both escapings of characters outside ASCII are
 * accepted (Python's, which the service writes, and JavaScript's). A body that is not JSON is a 400.
 * Succeeds with the body's JSON as `JSON.parse` reads it: the delivery parsed once, for its
 * signature and its decoding.
 *
 * @since 0.2.0
 * @category utils
 */
export const verifyHmacSha256SortedJsonHex = (options: TimestampedDelivery): Effect.Effect<unknown, DeliveryRejected> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const checked = checkTimestamp(now, options, 1000, /^\d{1,15}$/)
    if (Either.isLeft(checked)) return Effect.fail(new DeliveryRejected({ status: 401, message: checked.left }))
    const { signature, timestamp } = checked.right
    let parsed: ReturnType<typeof parsedAndSorted>
    try {
      parsed = parsedAndSorted(toBuffer(options.body).toString("utf8"))
    } catch {
      return Effect.fail(new DeliveryRejected({ status: 400, message: "the delivery is not JSON" }))
    }
    const json = parsed.sorted
    const sign = (text: string) => createHmac("sha256", Redacted.value(options.secret)).update(`${timestamp}.${text}`, "utf8").digest("hex")
    const given = signature.trim().toLowerCase()
    const ascii = asciiOnly(json)
    return safeEqual(sign(ascii), given) || (ascii !== json && safeEqual(sign(json), given))
      ? Effect.succeed(parsed.value)
      : Effect.fail(new DeliveryRejected({ status: 401, message: "the delivery's signature does not match" }))
  })

/**
 * A request body read whole, or refused because it is larger than the cap.
 *
 * @since 0.2.0
 * @category models
 */
export type Body =
  | { readonly _tag: "Body"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge"; readonly maxBytes: number }

/**
 * Reads a Node request's body, at most `maxBytes` of it (a delivery's limit by default): past
 * the cap (announced by `Content-Length`, or reached while reading a body of unknown length)
 * it stops reading and resolves with `TooLarge` at once, so memory stays bounded whatever the
 * client sends. The rest is never read: answer 413 with `Connection: close`. Rejects if the
 * client goes away before the end.
 *
 * @since 0.2.0
 * @category utils
 */
export const readBody = (req: IncomingMessage, maxBytes: number = defaultMaxBytes): Promise<Body> =>
  new Promise<Body>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const stop = () => {
      req.removeListener("data", onData)
      req.removeListener("end", onEnd)
    }
    const tooLarge = () => {
      stop()
      // Paused, the socket stops reading: TCP holds the client back.
      req.pause()
      resolve({ _tag: "TooLarge", maxBytes })
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) tooLarge()
      else chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      resolve({ _tag: "Body", bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) })
    }
    if (Number(req.headers["content-length"]) > maxBytes) return tooLarge()
    if (req.readableEnded) return onEnd()
    req.on("data", onData)
    req.once("end", onEnd)
    req.once("error", reject)
    req.once("aborted", () => reject(new Error("the client went away before the end of the body")))
  })
