import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeClients, type PackageManager } from "../src/clients.js"
import { installConsumer, runExamples, type Consumer } from "../src/consumer.js"
import { proveEffect4Refused } from "../src/effect4.js"
import { makePool, mapInPool } from "../src/pool.js"
import { publishTarball } from "../src/publish.js"
import { parseReadme } from "../src/readme.js"
import { startRegistry, type Registry } from "../src/registry.js"
import { type BinaryMirror, startBinaryMirror } from "../src/binaryMirror.js"
import { findRunner, proveRunner, runnerBin } from "../src/runner.js"
import { packThirdParty, thirdPartyClosure } from "../src/thirdParty.js"
import { typecheckConsumers } from "../src/typecheck.js"
import { publishedPackages, readManifest, workspacePackages, workspaceRoot, type WorkspacePackage } from "../src/workspace.js"
import { packWorkspace } from "../src/workspacePack.js"

const published = publishedPackages()
const runner = findRunner(workspacePackages())
/** The packages whose README must show a consumer's first program (an install line, examples). */
const mustDocument = ["@x/boardtool", "@x/sitebuilder", "@x/browseragent", "@x/http-undici"]
/** …and any other published package whose README has examples: they are run too. */
const documented = [
  ...mustDocument,
  ...published
    .filter((pkg) => !mustDocument.includes(pkg.name) && existsSync(join(pkg.dir, "README.md")))
    .filter((pkg) => parseReadme(readFileSync(join(pkg.dir, "README.md"), "utf8")).examples.length > 0)
    .map((pkg) => pkg.name)
]
const packageManagers: ReadonlyArray<PackageManager> = ["npm", "pnpm"]
/** Third-party packages packed from the workspace's install, by name@version (they change with the lockfile). */
const cacheDir = join(workspaceRoot, "node_modules", ".cache", "registry-test")
// 2 cores: three at a time keeps both busy while one task waits on the registry or the disk.
const pool = makePool(3)

const consumerKey = (packageManager: PackageManager, name: string) => `${packageManager} ${name}`

let temp: string
let registry: Registry | undefined
let mirror: BinaryMirror | undefined
/** What went wrong for each consumer (`npm @x/boardtool`), in the order it happened. */
const problems = new Map<string, Array<string>>()
let runnerProblems: ReadonlyArray<string> | undefined
let effect4Problems: ReadonlyArray<string> | undefined

const workspacePackage = (name: string): WorkspacePackage => {
  const pkg = published.find((candidate) => candidate.name === name)
  if (pkg === undefined) throw new Error(`${name} is not a published workspace package`)
  return pkg
}

/** Runs a phase and logs how long it took: CI's budget for this test is a few minutes. */
const phase = async <A>(label: string, task: () => Promise<A>): Promise<A> => {
  const started = performance.now()
  const result = await task()
  console.log(`registry test: ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return result
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), "x-registry-test-"))
  registry = await phase("started verdaccio", () => startRegistry(join(temp, "registry")))
  const thirdPartyPackages = thirdPartyClosure(published)
  mirror = await startBinaryMirror(thirdPartyPackages, join(temp, "binaries"))
  const clients = makeClients(registry, temp, mirror.env)

  await phase("packed and published every package and its third-party dependencies", async () => {
    const [thirdParty, ours] = await Promise.all([
      packThirdParty(thirdPartyPackages, cacheDir, pool),
      packWorkspace(published, join(temp, "packed"), clients, pool)
    ])
    await mapInPool(pool, [...thirdParty, ...ours.map((pkg) => pkg.tarball)], (tarball) => publishTarball(registry!, tarball))
  })

  // The runner's npx goes on beside the consumers' installs (the pool shares the cores).
  const runnerRun =
    runner !== undefined && runner.manifest.private !== true
      ? pool(() => proveRunner(runner, join(temp, "npx"), clients))
      : Promise.resolve(undefined)

  // Installing next to effect 4, also beside the consumers' installs.
  const effect4Run = proveEffect4Refused({ registry, dir: join(temp, "effect4"), clients, pool, connector: "@x/boardtool" })

  const root = join(temp, "consumers")
  mkdirSync(root, { recursive: true })
  const consumers: Array<Consumer> = []
  const keyOf = new Map<Consumer, string>()
  await phase("installed each package alone with npm and pnpm", () =>
    Promise.all(
      packageManagers.flatMap((packageManager) =>
        documented.map(async (name) => {
          const key = consumerKey(packageManager, name)
          const installed = await installConsumer({ pkg: workspacePackage(name), packageManager, root, clients, pool })
          problems.set(key, [...(installed.problems ?? [])])
          if (installed.consumer !== undefined) {
            consumers.push(installed.consumer)
            keyOf.set(installed.consumer, key)
          }
        })
      )
    )
  )
  consumers.sort((a, b) => a.name.localeCompare(b.name))
  const checked = await phase("type-checked the README examples (node16, bundler; npm's and pnpm's apart)", () =>
    Promise.all(packageManagers.flatMap((packageManager) => {
      const own = consumers.filter((consumer) => consumer.packageManager === packageManager)
      return (["node16", "bundler"] as const).map((resolution) => typecheckConsumers(own, root, resolution, clients, packageManager))
    }))
  )
  const merged = (index: 0 | 1) => new Map(checked.filter((_, i) => i % 2 === index).flatMap((results) => [...results]))
  const [node16, bundler] = [merged(0), merged(1)]
  await phase("ran the README examples", () =>
    Promise.all(
      consumers.map(async (consumer) => {
        const found = problems.get(keyOf.get(consumer)!)!
        found.push(...node16.get(consumer)!, ...bundler.get(consumer)!)
        // node16's check compiled the examples: with type errors there is nothing sound to run.
        if (node16.get(consumer)!.length === 0) found.push(...(await runExamples(consumer, clients, pool)))
      })
    )
  )
  runnerProblems = await phase(`waited for npx ${runnerBin} (it ran beside the installs)`, () => runnerRun)
  effect4Problems = await effect4Run
})

afterAll(async () => {
  await mirror?.close()
  await registry?.stop()
  if (temp === undefined) return
  // REGISTRY_TEST_KEEP=1 keeps the consumers' projects to look into after a failure.
  if (process.env["REGISTRY_TEST_KEEP"] === "1") console.log(`registry test: kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true, maxRetries: 3 })
})

describe("a release rehearsal on a local registry", () => {
  it("builds every published package before it runs (each is a devDependency, so turbo's ^build covers it)", () => {
    const own = readManifest(join(workspaceRoot, "tooling", "registry-test")).devDependencies ?? {}
    const unbuilt = published.map((pkg) => pkg.name).filter((name) => own[name] !== "workspace:*")
    expect(unbuilt, `add to tooling/registry-test's devDependencies, as "workspace:*": ${unbuilt.join(", ")}`).toEqual([])
  })

  it("publishes every package that is not private", async () => {
    for (const pkg of published) {
      const response = await fetch(new URL(pkg.name.replace("/", "%2f"), registry!.url))
      expect(response.status, pkg.name).toBe(200)
      const metadata = (await response.json()) as { readonly versions: Record<string, unknown> }
      expect(Object.keys(metadata.versions), pkg.name).toContain(pkg.manifest.version)
    }
  })

  for (const packageManager of packageManagers) {
    for (const name of documented) {
      it(`${packageManager}: ${name} installs alone as its README says, and its examples type-check (node16, bundler) and run`, () => {
        const found = problems.get(consumerKey(packageManager, name))
        expect(found, "the consumer was never set up").toBeDefined()
        expect(found, found!.join("\n\n")).toEqual([])
      })
    }
  }

  it("refuses effect 4: npm fails with ERESOLVE, pnpm with strict-peer-dependencies (as the READMEs advise)", () => {
    expect(effect4Problems, effect4Problems?.join("\n\n")).toEqual([])
  })

  it(`npx ${runnerBin} --help, and ${runnerBin} run --sandbox on the demo workflow, from the registry`, () => {
    if (runner === undefined) throw new Error(`no workspace package ships the ${runnerBin} bin`)
    if (runnerProblems === undefined) {
      throw new Error(
        `${runner.name} is private, so ${runnerBin} cannot be installed from a registry yet ` +
          `(issue 13: the runner becomes publishable in the "pack" branch)`
      )
    }
    expect(runnerProblems, runnerProblems.join("\n\n")).toEqual([])
  })
})
