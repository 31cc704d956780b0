/**
 * JSON text as the runner's files hold it: a leading UTF-8 byte-order mark is accepted (some
 * editors write one), a syntax error is located by line and column (never quoted: the text
 * may hold secrets), and a value nested deeper than `maxDepth` is refused before anything
 * walks it (the checks that follow recurse).
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import { errorPosition } from "./internal/jsonPosition.js"

/**
 * How deep a workflow's or connections file's values may nest.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxDepth = 64

/**
 * What is wrong with a JSON text: where (a path, "" for the text itself) and what.
 *
 * @since 0.2.0
 * @category models
 */
export interface JsonIssue {
  readonly path: string
  readonly message: string
}

const lineAndColumn = (text: string, index: number) => {
  const before = text.slice(0, index)
  return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") }
}

const positionOf = (text: string): number => {
  try {
    return errorPosition(text)
  } catch {
    return -1 // nested too deep for the locator's recursion: no position, still an error
  }
}

/**
 * Parses a JSON text: the value, or its first problem. A value with a level deeper than
 * `maxDepth` is refused, naming the path to it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const parse = (raw: string): Either.Either<unknown, JsonIssue> => {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // V8's reason without the excerpt of the text it may append (or the character it quotes).
    const reason = (error instanceof Error ? error.message : String(error)).replace(/, (\.\.\.)?".*$/s, "")
      .replace(/ in JSON at position \d+.*$/s, "").replace(/^Unexpected token '.'/, "Unexpected token")
    const position = positionOf(text)
    if (position < 0) return Either.left({ path: "", message: `not valid JSON: ${reason}` })
    const { column, line } = lineAndColumn(text, position)
    return Either.left({ path: "", message: `not valid JSON at line ${line}, column ${column}: ${reason}` })
  }
  const deep = tooDeep(value)
  return deep === undefined
    ? Either.right(value)
    : Either.left({ path: deep, message: `nested deeper than ${maxDepth} levels` })
}

/** The path of the first value below `maxDepth` levels, found without recursion. */
const tooDeep = (root: unknown): string | undefined => {
  const stack: Array<{ readonly value: unknown; readonly path: string; readonly depth: number }> = [{ value: root, path: "", depth: 0 }]
  while (stack.length > 0) {
    const { depth, path, value } = stack.pop()!
    if (typeof value !== "object" || value === null) continue
    if (depth >= maxDepth) return path
    if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }))
    else for (const key of Object.keys(value)) stack.push({ value: (value as Record<string, unknown>)[key], path: path === "" ? key : `${path}.${key}`, depth: depth + 1 })
  }
  return undefined
}
