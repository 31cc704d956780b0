/**
 * Where a command writes: `out` (stdout) for what it produces, `err` (stderr) for progress
 * and problems. A service, so that tests and the commands share one way to write.
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stdio from "./internal/stdio.js"

/**
 * The two streams of a command.
 *
 * @since 0.2.0
 * @category models
 */
export interface Output {
  readonly out: (text: string) => Effect.Effect<void>
  readonly err: (text: string) => Effect.Effect<void>
}

/**
 * The service of a command's output.
 *
 * @since 0.2.0
 * @category tags
 */
export const Output = Context.GenericTag<Output>("x-runner/Output")

const line = (text: string) => text.endsWith("\n") ? text : text + "\n"

/**
 * The process's stdout and stderr, one line per call. A write waits while the stream's buffer
 * is full (a pipe read slowly), so that output keeps pace with its reader; once a stream's
 * reader is gone (a closed pipe), what is written to it is dropped, and `main` ends the command.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<Output> = Layer.succeed(Output, {
  out: (text) => Stdio.write(process.stdout, line(text)),
  err: (text) => Stdio.write(process.stderr, line(text))
})

/**
 * Writes a line to stdout.
 *
 * @since 0.2.0
 * @category utils
 */
export const out = (text: string): Effect.Effect<void, never, Output> => Effect.flatMap(Output, (output) => output.out(text))

/**
 * Writes a line to stderr.
 *
 * @since 0.2.0
 * @category utils
 */
export const err = (text: string): Effect.Effect<void, never, Output> => Effect.flatMap(Output, (output) => output.err(text))
