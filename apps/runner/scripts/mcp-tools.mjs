/**
 * The list of tools `x-runner mcp` offers, `apps/runner/MCP-TOOLS.md`, rendered from what
 * `x-runner describe` prints (every component's actions with their impact and idempotence) and
 * the runner's own mapping of an action to its tool (`mcp/McpTools.ts`: `toolName`,
 * `annotationsOf`), so that no list of tools or marks is kept by hand. `pnpm reference` builds
 * the runner and writes it; `test/mcpToolsDoc.test.ts` renders it again (from the sources) and
 * fails when the checked-in one differs.
 *
 * node apps/runner/scripts/mcp-tools.mjs           writes the page (from the built dist/)
 * node apps/runner/scripts/mcp-tools.mjs --check   exits 1 when the page is not up to date
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

/** Where the page is. */
export const mcpToolsPath = fileURLToPath(new URL("../MCP-TOOLS.md", import.meta.url))

/** The command that writes it, for a stale page's message. */
export const mcpToolsCommand = "corepack pnpm reference"

const code = (text) => `\`${text}\``
/** A table cell: one line, pipes escaped. */
const cell = (text) => String(text).replace(/\r?\n/g, " ").replace(/\|/g, "\\|")
const yes = (value) => value ? "yes" : "no"

/**
 * The properties of an action whose options come from the provider (what a client completes
 * through the prompt of the tool's name, or `list_options` lists), with what each depends on:
 * `idCard` (after `idBoard`).
 */
const completedCell = (action) => {
  const withOptions = Object.entries(action.props ?? {}).filter(([, property]) => property.dynamicOptions !== undefined)
  if (withOptions.length === 0) return ""
  return withOptions.map(([name, property]) => {
    const dependsOn = property.dynamicOptions.dependsOn ?? []
    return dependsOn.length === 0 ? code(name) : `${code(name)} (after ${dependsOn.map(code).join(", ")})`
  }).join(", ")
}

/**
 * The page, from the components as `x-runner describe` prints them (`Component.describe` of
 * each) and the runner's `McpTools` module (its `toolName`, `annotationsOf`, `optionsToolName`),
 * given by the caller: the built one (this script) or the source (the test), never a copy.
 *
 * @param {ReadonlyArray<any>} descriptions what `x-runner describe` prints: one description per component
 * @param {{ toolName: Function, annotationsOf: Function, optionsToolName: string }} mcpTools
 * @returns {string}
 */
export const renderMcpTools = (descriptions, mcpTools) => {
  const components = JSON.parse(JSON.stringify(descriptions)).filter((c) => c.actions.length > 0)
  const all = components.flatMap((c) => c.actions)
  const count = (actions, impact) => actions.filter((a) => a.impact === impact).length
  const summary = (actions) =>
    `${actions.length} tools: ${count(actions, "read")} read, ${count(actions, "write")} write, ${count(actions, "destroy")} destroy`
  const lines = [
    "# `x-runner mcp`: the tools",
    "",
    "<!-- Generated from `x-runner describe` and src/mcp/McpTools.ts by `pnpm reference` (apps/runner/scripts/mcp-tools.mjs): do not edit; test/mcpToolsDoc.test.ts checks it. -->",
    "",
    `Every action of ${components.map((c) => code(c.name)).join(", ")} is one tool of \`x-runner mcp\`, named \`<component>_<action>\``,
    `(${summary(all)}). How to run the server and add it to a client:`,
    "[the runner's README](README.md#actions-as-tools-for-ai-agents-mcp).",
    "",
    "- **impact** and **idempotent** are the action's own marks (`x-runner describe` prints them): a read changes",
    "  nothing; a write creates or changes what can be changed back; a destroy deletes, or does what cannot be",
    "  taken back. Idempotent: the same call again changes nothing more.",
    "- **readOnlyHint**, **destructiveHint**, **idempotentHint** are the MCP tool annotations the marks become",
    "  (a client decides from them whether to ask its user first); `openWorldHint` is true for every tool (each",
    "  reaches a provider), and the annotation `title` is the action's title.",
    "- **offered by default**: a tool with `destructiveHint` is offered only with `--allow-destructive`, and then a",
    "  client that supports elicitation asks its user to confirm each call.",
    "- **completed**: the arguments whose values come from the provider, and what each needs given first",
    "  (`idList` (after `idBoard`): the lists of that board). MCP completes prompt arguments, not tool arguments: the",
    `  prompt of the tool's name completes them; a client without completions calls \`${mcpTools.optionsToolName}\`.`,
    "",
    `Besides these: \`${mcpTools.optionsToolName}\` (read-only; offered when an offered tool has a completed argument), and`,
    "with `--workflows DIR` a tool `workflow_<file>` per workflow file without a trigger (one that runs a destroying",
    "action only with `--allow-destructive`). `--components` and `--tools` narrow the list.",
    ""
  ]
  for (const c of components) {
    lines.push(
      `## ${c.title} (\`${c.name}\`)`,
      "",
      `${summary(c.actions)}. Each action's inputs and output: [${c.type}'s reference](../../packages/${c.name}/REFERENCE.md).`,
      "",
      "| tool | title | impact | idempotent | readOnlyHint | destructiveHint | idempotentHint | offered by default | completed |",
      "|---|---|---|---|---|---|---|---|---|"
    )
    for (const a of c.actions) {
      const annotations = mcpTools.annotationsOf(a)
      lines.push(
        `| ${code(mcpTools.toolName(c, a))} | ${cell(a.title)} | ${a.impact === "destroy" ? "**destroy**" : a.impact} | ${yes(a.idempotent)} | ` +
          `${yes(annotations.readOnlyHint)} | ${yes(annotations.destructiveHint)} | ${yes(annotations.idempotentHint)} | ` +
          `${annotations.destructiveHint ? "no: `--allow-destructive`" : "yes"} | ${completedCell(a)} |`
      )
    }
    lines.push("")
  }
  return lines.join("\n").replace(/\n+$/, "\n")
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes("--check")
  const main = fileURLToPath(new URL("../dist/main.js", import.meta.url))
  // The built runner's own `describe` (its stderr, how to see property groups' fields, is for people): the mapping from the same build.
  const descriptions = JSON.parse(execFileSync(process.execPath, [main, "describe"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }))
  const mcpTools = await import(new URL("../dist/mcp/McpTools.js", import.meta.url).href)
  const page = renderMcpTools(descriptions, mcpTools)
  let current = ""
  try {
    current = readFileSync(mcpToolsPath, "utf8")
  } catch {
    // A page not written yet is stale.
  }
  if (current === page) {
    process.exitCode = 0
  } else if (check) {
    console.error(`apps/runner/MCP-TOOLS.md is not what describe gives: run ${mcpToolsCommand}`)
    process.exitCode = 1
  } else {
    writeFileSync(mcpToolsPath, page)
    console.log("wrote apps/runner/MCP-TOOLS.md")
  }
}
