/**
 * Where a JSON text first goes wrong (an index into it), for messages with a line and a
 * column: V8's own message gives the position only for some errors.
 *
 * @internal
 */
export const errorPosition = (text: string): number => {
  let i = 0
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++
  }
  const fail = (): never => {
    throw i
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail()
  }
  const string = () => {
    i++
    while (i < text.length && text[i] !== "\"") {
      if (text[i] === "\\") i++
      else if (text.charCodeAt(i) < 0x20) fail()
      i++
    }
    if (i >= text.length) fail()
    i++
  }
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))
    if (match === null) fail()
    i += match![0].length
  }
  const value = (): void => {
    space()
    const c = text[i]
    if (c === "{") {
      i++
      space()
      if (text[i] === "}") return void i++
      for (;;) {
        space()
        if (text[i] !== "\"") fail()
        string()
        space()
        if (text[i] !== ":") fail()
        i++
        value()
        space()
        if (text[i] === ",") {
          i++
          continue
        }
        if (text[i] === "}") return void i++
        fail()
      }
    }
    if (c === "[") {
      i++
      space()
      if (text[i] === "]") return void i++
      for (;;) {
        value()
        space()
        if (text[i] === ",") {
          i++
          continue
        }
        if (text[i] === "]") return void i++
        fail()
      }
    }
    if (c === "\"") return string()
    if (c === "t") return literal("true")
    if (c === "f") return literal("false")
    if (c === "n") return literal("null")
    if (c !== undefined && /[-\d]/.test(c)) return number()
    fail()
  }
  try {
    value()
    space()
    return i < text.length ? i : -1
  } catch (position) {
    return position as number
  }
}
