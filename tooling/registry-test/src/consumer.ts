import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import type { Clients, PackageManager } from "./clients.js"
import { describeRun, run } from "./exec.js"
import type { Pool } from "./pool.js"
import { installArguments, parseReadme, type Example } from "./readme.js"
import { workspaceRoot, type WorkspacePackage } from "./workspace.js"

/** A consumer project of one package: its README's examples, installed as the README says. */
export interface Consumer {
  /** `npm-@x+boardtool`: the project's directory name, and how failures name it. */
  readonly name: string
  readonly packageManager: PackageManager
  /** The README, relative to the repository root. */
  readonly readme: string
  readonly dir: string
  readonly examples: ReadonlyArray<Example>
}

/** Each example's file is named after its README line, so a compiler error points at it. */
export const exampleFile = (example: Example) => `src/readme-line-${example.line}.ts`

export type Installed =
  | { readonly consumer: Consumer; readonly problems?: never }
  | { readonly consumer?: never; readonly problems: ReadonlyArray<string> }

/**
 * A consumer of one package, as its README tells one to be: an empty ES module project, the
 * README's install line alone (npm's, or the same with `pnpm add`), and every ```ts example of
 * the README written into src/.
 */
export const installConsumer = async (options: {
  readonly pkg: WorkspacePackage
  readonly packageManager: PackageManager
  /** Where the consumers' directories are. */
  readonly root: string
  readonly clients: Clients
  readonly pool: Pool
}): Promise<Installed> => {
  const { pkg, packageManager, root, clients, pool } = options
  const readme = relative(workspaceRoot, join(pkg.dir, "README.md"))
  if (!existsSync(join(pkg.dir, "README.md"))) return { problems: [`${readme} does not exist`] }
  const docs = parseReadme(readFileSync(join(pkg.dir, "README.md"), "utf8"))
  const missing = [
    docs.installLine === undefined ? `${readme} has no install line (a line "npm i …" in a \`\`\`sh block)` : [],
    docs.examples.length === 0 ? `${readme} has no \`\`\`ts example block` : []
  ].flat()
  if (missing.length > 0 || docs.installLine === undefined) return { problems: missing }
  let args: ReadonlyArray<string>
  try {
    args = installArguments(docs.installLine)
  } catch (error) {
    return { problems: [`${readme}: ${(error as Error).message}`] }
  }

  const name = `${packageManager}-${pkg.name.replace("/", "+")}`
  const dir = join(root, name)
  mkdirSync(join(dir, "src"), { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }, null, 2) + "\n")
  writeFileSync(join(dir, ".npmrc"), clients.projectNpmrc)

  const installed = await pool(() =>
    packageManager === "npm"
      ? clients.npm(["install", ...args], dir, 240_000)
      : clients.pnpm(["add", ...args, "--store-dir", clients.pnpmStore], dir, 240_000)
  )
  if (installed.exitCode !== 0) {
    return { problems: [`${readme}'s install line failed with ${packageManager}:\n${describeRun(installed)}`] }
  }
  const elsewhere = packageManager === "npm" ? fetchedElsewhere(dir, clients.registryUrl) : []
  if (elsewhere.length > 0) return { problems: [`npm installed from outside the local registry: ${elsewhere.join(", ")}`] }

  for (const example of docs.examples) writeFileSync(join(dir, exampleFile(example)), example.code)
  return { consumer: { name, packageManager, readme, dir, examples: docs.examples } }
}

/** The packages of npm's lockfile whose tarball came from anywhere but the local registry. */
const fetchedElsewhere = (dir: string, registryUrl: string): ReadonlyArray<string> => {
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
    readonly packages: Record<string, { readonly resolved?: string; readonly link?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && entry.link !== true && !(entry.resolved ?? "").startsWith(registryUrl))
    .map(([path, entry]) => `${path} (${entry.resolved ?? "no resolved URL"})`)
}

/**
 * Runs each compiled example with node (the type-check compiled it beside its source) and
 * checks it exits 0 and prints every `// prints:` text. Resolves with the problems found.
 */
export const runExamples = async (consumer: Consumer, clients: Clients, pool: Pool): Promise<ReadonlyArray<string>> => {
  const results = await Promise.all(
    consumer.examples.map(async (example) => {
      const file = exampleFile(example).replace(/\.ts$/, ".js")
      const ran = await pool(() => run(process.execPath, [file], { cwd: consumer.dir, env: clients.env, timeoutMs: 60_000 }))
      const where = `${consumer.readme}:${example.line} (installed with ${consumer.packageManager})`
      if (ran.exitCode !== 0) return [`${where} failed:\n${describeRun(ran)}`]
      return example.prints
        .filter((text) => !ran.stdout.includes(text))
        .map((text) => `${where} did not print "${text}"; its stdout:\n${ran.stdout.trimEnd()}`)
    })
  )
  return results.flat()
}
