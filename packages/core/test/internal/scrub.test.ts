import { describe, expect, it } from "@effect/vitest"
import * as Redacted from "effect/Redacted"
import * as Scrub from "../../src/internal/scrub.js"

describe("internal/scrub", () => {
  const secrets = [Redacted.make("s3cret/value"), Redacted.make("abc")]
  const scrub = Scrub.make(() => secrets, () => secrets.length)

  it("returns the very value when it holds no secret: nothing copied", () => {
    const value = { a: ["x", { b: "y" }], c: 1, d: null }
    expect(scrub(value)).toBe(value)
  })

  it("replaces every form of a secret, in values and keys, copying only what changed", () => {
    const untouched = { n: "plain" }
    const value = { untouched, list: ["s3cret/value", "url?x=s3cret%2Fvalue"], ["k-s3cret/value"]: 1 }
    const scrubbed = scrub(value)
    expect(scrubbed).toEqual({ untouched, list: ["[redacted]", "url?x=[redacted]"], "k-[redacted]": 1 })
    expect(scrubbed.untouched).toBe(untouched)
    expect(value.list[0]).toBe("s3cret/value")
  })

  it("a text as long as the shortest form is searched; a shorter one cannot hold any and is kept as it is", () => {
    // "s3cret/value" (12), its encoded form "s3cret%2Fvalue" (14); "abc" (3) is under the minimum length and no form.
    const short = { "s3cret/valu": "s3cret/valu", ab: "3cret/value" }
    expect(scrub(short)).toBe(short)
    expect(scrub({ "s3cret/value": "s3cret/value", x: "s3cret%2Fvalue" })).toEqual({ "[redacted]": "[redacted]", x: "[redacted]" })
  })

  it("keeps a key named __proto__ as data", () => {
    const value = JSON.parse(`{"__proto__": "s3cret/value"}`)
    const scrubbed = scrub(value)
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(scrubbed, "__proto__")?.value).toBe("[redacted]")
  })

  it("picks up a secret added later (an OAuth2 token renewed)", () => {
    const list = [Redacted.make("first-token")]
    const renewing = Scrub.make(() => [...list], () => list.length)
    expect(renewing("second-token")).toBe("second-token")
    list.push(Redacted.make("second-token"))
    expect(renewing("second-token")).toBe("[redacted]")
  })
})
