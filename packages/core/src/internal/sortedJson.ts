/**
 * JSON text as Python's `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))`
 * writes it again: what Browser Use signs, and what its guide re-serializes to verify. Object
 * keys sorted by code point, no spaces, and numbers as Python reads and writes them, which
 * JavaScript's `JSON.parse` cannot keep: an integer keeps every digit (`9007199254740993`), and
 * a number with a fraction or an exponent is a float written as Python's `repr` writes it
 * (`1.0`, `100000.0` for `1e5`, `1e-06`, `1e+16`). The text is walked as it is, so each
 * number's own digits are read. Python escapes every character outside printable ASCII by
 * default (`ensure_ascii`); the TypeScript example of its documentation does not, so both forms
 * are available.
 */

/** Deeper than this is no provider's delivery; refused rather than risking the stack. */
const maxDepth = 64

/** Python sorts keys by code point; JavaScript's default sort goes by UTF-16 unit. */
const byCodePoint = (a: string, b: string): number => {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(j)!
    if (x !== y) return x - y
    i += x > 0xffff ? 2 : 1
    j += y > 0xffff ? 2 : 1
  }
  return a.length - b.length
}

/** Python's `repr` of a finite, non-zero float: the shortest digits that read back the same, fixed or with an exponent. */
const floatRepr = (value: number): string => {
  const sign = value < 0 ? "-" : ""
  // JavaScript also writes the shortest digits that read back the same; only their layout differs.
  const [mantissa, exponent = "0"] = String(Math.abs(value)).split("e")
  const [whole, fraction = ""] = mantissa!.split(".")
  let digits = whole! + fraction
  // The decimal point's place: the value is 0.<digits> × 10^point.
  let point = whole!.length + Number(exponent)
  const leading = digits.length - digits.replace(/^0+/, "").length
  digits = digits.slice(leading).replace(/0+$/, "")
  point -= leading
  if (point <= -4 || point > 16) {
    const power = point - 1
    const shown = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`
    return `${sign}${shown}e${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** A JSON number's text as Python writes the value it reads from it. */
export const pythonNumber = (text: string): string => {
  // No fraction and no exponent: an int, every digit kept ("-0" is 0).
  if (!/[.eE]/.test(text)) return /^-0+$/.test(text) ? "0" : text
  const value = Number(text)
  if (value === Infinity) return "Infinity"
  if (value === -Infinity) return "-Infinity"
  if (value === 0) return text.startsWith("-") ? "-0.0" : "0.0"
  return floatRepr(value)
}

const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const space = /[ \t\n\r]*/y

/** Writes the JSON text again, sorted and without spaces; the text must be JSON (checked by the caller). */
const rewrite = (text: string): string => {
  let at = 0
  const skipSpace = () => {
    space.lastIndex = at
    space.test(text)
    at = space.lastIndex
  }
  // A string token, from its opening quote to its closing one: read by JSON.parse, written by JSON.stringify.
  const string = (): string => {
    const start = at
    at++
    for (;;) {
      const c = text.charCodeAt(at)
      if (c === 0x22) break
      at += c === 0x5c ? 2 : 1
    }
    at++
    return JSON.parse(text.slice(start, at)) as string
  }
  const value = (depth: number): string => {
    if (depth > maxDepth) throw new RangeError(`nested deeper than ${maxDepth}`)
    skipSpace()
    const c = text[at]
    if (c === "{") {
      at++
      // A key given twice keeps its last value, as Python's dict does.
      const members = new Map<string, string>()
      skipSpace()
      if (text[at] === "}") at++
      else {
        for (;;) {
          skipSpace()
          const key = string()
          skipSpace()
          at++ // ":"
          members.set(key, value(depth + 1))
          skipSpace()
          if (text[at++] === "}") break
        }
      }
      const keys = [...members.keys()].sort(byCodePoint)
      return `{${keys.map((key) => `${JSON.stringify(key)}:${members.get(key)}`).join(",")}}`
    }
    if (c === "[") {
      at++
      const items: Array<string> = []
      skipSpace()
      if (text[at] === "]") at++
      else {
        for (;;) {
          items.push(value(depth + 1))
          skipSpace()
          if (text[at++] === "]") break
        }
      }
      return `[${items.join(",")}]`
    }
    if (c === "\"") return JSON.stringify(string())
    for (const literal of ["true", "false", "null"]) {
      if (text.startsWith(literal, at)) {
        at += literal.length
        return literal
      }
    }
    number.lastIndex = at
    const match = number.exec(text)
    if (match === null) throw new SyntaxError(`unexpected character at ${at}`)
    at = number.lastIndex
    return pythonNumber(match[0])
  }
  return value(0)
}

/**
 * The JSON text written again as Python writes what it reads from it: keys sorted, no spaces,
 * numbers as Python writes them, characters outside ASCII as they are (JSON.stringify's escapes
 * otherwise). Throws a `SyntaxError` when the text is not JSON.
 */
export const sortedJsonText = (text: string): string => parsedAndSorted(text).sorted

/**
 * The JSON text as `JSON.parse` reads it, and written again as `sortedJsonText` writes it: one
 * parse for a delivery's signature and its decoding. Throws a `SyntaxError` when the text is not JSON.
 */
export const parsedAndSorted = (text: string): { readonly value: unknown; readonly sorted: string } => {
  // JSON.parse is the judge of what is JSON; the walk then reads only well-formed text.
  const value: unknown = JSON.parse(text)
  return { value, sorted: rewrite(text) }
}

/** A value as JSON with sorted keys, as Python writes the JSON text JavaScript makes of it. */
export const sortedJson = (value: unknown): string => {
  const text = JSON.stringify(value)
  // What JSON.stringify leaves out (undefined, a function) is written as it would be: nothing.
  return text === undefined ? "undefined" : rewrite(text)
}

/** Python's `ensure_ascii`: every character outside printable ASCII as `\uXXXX` (lower-case hex). */
export const asciiOnly = (json: string): string =>
  json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
