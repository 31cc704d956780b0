/**
 * The runner's rooms (ARCHITECTURE.md): no import cycle between its modules, and `workflow/` and
 * `store/` import nothing of `engine/`, `serve/` or `cli/`. The rules are
 * `.dependency-cruiser.json`'s; a second test plants a cycle and a broken rule in a directory
 * of its own, so that rules which silently match nothing fail too.
 */
import { describe, expect, it } from "@effect/vitest"
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from "dependency-cruiser"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const runner = fileURLToPath(new URL("..", import.meta.url))
const config = JSON.parse(readFileSync(join(runner, ".dependency-cruiser.json"), "utf8")) as {
  readonly forbidden: NonNullable<IFlattenedRuleSet["forbidden"]>
  readonly options: Record<string, unknown>
}

const violationsIn = async (baseDir: string) => {
  const { output } = await cruise(["src"], { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } })
  const result = output as ICruiseResult
  return {
    modules: result.modules.filter((module) => module.source.startsWith("src/")).map((module) => module.source),
    violations: result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)
  }
}

describe("The runner's layout", () => {
  it("has no import cycle, and workflow/ and store/ import nothing of engine/, serve/ or cli/", async () => {
    const { modules, violations } = await violationsIn(runner)
    expect(violations).toEqual([])
    // Every source file was read (a module the cruise missed would hide its imports).
    const sources = readdirSync(join(runner, "src"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
    expect(modules.sort()).toEqual(sources.map((file) => `src/${file}`).sort())
  })

  it("fails on a planted cycle and on store/ importing engine/", async () => {
    const planted = mkdtempSync(join(tmpdir(), "x-runner-layout-"))
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(planted, file)), { recursive: true })
        writeFileSync(join(planted, file), text)
      }
      write("src/store/Database.ts", `import type { Host } from "../engine/Host.js"\nexport type Location = Host\n`)
      write("src/engine/Host.ts", `import type { Location } from "../store/Database.js"\nexport type Host = { location?: Location }\n`)
      const { violations } = await violationsIn(planted)
      expect(violations).toContain("workflow-and-store-below-the-threads: src/store/Database.ts → src/engine/Host.ts")
      // The cycle is reported once, from either of its ends.
      expect(violations.filter((violation) => violation.startsWith("no-circular: "))).toHaveLength(1)
    } finally {
      rmSync(planted, { recursive: true, force: true })
    }
  })
})
