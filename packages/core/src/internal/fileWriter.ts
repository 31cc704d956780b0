/**
 * A response body written to a file as it arrives: into a temporary file next to the target
 * (mode 0600), counted against an optional cap, then put under the target's name: renamed over
 * it when overwriting is allowed, else linked there, which fails if the name is taken (no
 * check-then-write race). On any failure (the cap, the connection, an interruption) the
 * temporary file is removed, so nothing half-written is ever left under the target's name.
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stream from "effect/Stream"
import { randomBytes } from "node:crypto"
import { type FileHandle, link, open, rename, rm } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import type * as Errors from "../ConnectorError.js"
import type * as ResponseReader from "../ResponseReader.js"

/** @internal What was written: where, how many bytes, and the response's content type. */
export interface Written {
  readonly path: string
  readonly size: number
  readonly contentType: string | undefined
}

/** @internal How to write: the target, the cap, and the errors a caller names its way. */
export interface Target {
  readonly path: string
  /** Whether a file already at `path` is replaced; otherwise the write fails and leaves it. */
  readonly overwrite: boolean
  readonly maxBytes?: number | undefined
  /** The error for a body over `maxBytes` (`size` when the response declared it). */
  readonly tooLarge: (info: Errors.RequestInfo, size: number | undefined) => Errors.ConnectorError
  /** The error for a file that cannot be written (a missing directory, no permission). */
  readonly unwritable: (message: string) => Errors.ConnectorError
}

class TooLarge {
  constructor(readonly size: number | undefined) {}
}

/** @internal A reader (to be marked `streaming`) that writes the body to `target.path`. */
export const toFile = (target: Target): ResponseReader.ResponseReader<Written> => (response, info) => {
  type Failure = Errors.ConnectorError | HttpClientError.ResponseError
  const contentType = response.headers["content-type"]
  const declared = Number(response.headers["content-length"])
  const max = target.maxBytes
  if (max !== undefined && Number.isFinite(declared) && declared > max) {
    return Effect.zipRight(discardBody(response), Effect.fail(target.tooLarge(info, declared)))
  }
  const temporary = join(dirname(target.path), `.${basename(target.path)}.${randomBytes(6).toString("hex")}.part`)
  const finish = (handle: FileHandle, size: number) =>
    Effect.tryPromise({
      try: async () => {
        await handle.sync()
        await handle.close()
        await place(temporary, target)
        return { path: target.path, size, contentType }
      },
      catch: (cause) =>
        target.unwritable(
          (cause as { code?: unknown }).code === "EEXIST"
            ? `${target.path} already exists, and overwriting it is off`
            : `cannot write ${target.path}: ${reason(cause)}`
        )
    })
  const use = (handle: FileHandle): Effect.Effect<Written, Failure> =>
    write(handle, response, max, target).pipe(
      Effect.flatMap((size) => finish(handle, size)),
      Effect.catchIf((e): e is TooLarge => e instanceof TooLarge, (e) => Effect.fail(target.tooLarge(info, e.size)))
    )
  return Effect.acquireUseRelease(
    Effect.tryPromise({
      try: () => open(temporary, "wx", 0o600),
      catch: (cause) => target.unwritable(`cannot write ${temporary}: ${reason(cause)}`)
    }),
    use,
    (handle, exit) =>
      Exit.isSuccess(exit)
        ? Effect.void
        : Effect.promise(() => handle.close().catch(() => undefined).then(() => rm(temporary, { force: true })))
  )
}

const place = async (temporary: string, target: Target) => {
  if (target.overwrite) return rename(temporary, target.path)
  try {
    await link(temporary, target.path)
  } catch (cause) {
    if ((cause as { code?: unknown }).code === "EEXIST") throw cause
    // A file system without hard links: the name is taken exclusively, then replaced.
    await (await open(target.path, "wx", 0o600)).close()
    return rename(temporary, target.path)
  }
  await rm(temporary, { force: true })
}

// Each chunk is written before the next is read: the HttpClient's backpressure bounds memory.
const write = (
  handle: FileHandle,
  response: HttpClientResponse.HttpClientResponse,
  max: number | undefined,
  target: Target
): Effect.Effect<number, TooLarge | Errors.ConnectorError | HttpClientError.ResponseError> => {
  let size = 0
  return Effect.map(
    Stream.runForEach(response.stream, (chunk): Effect.Effect<unknown, TooLarge | Errors.ConnectorError> => {
      size += chunk.length
      if (max !== undefined && size > max) return Effect.fail(new TooLarge(undefined))
      return Effect.tryPromise({
        try: () => handle.write(chunk),
        catch: (cause) => target.unwritable(`cannot write ${target.path}: ${reason(cause)}`)
      })
    }),
    () => size
  )
}

// Reading one chunk and stopping releases the body: the stream's end cancels the fetch reader or
// destroys the undici Readable, which aborts the request. A stream never pulled releases nothing
// (an undici body would stay paused, its connection held).
const discardBody = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.ignore(Stream.runDrain(Stream.take(response.stream, 1)))

const reason = (cause: unknown) => {
  const code = (cause as { code?: unknown }).code
  return typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause)
}
