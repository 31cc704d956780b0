/**
 * The shape of @x/core's source and public surface: what consumers can import, that every
 * export says what it is and since when, and that modules do not import each other in a
 * circle. There is no line budget: a module is one concept, however long.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const core = join(import.meta.dirname, "..")
const src = join(core, "src")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

const publicModules = sources(src).filter((file) => !relative(src, file).startsWith("internal"))

const exportLine = /^export (const|function|class|interface|type|declare|abstract class|enum) /

/** The JSDoc block that ends on the line before `index`, or undefined. */
const docAbove = (lines: ReadonlyArray<string>, index: number): string | undefined => {
  let line = index - 1
  if (!/\*\/\s*$/.test(lines[line] ?? "")) return undefined
  const block: Array<string> = []
  while (line >= 0 && !lines[line]!.includes("/**")) block.unshift(lines[line--]!)
  if (line < 0) return undefined
  block.unshift(lines[line]!)
  return block.join("\n")
}

describe("@x/core's surface", () => {
  it("exports the index, each public module by name, the testing helpers and package.json, and blocks internal/", () => {
    const pkg = JSON.parse(readFileSync(join(core, "package.json"), "utf8")) as { exports: Record<string, unknown> }
    const modules = readdirSync(src).filter((file) => file.endsWith(".ts") && file !== "index.ts" && file !== "testing.ts")
      .map((file) => file.slice(0, -3))
    expect(Object.keys(pkg.exports).sort()).toEqual(
      [".", "./internal/*", "./package.json", "./testing", ...modules.map((name) => `./${name}`)].sort()
    )
    for (const name of modules) {
      expect(pkg.exports[`./${name}`]).toEqual({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` })
    }
    expect(pkg.exports["./internal/*"]).toBeNull()
  })

  it("documents every export of a public module with a description, @since and @category", () => {
    const undocumented: Array<string> = []
    for (const file of publicModules) {
      const lines = readFileSync(file, "utf8").split("\n")
      lines.forEach((line, index) => {
        const namespace = /^export \* as /.test(line)
        if (!exportLine.test(line) && !namespace) return
        const doc = docAbove(lines, index)
        const description = doc?.replace(/@\w+.*$/gm, "").replace(/[/*\s]/g, "") ?? ""
        // A namespace re-export (the index) is documented like a module: a description and @since.
        if (doc === undefined || description === "" || !doc.includes("@since") || (!namespace && !doc.includes("@category"))) {
          undocumented.push(`${relative(src, file)}:${index + 1}: ${line.slice(0, 60)}`)
        }
      })
    }
    expect(undocumented).toEqual([])
  })

  it("has no import cycle between its modules", () => {
    const imports = new Map<string, ReadonlyArray<string>>()
    for (const file of sources(src)) {
      const text = readFileSync(file, "utf8")
      const targets = [...text.matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g)].map((m) => resolve(dirname(file), `${m[1]}.ts`))
      imports.set(file, targets)
    }
    const cycles: Array<string> = []
    const state = new Map<string, "visiting" | "done">()
    const visit = (file: string, path: Array<string>) => {
      if (state.get(file) === "done") return
      if (state.get(file) === "visiting") {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(src, f)).join(" → "))
        return
      }
      state.set(file, "visiting")
      for (const target of imports.get(file) ?? []) visit(target, [...path, file])
      state.set(file, "done")
    }
    for (const file of imports.keys()) visit(file, [])
    expect(cycles).toEqual([])
  })
})
