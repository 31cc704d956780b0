/**
 * The Console `@effect/cli` prints its help, version and argument errors with. Its texts are
 * styled with ANSI escapes: they are kept only for a terminal (stdout or stderr a TTY, and
 * `NO_COLOR` unset). The filler "A user-defined piece of text." that @effect/cli puts before
 * the description of every text argument is dropped: each one has a description of its own.
 *
 * @internal
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

const ansi = /\x1b\[[0-9;]*m/g
const filler = /^[ \t]*A user-defined piece of text\.[ \t]*\n(?:[ \t]*\n)?/gm

const colour = (stream: NodeJS.WriteStream) => stream.isTTY === true && (process.env["NO_COLOR"] ?? "") === ""

const render = (stream: NodeJS.WriteStream, args: ReadonlyArray<unknown>) => {
  const text = args.map(String).join(" ").replace(filler, "").replace(/\n+$/, "")
  stream.write((colour(stream) ? text : text.replace(ansi, "")) + "\n")
}

const unsafe: Console.UnsafeConsole = {
  ...globalThis.console,
  log: (...args: ReadonlyArray<unknown>) => render(process.stdout, args),
  info: (...args: ReadonlyArray<unknown>) => render(process.stdout, args),
  error: (...args: ReadonlyArray<unknown>) => render(process.stderr, args),
  warn: (...args: ReadonlyArray<unknown>) => render(process.stderr, args)
} as Console.UnsafeConsole

/** A Console over stdout and stderr, without escapes where they are not a terminal. */
export const cliConsole: Console.Console = {
  [Console.TypeId]: Console.TypeId,
  unsafe,
  assert: (condition, ...args) => Effect.sync(() => condition ? undefined : render(process.stderr, args)),
  clear: Effect.void,
  count: () => Effect.void,
  countReset: () => Effect.void,
  debug: (...args) => Effect.sync(() => render(process.stderr, args)),
  dir: (item) => Effect.sync(() => render(process.stdout, [item])),
  dirxml: (...args) => Effect.sync(() => render(process.stdout, args)),
  error: (...args) => Effect.sync(() => render(process.stderr, args)),
  group: () => Effect.void,
  groupEnd: Effect.void,
  info: (...args) => Effect.sync(() => render(process.stdout, args)),
  log: (...args) => Effect.sync(() => render(process.stdout, args)),
  table: (data) => Effect.sync(() => render(process.stdout, [JSON.stringify(data)])),
  time: () => Effect.void,
  timeEnd: () => Effect.void,
  timeLog: () => Effect.void,
  trace: (...args) => Effect.sync(() => render(process.stderr, args)),
  warn: (...args) => Effect.sync(() => render(process.stderr, args))
}
