import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as tar from "tar"
import type { Clients } from "./clients.js"
import { describeRun } from "./exec.js"
import type { Pool } from "./pool.js"
import { publishTarball } from "./publish.js"
import type { Registry } from "./registry.js"

/** A stand-in for effect 4 (its own dist-tag, so nothing picks it by accident): only its version matters. */
const publishEffect4 = async (registry: Registry, dir: string): Promise<void> => {
  mkdirSync(join(dir, "package"), { recursive: true })
  writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "effect", version: "4.0.0", type: "module", main: "index.js" }))
  writeFileSync(join(dir, "package", "index.js"), "export {}\n")
  const tarball = join(dir, "effect-4.0.0.tgz")
  await tar.create({ gzip: true, file: tarball, cwd: dir, portable: true }, ["package"])
  await publishTarball(registry, tarball, "next")
}

/**
 * What installing a connector next to effect 4 does: npm refuses (ERESOLVE); pnpm, which only
 * warns by default, refuses with `strict-peer-dependencies`, as the READMEs advise. Resolves
 * with the problems found (none when both refuse).
 */
export const proveEffect4Refused = async (options: {
  readonly registry: Registry
  readonly dir: string
  readonly clients: Clients
  readonly pool: Pool
  readonly connector: string
}): Promise<ReadonlyArray<string>> => {
  const { clients, connector, dir, pool, registry } = options
  await publishEffect4(registry, join(dir, "stub"))
  const args = [connector, "@x/core", "effect@4.0.0", "@effect/platform@^0.97"]
  const project = (name: string, npmrc = "", dependencies: Record<string, string> = {}) => {
    const path = join(dir, name)
    mkdirSync(path, { recursive: true })
    writeFileSync(join(path, "package.json"), JSON.stringify({ type: "module", private: true, dependencies }))
    writeFileSync(join(path, ".npmrc"), clients.projectNpmrc + npmrc)
    return path
  }
  const [npm, pnpm] = await Promise.all([
    pool(() => clients.npm(["install", ...args], project("npm"), 240_000)),
    // The setting as the READMEs give it, a line in the project's .npmrc. `pnpm add` only warns
    // even then (pnpm/pnpm#6893, #10824); `pnpm install` of the same dependencies refuses.
    pool(() =>
      clients.pnpm(
        ["install", "--store-dir", clients.pnpmStore],
        project("pnpm", "strict-peer-dependencies=true\n", {
          [connector]: "*",
          "@x/core": "*",
          effect: "4.0.0",
          "@effect/platform": "^0.97"
        }),
        240_000
      )
    )
  ])
  const problems: Array<string> = []
  if (npm.exitCode === 0 || !/ERESOLVE/.test(npm.stderr) || !/effect@/.test(npm.stderr)) {
    problems.push(`npm did not refuse effect 4 with ERESOLVE:\n${describeRun(npm)}`)
  }
  if (pnpm.exitCode === 0 || !/ERR_PNPM_PEER_DEP_ISSUES/.test(pnpm.stdout + pnpm.stderr) || !/unmet peer effect@\^3/.test(pnpm.stdout + pnpm.stderr)) {
    problems.push(`pnpm with strict-peer-dependencies=true did not refuse effect 4:\n${describeRun(pnpm)}`)
  }
  return problems
}
