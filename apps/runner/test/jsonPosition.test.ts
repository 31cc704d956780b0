/**
 * Where a JSON text first goes wrong (`internal/jsonPosition`) and the line and column
 * `JsonText.parse` reports from it: the runner's files are checked by it before anything runs,
 * and its messages never quote the text (it may hold secrets), so the position is all a user
 * has. V8's `JSON.parse` gives a position for some errors only: where it does, the scanner
 * must find the same one.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { errorPosition } from "../src/workflow/internal/jsonPosition.js"
import * as JsonText from "../src/workflow/JsonText.js"

/** V8's position of a text's error, when its message gives one. */
const v8Position = (text: string): number | undefined => {
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    const match = / at position (\d+)/.exec((error as Error).message)
    return match === null ? undefined : Number(match[1])
  }
}

const isValid = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const documents = [
  "{\"label\": \"a \\\"quoted\\\" \\\\ label\", \"tasks\": [[1, [2.5e-3, -0]], {\"é😀\": \"\\u00e9\\ud83d\\ude00\"}], \"ok\": true, \"no\": false, \"none\": null}",
  "[\n  {\"a\": [\"\\n\\t\\/\\b\\f\\r\"]},\n  [[], {}, [[[]]]]\n]"
]

describe("jsonPosition.errorPosition", () => {
  it("valid JSON (strings with escapes, nested arrays, unicode): -1", () => {
    for (const text of [...documents, "0", "-1.5E+2", "\"\"", "  [ ]  ", "{}"]) {
      expect(isValid(text)).toBe(true)
      expect(errorPosition(text)).toBe(-1)
    }
  })

  it("finds V8's position wherever V8 gives one", () => {
    const texts = [
      "{} x", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "\"abc", "01", "[01]", "1.", "1.e3", "-", "-a", "1e", "1e+",
      "\"a\nb\"", "[1,2", "{\"a\":\"\\\"}", "[1]]", "{\"a\":1 \"b\":2}", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
      "{\"é😀\": \"\\q\"}", "[\"😀\" \"x\"]"
    ]
    for (const text of texts) {
      const v8 = v8Position(text)
      expect(v8, text).toBeDefined()
      expect(errorPosition(text), text).toBe(v8)
    }
  })

  it("every truncation of a valid document is an error, found where V8 finds it, else at or before the end", () => {
    for (const document of documents) {
      for (let end = 0; end < document.length; end++) {
        const text = document.slice(0, end)
        if (isValid(text)) continue // a prefix that is a number, say
        const position = errorPosition(text)
        expect(position, text).toBeGreaterThanOrEqual(0)
        expect(position, text).toBeLessThanOrEqual(text.length)
        const v8 = v8Position(text)
        if (v8 !== undefined) expect(position, text).toBe(v8)
      }
    }
  })

  it("where V8 gives no position: the unexpected character", () => {
    expect(errorPosition("[1,]")).toBe(3)
    expect(errorPosition("[[1,[2,]]]")).toBe(7)
    expect(errorPosition("{\"é😀\": x}")).toBe(8)
    expect(errorPosition("tru")).toBe(0)
    expect(errorPosition("")).toBe(0)
    expect(errorPosition("  ")).toBe(2)
  })
})

describe("JsonText.parse", () => {
  const messageOf = (text: string) => Either.match(JsonText.parse(text), { onLeft: (issue) => `${issue.path}: ${issue.message}`, onRight: () => "(valid)" })

  it("locates an error by line and column (columns count UTF-16 units, as editors' LSP positions do), never quoting the text", () => {
    expect(messageOf("{\n  \"token\": \"s3cret\",\n  \"tasks\": [1,]\n}")).toBe(": not valid JSON at line 3, column 15: Unexpected token")
    expect(messageOf("{\"é😀\": x}")).toBe(": not valid JSON at line 1, column 9: Unexpected token")
    expect(messageOf("[\n\"a\\x\"]")).toBe(": not valid JSON at line 2, column 4: Bad escaped character")
    expect(messageOf("{\"k\": \"s3cret")).toBe(": not valid JSON at line 1, column 14: Unterminated string")
    expect(messageOf("{\"k\": \"s3cret")).not.toContain("s3cret")
  })

  it("a leading byte-order mark is accepted, and positions count from after it", () => {
    expect(messageOf("\ufeff{\"a\": [1]}")).toBe("(valid)")
    expect(messageOf("\ufeff[1,]")).toBe(": not valid JSON at line 1, column 4: Unexpected token")
  })

  it("a value nested deeper than 64 levels is refused with its path", () => {
    expect(messageOf(`{"a": ${"[".repeat(64)}1${"]".repeat(64)}}`)).toBe(`a${"[0]".repeat(63)}: nested deeper than 64 levels`)
    expect(messageOf(`{"a": ${"[".repeat(63)}1${"]".repeat(63)}}`)).toBe("(valid)")
  })
})
