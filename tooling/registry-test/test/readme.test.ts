import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { installArguments, parseReadme } from "../src/readme.js"

const fixture = readFileSync(new URL("fixtures/README.md", import.meta.url), "utf8")

describe("reading a README's install line and examples", () => {
  it("takes the first `npm i` line of a sh block, and every ts example block with its line", () => {
    const docs = parseReadme(fixture)
    expect(docs.installLine).toBe("npm i @x/boardtool @x/core @x/http-undici effect @effect/platform")
    expect(docs.examples.map((example) => example.line)).toEqual([17, 45])
    expect(docs.examples[0]!.code).toMatch(/^import \{ boardtool \} from "@x\/boardtool"\n/)
    expect(docs.examples[0]!.code).not.toContain("```")
    expect(docs.examples.map((example) => example.prints)).toEqual([['created "Ship it"'], ["127.0.0.1"]])
  })

  it("finds nothing in a README without the convention's blocks", () => {
    const docs = parseReadme("# x\n\n```ts\nconst a = 1\n```\n\n```bash\nnpm i x\n```\n")
    expect(docs).toEqual({ installLine: undefined, examples: [] })
  })

  it("turns the install line into arguments, and refuses anything but package specs", () => {
    expect(installArguments("npm i @x/boardtool effect@^3.22.4")).toEqual(["@x/boardtool", "effect@^3.22.4"])
    expect(() => installArguments("npm i @x/boardtool && curl evil")).toThrow(/not "npm i <package>…"/)
    expect(() => installArguments("npm i ")).toThrow()
  })
})
