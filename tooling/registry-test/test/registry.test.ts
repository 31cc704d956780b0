import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeClients, type Clients, type PackageManager } from "../src/clients.js"
import { proveConsumer } from "../src/consumer.js"
import { makePool, mapInPool } from "../src/pool.js"
import { startRegistry, type Registry } from "../src/registry.js"
import { findRunner, proveRunner, runnerBin } from "../src/runner.js"
import { packThirdParty, thirdPartyClosure } from "../src/thirdParty.js"
import { publishedPackages, readManifest, workspacePackages, workspaceRoot, type WorkspacePackage } from "../src/workspace.js"
import { packWorkspace } from "../src/workspacePack.js"

const published = publishedPackages()
/** The packages whose README documents a consumer's first program (the install line, examples). */
const documented = ["@x/boardtool", "@x/sitebuilder", "@x/browseragent", "@x/http-undici"]
const packageManagers: ReadonlyArray<PackageManager> = ["npm", "pnpm"]
/** Packed third-party packages, by name@version: they only change with the lockfile. */
const cacheDir = join(workspaceRoot, "node_modules", ".cache", "registry-test")
// 2 cores: three at a time keeps one busy while another waits on the registry or the disk.
const pool = makePool(3)

let temp: string
let registry: Registry | undefined
let clients: Clients

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), "x-registry-test-"))
  registry = await startRegistry(join(temp, "registry"))
  clients = makeClients(registry, temp)
  const [thirdParty, ours] = await Promise.all([
    packThirdParty(thirdPartyClosure(published), cacheDir, clients),
    packWorkspace(published, join(temp, "packed"), clients, pool)
  ])
  await mapInPool(pool, [...thirdParty, ...ours.map((pkg) => pkg.tarball)], clients.publish)
})

afterAll(async () => {
  await registry?.stop()
  rmSync(temp, { recursive: true, force: true })
})

const workspacePackage = (name: string): WorkspacePackage => {
  const pkg = published.find((candidate) => candidate.name === name)
  if (pkg === undefined) throw new Error(`${name} is not a published workspace package`)
  return pkg
}

describe("a release rehearsal on a local registry", () => {
  it("builds every published package before it runs (each is a devDependency, so turbo's ^build covers it)", () => {
    const own = readManifest(join(workspaceRoot, "tooling", "registry-test")).devDependencies ?? {}
    expect(published.map((pkg) => pkg.name).filter((name) => own[name] !== "workspace:*")).toEqual([])
  })

  it("publishes every package that is not private", async () => {
    for (const pkg of published) {
      const response = await fetch(new URL(pkg.name.replace("/", "%2f"), registry!.url))
      expect(response.status, pkg.name).toBe(200)
      const metadata = (await response.json()) as { readonly versions: Record<string, unknown> }
      expect(Object.keys(metadata.versions), pkg.name).toContain(pkg.manifest.version)
    }
  })

  describe.concurrent("each package installed alone into an empty project, as its README says", () => {
    for (const packageManager of packageManagers) {
      for (const name of documented) {
        it(`${packageManager}: ${name}'s install line works, its examples type-check (node16, bundler) and run`, async () => {
          const problems = await proveConsumer({
            pkg: workspacePackage(name),
            packageManager,
            dir: join(temp, "consumers", `${packageManager}-${name.replace("/", "+")}`),
            clients,
            pool
          })
          expect(problems, problems.join("\n\n")).toEqual([])
        })
      }
    }

    it(`npx ${runnerBin} --help, and run --sandbox on the demo workflow`, async () => {
      const runner = findRunner(workspacePackages())
      if (runner === undefined) throw new Error(`no workspace package ships the ${runnerBin} bin`)
      if (runner.manifest.private === true) {
        throw new Error(
          `${runner.name} is private, so ${runnerBin} cannot be installed from a registry yet ` +
            `(issue 13: the runner becomes publishable in the "pack" branch)`
        )
      }
      const problems = await pool(() => proveRunner(runner, join(temp, "npx"), clients))
      expect(problems, problems.join("\n\n")).toEqual([])
    })
  })
})
