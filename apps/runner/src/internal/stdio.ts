/**
 * The process's stdout and stderr, written so that nothing is lost and a closed pipe is quiet.
 * Node writes to a pipe asynchronously once its buffer (64 KiB) is full, and `process.exit`
 * drops what is still queued: so a write waits while the stream is full (backpressure), and
 * the process exits only after both streams are flushed (`flushed`). A stream whose reader went
 * away (`x-runner runs show … | head -1`: EPIPE) emits an error that would otherwise end the
 * process with a stack trace: it is kept (`broken`), later writes are dropped, and `main` ends
 * the command quietly (`closed`).
 *
 * @internal
 */
import * as Effect from "effect/Effect"

type Stream = NodeJS.WriteStream

/** The first error of each stream (EPIPE, usually): nothing more is written to it. */
const errors = new Map<Stream, Error>()
const waiting = new Set<(error: Error) => void>()

const onError = (stream: Stream) => (error: Error) => {
  if (errors.has(stream)) return
  errors.set(stream, error)
  for (const resume of waiting) resume(error)
  waiting.clear()
}

let guarded = false

/** Listens to both streams' errors (before anything is written): without it, EPIPE ends the process with a stack trace. */
export const guard = (): void => {
  if (guarded) return
  guarded = true
  process.stdout.on("error", onError(process.stdout))
  process.stderr.on("error", onError(process.stderr))
}

/** Whether the stream's reader is gone (or it failed otherwise): what is written to it is dropped. */
export const broken = (stream: Stream): boolean => errors.has(stream)

/** A write to a closed pipe: its reader went away on purpose, so nothing is said. */
export const isClosedPipe = (error: Error): boolean => {
  const code = (error as { code?: unknown }).code
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED"
}

/**
 * Writes the text; when the stream's buffer is full, waits until this text has been handed to
 * the system, so that a command producing much output keeps pace with its reader.
 */
export const write = (stream: Stream, text: string): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    if (errors.has(stream)) return resume(Effect.void)
    // Node calls a write's callback later, never during the write.
    let room = true
    room = stream.write(text, () => {
      if (!room) resume(Effect.void)
    })
    if (room) resume(Effect.void)
  })

/** Succeeds with the first error of stdout or stderr: the command is to end then. */
export const closed: Effect.Effect<Error> = Effect.async<Error>((resume) => {
  const first = [...errors.values()][0]
  if (first !== undefined) return resume(Effect.succeed(first))
  const done = (error: Error) => resume(Effect.succeed(error))
  waiting.add(done)
  return Effect.sync(() => void waiting.delete(done))
})

/** Calls `then` once everything written to stdout and stderr has been handed to the system (or cannot be). */
export const flushed = (then: () => void): void => {
  const streams = [process.stdout, process.stderr].filter((stream) => !errors.has(stream) && !stream.destroyed)
  let left = streams.length
  if (left === 0) return then()
  // An empty write's callback runs once everything queued before it is written, or failed.
  for (const stream of streams) {
    stream.write("", () => {
      if (--left === 0) then()
    })
  }
}
