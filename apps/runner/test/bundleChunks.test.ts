/**
 * What a command line loads, read from the bundle itself (issue 33): the modules the main chunk
 * imports statically, which `--help` and every command's parsing load, hold no command handler,
 * no package, no core, no undici and no option-file parser; each component is a chunk of its own,
 * loaded by its catalog entry. Read from esbuild's `// <path>` marks, one before each module.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { cli } from "./bin.js"

const dir = dirname(cli)

/** The modules of these chunks and of every chunk they import statically. */
const modulesOf = (entries: ReadonlyArray<string>): ReadonlyArray<string> => {
  const chunks = new Set<string>()
  const modules: Array<string> = []
  const visit = (chunk: string) => {
    if (chunks.has(chunk)) return
    chunks.add(chunk)
    const text = readFileSync(join(dir, chunk), "utf8")
    for (const [, path] of text.matchAll(/^\/\/ (\S+\.(?:js|mjs|cjs|json))$/gm)) modules.push(path!)
    for (const [, imported] of text.matchAll(/^import\s*(?:[^"';]*?from\s*)?"\.\/([^"]+)"/gm)) visit(imported!)
  }
  entries.forEach(visit)
  return modules
}

const chunkNamed = (name: string) => {
  const found = readdirSync(dir).filter((file) => file.startsWith(`${name}-`) && file.endsWith(".js"))
  expect(found).toHaveLength(1)
  return found[0]!
}

describe("The bundle's chunks", () => {
  it("the main chunk's modules are the CLI's declarations alone: no handler, package, core, undici or option-file parser", () => {
    const main = modulesOf([chunkNamed("main")])
    // The declarations are there (the modules can be read), and the runtime the CLI runs on.
    expect(main.filter((path) => path.includes("dist/cli/commands/")).length).toBeGreaterThanOrEqual(10)
    expect(main.some((path) => path.includes("/@effect/cli/"))).toBe(true)
    const loadedLater = main.filter((path) =>
      /dist\/cli\/handlers\/|packages\/(core|boardtool|sitebuilder|browseragent|http-undici)\/|\/undici\/|\/(yaml|toml|ini)\/|dist\/(engine|store|serve|mcp|workflow)\//
        .test(path)
    )
    expect(loadedLater).toEqual([])
  })

  it("each component is a chunk of its own, and describing one loads no other package", () => {
    const boardtool = modulesOf([chunkNamed("boardtool"), chunkNamed("describe")])
    expect(boardtool.some((path) => path.includes("packages/boardtool/"))).toBe(true)
    expect(boardtool.filter((path) => /packages\/(sitebuilder|browseragent)\/|\/undici\//.test(path))).toEqual([])
    expect(modulesOf([chunkNamed("sitebuilder")]).some((path) => path.includes("packages/sitebuilder/"))).toBe(true)
  })

  it("no option of the runner is read as a YAML, TOML or INI file: the bundle leaves those parsers out", () => {
    const sources = readdirSync(new URL("../src/", import.meta.url), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
    const reading = sources.filter((file) =>
      /\b(Options|Args)\.(fileParse|fileSchema)\b|\bConfigFile\b/.test(readFileSync(new URL(`../src/${file}`, import.meta.url), "utf8"))
    )
    expect(reading).toEqual([])
  })
})
