/**
 * MCP-TOOLS.md is what `describe` gives: rendered again from the catalog's components (as
 * `x-runner describe` describes them) with the server's own `McpTools`, it must equal the
 * checked-in page, so an action added or re-marked without `pnpm reference` fails here. And the
 * page says what the server offers: its tool names, which are withheld without
 * `--allow-destructive`, and which arguments complete, are `McpTools.actionTools`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import { readFileSync } from "node:fs"
import { mcpToolsCommand, mcpToolsPath, renderMcpTools } from "../scripts/mcp-tools.mjs"
import * as Catalog from "../src/components/Catalog.js"
import * as McpTools from "../src/mcp/McpTools.js"

/** What `x-runner describe` prints: each component of the catalog described. */
const descriptions = Catalog.entries.map((entry) => Component.describe(entry.component))

const page = renderMcpTools(descriptions, McpTools)

/** The page's rows: each tool's name and the cells after it. */
const rows = new Map(
  [...page.matchAll(/^\| `([A-Za-z0-9_.-]+)` \| (.*) \|$/gm)].map(([, name, rest]) => [name!, rest!.split(" | ")])
)
const offeredByDefaultColumn = 6
const completedColumn = 7

const toolsOf = (allowDestructive: boolean) => McpTools.actionTools(Catalog.entries, { components: [], patterns: [], allowDestructive }, () => [])

describe("MCP-TOOLS.md", () => {
  it("is the page describe gives", () => {
    expect(readFileSync(mcpToolsPath, "utf8"), `apps/runner/MCP-TOOLS.md is not what describe gives: run ${mcpToolsCommand}`).toBe(page)
  })

  it("lists every tool the server offers, and marks those it withholds without --allow-destructive", () => {
    const all = toolsOf(true)
    const byDefault = new Set(toolsOf(false).map((tool) => tool.name))
    expect([...rows.keys()]).toEqual(all.map((tool) => tool.name))
    expect(all.length).toBe(descriptions.reduce((sum, description) => sum + description.actions.length, 0))
    for (const tool of all) {
      expect([tool.name, rows.get(tool.name)![offeredByDefaultColumn]!.startsWith("yes")]).toEqual([tool.name, byDefault.has(tool.name)])
    }
    // Something is withheld, and something offered: the column is not all one value.
    expect(byDefault.size).toBeGreaterThan(0)
    expect(byDefault.size).toBeLessThan(all.length)
  })

  it("names as completed exactly the arguments the server completes, with what each depends on", () => {
    for (const tool of toolsOf(true)) {
      // `idCard` (after `idBoard`): the argument, then the arguments it depends on.
      const completed = [...rows.get(tool.name)![completedColumn]!.matchAll(/`([^`]+)`(?: \(after ([^)]*)\))?/g)].map(([, property, after]) => [
        property,
        [...(after ?? "").matchAll(/`([^`]+)`/g)].map(([, dependency]) => dependency)
      ])
      expect([tool.name, completed]).toEqual([tool.name, [...tool.dynamicOptions].map(([property, dependsOn]) => [property, [...dependsOn]])])
    }
  })
})
