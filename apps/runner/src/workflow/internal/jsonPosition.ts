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
  const isDigit = () => i < text.length && text[i]! >= "0" && text[i]! <= "9"
  const digits = () => {
    if (!isDigit()) fail()
    while (isDigit()) i++
  }
  // Each error at the character that breaks it (V8's position, where V8 gives one): a bad escape
  // at its letter, a bad \u at its first non-hex digit, an unfinished number after its last part.
  const string = () => {
    i++
    while (i < text.length && text[i] !== "\"") {
      if (text.charCodeAt(i) < 0x20) fail()
      if (text[i] === "\\") {
        i++
        if (i < text.length && text[i] === "u") {
          i++
          for (let end = i + 4; i < end; i++) {
            if (i < text.length && !/[0-9a-fA-F]/.test(text[i]!)) fail()
          }
          continue
        }
        if (i < text.length && !"\"\\/bfnrt".includes(text[i]!)) fail()
      }
      i++
    }
    if (i >= text.length) {
      i = text.length
      fail()
    }
    i++
  }
  const number = () => {
    if (text[i] === "-") i++
    if (text[i] === "0") i++
    else digits()
    if (text[i] === ".") {
      i++
      digits()
    }
    if (text[i] === "e" || text[i] === "E") {
      i++
      if (text[i] === "+" || text[i] === "-") i++
      digits()
    }
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
