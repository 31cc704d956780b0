#!/usr/bin/env node
// Checks that what ARCHITECTURE.md names in backticks still exists: each path is found among
// the repository's files, each `pnpm <script>` in the root package.json, each `x-runner <command>`
// in the runner's commands, each code name (`Module.member`, `identifier`) in the sources, and
// each `#anchor` link at a heading of the page. A heuristic on purpose: a name it cannot place is
// reported, and the page is then reworded or the name added to `ignored` below with its reason.
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** Backticked spans that are not names of the code: values, settings, wire formats. */
const ignored = new Set([
  "<component>/v<version>/<name>", // the step type's format
  "./EngineWorker.js", // the bundle's sibling, built
  "../shared/specs", // the providers' documents, beside the repository
  "client.json", // a ProviderClient method, not a file
  "@x/core/internal/*", // the subpath the exports block
  "api.ts" // named as what must not exist beside `api/`
])

/** Namespaces of libraries (Effect, Node): their members are theirs to keep. */
const external = new Set([
  "Effect", "Context", "Layer", "Stream", "Schema", "Schedule", "Clock", "TestClock", "FiberRef", "Data",
  "SqlSchema", "Migrator", "WorkflowEngine", "Singleton", "HttpClient", "Option", "Either", "fs", "Object",
  "JSON", "json", "Promise"
])

/** Built or installed, so not among the repository's files. */
const generated = /^(dist\/|node_modules\/)/

const sourceExtensions = /\.(ts|mts|mjs|js|json|yaml|yml|sql)$/

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
export const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A path written with `<placeholders>` as a regular expression over repository paths. */
const pathPattern = (path) => {
  const parts = path.replace(/^\.\//, "").split(/(<[^>]+>|\*)/)
  const body = parts.map((part) => (/^(<[^>]+>|\*)$/.test(part) ? "[^/]+" : escapeRegExp(part))).join("")
  const directory = path.endsWith("/")
  return new RegExp(`(^|/)${body}${directory ? "" : "(/|$)"}`)
}

const isPath = (span) =>
  !/\s/.test(span) &&
  !/^https?:/.test(span) &&
  !/^@[\w-]+\/[\w.<>-]+(\/[\w.<>-]+)?$/.test(span) && // a package or its public subpath
  (/\/./.test(span) || /\.(ts|mts|mjs|js|json|md|sql)$/.test(span)) &&
  !span.startsWith("/") // a URL path of a provider or of the runner's server

/**
 * Names in a span that should exist in the sources: `A.b`, `a.b(...)`, `name`.
 * Returns the identifiers to look for, or nothing for a span that is not code.
 */
const codeNames = (span) => {
  const match = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(.*\))?$/.exec(span)
  if (match === null) return []
  const segments = match[1].split(".")
  return segments
}

/**
 * The stale names of an ARCHITECTURE.md text.
 *
 * @param {string} markdown
 * @param {{ files: ReadonlyArray<string>, read: (path: string) => string, scripts: ReadonlyArray<string> }} repository
 * @returns {Array<string>}
 */
export const staleNames = (markdown, repository) => {
  const problems = []
  const withoutFences = markdown.replace(/^```[\s\S]*?^```/gm, "")
  const headings = new Set(
    [...withoutFences.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]))
  )
  for (const match of withoutFences.matchAll(/\]\(#([^)]+)\)/g)) {
    if (!headings.has(match[1])) problems.push(`link #${match[1]}: no heading has that anchor`)
  }
  for (const match of withoutFences.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)) {
    const target = match[1]
    if (!repository.files.some((file) => file === target || file.startsWith(`${target.replace(/\/$/, "")}/`))) {
      problems.push(`link ${target}: no such file`)
    }
  }
  const sources = repository.files.filter((file) => sourceExtensions.test(file) && !file.endsWith(".md"))
  /** The source files of a module `Name`, with their internal twins `internal/name.ts`. */
  const modules = (name) => {
    if (!/^[A-Z]/.test(name)) return []
    const lower = `${name[0].toLowerCase()}${name.slice(1)}`
    // a component's own module may be named in lower case (sitebuilder's `triggers/webhook.ts`)
    const own = sources.filter(
      (file) => /(^|\/)src\//.test(file) && (file.endsWith(`/${name}.ts`) || file.endsWith(`/${lower}.ts`))
    )
    return own
  }
  let corpus
  const sourceText = () => (corpus ??= sources.map((file) => repository.read(file)).join("\n"))
  const seen = new Set()
  const spans = [...withoutFences.replace(/````[^`]*````/g, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim())
  for (const span of spans) {
    if (seen.has(span) || ignored.has(span)) continue
    seen.add(span)
    const command = /^(pnpm|x-runner)\s+([\w:-]+)/.exec(span)
    if (command !== null) {
      const [, tool, name] = command
      if (tool === "pnpm") {
        const builtIn = ["pack", "install", "exec", "test", "publish"].includes(name)
        if (!builtIn && !repository.scripts.includes(name)) problems.push(`\`${span}\`: no root script ${name}`)
      } else if (!/^[a-z]/.test(name) || name.endsWith(".json")) {
        // an argument, not a command
      } else if (!repository.files.some((file) => file === `apps/runner/src/cli/commands/${name}.ts`)) {
        problems.push(`\`${span}\`: no runner command ${name}`)
      }
      continue
    }
    const action = /^(boardtool|sitebuilder|browseragent)\/([a-z]\w*)$/.exec(span)
    if (action !== null) {
      const [, component, name] = action
      const file = new RegExp(`^packages/${component}/src/(actions|triggers)/${name}\\.ts$`)
      if (!repository.files.some((path) => file.test(path))) problems.push(`\`${span}\`: no such action or trigger`)
      continue
    }
    if (generated.test(span)) continue
    if (isPath(span)) {
      const pattern = pathPattern(span)
      if (!repository.files.some((file) => pattern.test(file))) problems.push(`\`${span}\`: no such path`)
      continue
    }
    const names = codeNames(span)
    if (external.has(names[0])) continue
    const word = (name) => new RegExp(`(^|[^\\w$])${escapeRegExp(name)}($|[^\\w$])`)
    for (const [index, name] of names.entries()) {
      if (name.length < 3) continue
      // `Module.member`: the member is in the module's file or its internal twin
      const owner = index > 0 ? modules(names[index - 1]) : []
      const found = owner.length > 0
        ? owner.some((file) => word(name).test(repository.read(file)))
        : word(name).test(sourceText())
      if (!found) problems.push(`\`${span}\`: ${name} is not in ${owner.length > 0 ? owner.join(", ") : "the sources"}`)
    }
  }
  return problems
}

/** The repository as `staleNames` reads it: its tracked and new files, the root scripts. */
export const repositoryAt = (root) => {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8"
  })
    .split("\n")
    .filter((file) => file.length > 0)
  const scripts = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts ?? {})
  const read = (file) => {
    try {
      return readFileSync(join(root, file), "utf8")
    } catch {
      return "" // listed by git but deleted in the work tree
    }
  }
  return { files, read, scripts }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(import.meta.url), "..", "..", "..")
  const page = process.argv[2] ?? join(root, "ARCHITECTURE.md")
  const problems = staleNames(readFileSync(page, "utf8"), repositoryAt(root))
  for (const problem of problems) console.error(`ARCHITECTURE.md: ${problem}`)
  if (problems.length > 0) process.exit(1)
  console.log("ARCHITECTURE.md: every named path, command, code name and link exists")
}
