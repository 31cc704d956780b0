/**
 * JSON with its object keys sorted and no spaces, as Python's `json.dumps(value,
 * sort_keys=True, separators=(",", ":"))` writes it: what Browser Use signs. Python escapes
 * every character outside printable ASCII by default (`ensure_ascii`); the TypeScript example of
 * its documentation does not, so both forms are available.
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

const write = (value: unknown, depth: number): string => {
  if (depth > maxDepth) throw new RangeError(`nested deeper than ${maxDepth}`)
  if (Array.isArray(value)) return `[${value.map((item) => write(item, depth + 1)).join(",")}]`
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    const keys = Object.keys(record).sort(byCodePoint)
    return `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], depth + 1)}`).join(",")}}`
  }
  return JSON.stringify(value)
}

/** The sorted form, characters outside ASCII as they are (JSON.stringify's escapes otherwise). */
export const sortedJson = (value: unknown): string => write(value, 0)

/** Python's `ensure_ascii`: every character outside printable ASCII as `\uXXXX` (lower-case hex). */
export const asciiOnly = (json: string): string =>
  json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
