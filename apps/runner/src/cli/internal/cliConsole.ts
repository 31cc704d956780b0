/**
 * The Console `@effect/cli` prints its help, version and argument errors with. Its texts are
 * styled with ANSI escapes: they are kept only for a terminal (stdout or stderr a TTY, and
 * `NO_COLOR` unset). Its help is tidied (`tidyHelp`): what @effect/cli adds there and says
 * nothing (a second title line, a usage without the program's name, every command's examples
 * under each command, "A file." before the description of a file) is left out.
 *
 * @internal
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Stdio from "../../internal/stdio.js"

const ansi = /\x1b\[[0-9;]*m/g
const plain = (line: string) => line.replace(ansi, "")

/** The description @effect/cli puts before our own for each kind of value: it says what the usage says. */
const fillers = new Set([
  "A user-defined piece of text.",
  "A true or false value.",
  "An integer.",
  "A file.",
  "A directory.",
  "A file or directory."
])

/** A filler (with the blank line after it), as it stands under an argument or option `item`. */
const isFiller = (line: string, item: string) => {
  if (!line.startsWith("  ") || line.startsWith("   ")) return false
  const text = line.trim()
  const choices = /^One of the following: (.*)$/.exec(text)
  return fillers.has(text) || (choices !== null && item.includes(choices[1]!.split(", ").join(" | ")))
}

/** What the help is printed for: the program and its commands. */
interface Program {
  readonly name: string
  readonly commands: ReadonlyArray<string>
}

/**
 * The help @effect/cli prints, tidied: one title line (`<program> <version>`), the usage with
 * the program's name (`$ x-runner run …`), a command's own examples only, no filler. Any other
 * text is returned as it is.
 */
export const tidyHelp = (program: Program) => (text: string): string => {
  const lines = text.split("\n")
  if (plain(lines[0] ?? "").trim() !== program.name || !lines.some((line) => plain(line) === "USAGE")) return text
  const kept: Array<string> = []
  let section = ""
  let item = ""
  let command: string | undefined
  // lines[0] is the banner: the line after it says the same with the version.
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    const text = plain(line)
    const dropped = () => {
      if (plain(lines[i + 1] ?? "x") === "") i++
    }
    if (/^[A-Z]+$/.test(text)) section = text
    else if (text !== "" && !text.startsWith(" ")) item = text
    if (kept.length === 0 && text === "") continue
    if (section === "USAGE" && text.startsWith("$ ")) {
      const used = text.slice(2).split(" ")[0]!
      command = program.commands.includes(used) ? used : undefined
      kept.push(command === undefined ? `$ ${program.name} <command> [options] [arguments]` : line.replace("$ ", `$ ${program.name} `))
      continue
    }
    if (section === "EXAMPLES" && command !== undefined && text.startsWith("$ ") && !text.startsWith(`$ ${program.name} ${command} `)) {
      dropped()
      continue
    }
    if ((section === "ARGUMENTS" || section === "OPTIONS") && isFiller(text, item)) {
      dropped()
      continue
    }
    kept.push(line)
  }
  return kept.join("\n")
}

const colour = (stream: NodeJS.WriteStream) => stream.isTTY === true && (process.env["NO_COLOR"] ?? "") === ""

/** A Console over stdout and stderr, without escapes where they are not a terminal. */
export const make = (program: Program): Console.Console => {
  const tidy = tidyHelp(program)
  const render = (stream: NodeJS.WriteStream, args: ReadonlyArray<unknown>) => {
    const text = tidy(args.map(String).join(" ")).replace(/\n+$/, "")
    // A closed pipe takes nothing more (main flushes the rest before the process exits).
    if (Stdio.broken(stream)) return
    stream.write((colour(stream) ? text : text.replace(ansi, "")) + "\n")
  }
  const unsafe: Console.UnsafeConsole = {
    ...globalThis.console,
    log: (...args: ReadonlyArray<unknown>) => render(process.stdout, args),
    info: (...args: ReadonlyArray<unknown>) => render(process.stdout, args),
    error: (...args: ReadonlyArray<unknown>) => render(process.stderr, args),
    warn: (...args: ReadonlyArray<unknown>) => render(process.stderr, args)
  } as Console.UnsafeConsole

  return {
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
}
