import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import type { Clients, PackageManager } from "./clients.js"
import { describeRun, run } from "./exec.js"
import type { Pool } from "./pool.js"
import { installArguments, parseReadme, type Example } from "./readme.js"
import { tools, workspaceRoot, type WorkspacePackage } from "./workspace.js"

/** The two ways a TypeScript consumer resolves packages: Node's own, and a bundler's. */
const compilerOptions = {
  node16: { module: "node16", moduleResolution: "node16", outDir: "dist", rootDir: "src" },
  bundler: { module: "esnext", moduleResolution: "bundler", noEmit: true }
} as const

const tsconfig = (resolution: keyof typeof compilerOptions) => ({
  compilerOptions: {
    target: "es2022",
    strict: true,
    // The published declarations are checked too: a broken .d.ts is a consumer's error.
    skipLibCheck: false,
    moduleDetection: "force",
    types: ["node"],
    typeRoots: [tools.typesNodeRoot],
    ...compilerOptions[resolution]
  },
  include: ["src"]
})

/** Each example's file is named after its README line, so a compiler error points at it. */
const exampleName = (example: Example) => `readme-line-${example.line}`

export interface ConsumerOptions {
  readonly pkg: WorkspacePackage
  readonly packageManager: PackageManager
  /** An empty directory for the project. */
  readonly dir: string
  readonly clients: Clients
  readonly pool: Pool
}

/**
 * A consumer of one package, as its README tells one to be: an empty ES module project, the
 * README's install line alone (npm's, or the same with `pnpm add`), then every ```ts example of
 * the README type-checked under node16 and bundler resolution, compiled, and run with node.
 * Resolves with the problems found, each naming the README and what failed ([] = it all works).
 */
export const proveConsumer = async (options: ConsumerOptions): Promise<ReadonlyArray<string>> => {
  const { pkg, packageManager, dir, clients, pool } = options
  const readmePath = join(pkg.dir, "README.md")
  const readme = relative(workspaceRoot, readmePath)
  const docs = parseReadme(readFileSync(readmePath, "utf8"))
  const missing = [
    docs.installLine === undefined ? `${readme} has no install line (a line "npm i …" in a \`\`\`sh block)` : [],
    docs.examples.length === 0 ? `${readme} has no \`\`\`ts example block` : []
  ].flat()
  if (missing.length > 0 || docs.installLine === undefined) return missing

  mkdirSync(join(dir, "src"), { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }, null, 2) + "\n")
  writeFileSync(join(dir, ".npmrc"), clients.projectNpmrc)

  const args = installArguments(docs.installLine)
  const installed = await pool(() =>
    packageManager === "npm"
      ? clients.npm(["install", ...args], dir, 240_000)
      : clients.pnpm(["add", ...args], dir, 240_000)
  )
  if (installed.exitCode !== 0) return [`${readme}'s install line failed with ${packageManager}:\n${describeRun(installed)}`]
  const elsewhere = packageManager === "npm" ? fetchedElsewhere(dir, clients.registryUrl) : []
  if (elsewhere.length > 0) return [`npm installed from outside the local registry: ${elsewhere.join(", ")}`]

  for (const example of docs.examples) writeFileSync(join(dir, "src", `${exampleName(example)}.ts`), example.code)
  for (const resolution of ["node16", "bundler"] as const) {
    writeFileSync(join(dir, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig(resolution), null, 2) + "\n")
  }
  const checks = await Promise.all(
    (["node16", "bundler"] as const).map(async (resolution) => {
      const ran = await pool(() =>
        run(process.execPath, [tools.tsc, "-p", `tsconfig.${resolution}.json`], { cwd: dir, env: clients.env, timeoutMs: 240_000 })
      )
      return ran.exitCode === 0 ? [] : [`${readme}'s examples do not type-check (${resolution}) after ${packageManager} install:\n${describeRun(ran)}`]
    })
  )
  // node16's check also compiled the examples; with type errors there is nothing sound to run.
  if (checks[0]!.length > 0) return checks.flat()

  const runs = await Promise.all(
    docs.examples.map(async (example) => {
      const file = join("dist", `${exampleName(example)}.js`)
      const ran = await pool(() => run(process.execPath, [file], { cwd: dir, env: clients.env, timeoutMs: 60_000 }))
      const where = `${readme}:${example.line} (${packageManager})`
      if (ran.exitCode !== 0) return [`${where} failed:\n${describeRun(ran)}`]
      return example.prints
        .filter((text) => !ran.stdout.includes(text))
        .map((text) => `${where} did not print "${text}"; stdout:\n${ran.stdout.trimEnd()}`)
    })
  )
  return [...checks.flat(), ...runs.flat()]
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
