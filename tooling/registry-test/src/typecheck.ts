import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Clients } from "./clients.js"
import type { Consumer } from "./consumer.js"
import { describeRun, run } from "./exec.js"
import { tools } from "./workspace.js"

/** The two ways a TypeScript consumer resolves packages: Node's own, and a bundler's. */
export type Resolution = "node16" | "bundler"

const resolutionOptions = {
  // Emits each example's .js beside it, for node to run.
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "esnext", moduleResolution: "bundler", noEmit: true }
} as const

/**
 * Type-checks the examples of every consumer under one resolution, strict, with the published
 * declarations checked too (skipLibCheck false: a broken .d.ts is the consumer's error).
 *
 * One compiler run covers all the consumers of one package manager: each example still resolves
 * its imports from its own project's node_modules, and TypeScript reads a package it meets
 * again at the same name@version once, so effect's declarations are checked once instead of
 * once per project (that is most of a check's time). npm's and pnpm's projects are checked in
 * runs of their own, so that a declaration that resolves in one layout only cannot pass on the
 * other's copy. Resolves with each consumer's errors, by file path;
 * an error in no consumer's files (e.g. the compiler's own) is every consumer's.
 */
export const typecheckConsumers = async (
  consumers: ReadonlyArray<Consumer>,
  root: string,
  resolution: Resolution,
  clients: Clients,
  /** Names the run's tsconfig (e.g. the package manager), so that runs side by side do not share one. */
  label: string
): Promise<ReadonlyMap<Consumer, ReadonlyArray<string>>> => {
  const config = `tsconfig.${label}.${resolution}.json`
  const tsconfig = {
    compilerOptions: {
      target: "es2022",
      strict: true,
      skipLibCheck: false,
      moduleDetection: "force",
      // @types/node as a consumer would install it, from the workspace.
      types: ["node"],
      typeRoots: [tools.typesNodeRoot],
      ...resolutionOptions[resolution]
    },
    include: consumers.map((consumer) => `${consumer.name}/src`)
  }
  writeFileSync(join(root, config), JSON.stringify(tsconfig, null, 2) + "\n")
  const problems = new Map(consumers.map((consumer) => [consumer, [] as Array<string>]))
  if (consumers.length === 0) return problems

  const ran = await run(process.execPath, [tools.tsc, "-p", config, "--pretty", "false"], {
    cwd: root,
    env: clients.env,
    timeoutMs: 240_000
  })
  if (ran.exitCode === 0) return problems
  // Diagnostics start at the line's start (`path(line,col): error TS…`); details are indented.
  const diagnostics = ran.stdout.split(/\n(?=\S)/).filter((text) => text.trim() !== "")
  if (diagnostics.length === 0) diagnostics.push(describeRun(ran))
  for (const diagnostic of diagnostics) {
    const owners = consumers.filter((consumer) => diagnostic.startsWith(`${consumer.name}/`))
    for (const owner of owners.length > 0 ? owners : consumers) {
      problems.get(owner)!.push(`${owner.readme}'s examples do not type-check (${resolution}): ${diagnostic.trimEnd()}`)
    }
  }
  return problems
}
