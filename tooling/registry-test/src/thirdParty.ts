import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { Clients } from "./clients.js"
import { describeRun } from "./exec.js"
import { readManifest, workspaceRoot, type Manifest, type WorkspacePackage } from "./workspace.js"

/** A third-party package as the workspace installed it (pnpm's node_modules/.pnpm/…). */
export interface InstalledPackage {
  readonly name: string
  readonly version: string
  readonly dir: string
}

const id = (pkg: InstalledPackage) => `${pkg.name}@${pkg.version}`

/** What installing `manifest` pulls in: dependencies, optional ones and non-optional peers. */
const wanted = (manifest: Manifest): ReadonlyArray<{ readonly name: string; readonly optional: boolean }> => [
  ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, optional: false })),
  ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
  ...Object.keys(manifest.peerDependencies ?? {}).map((name) => ({
    name,
    optional: manifest.peerDependenciesMeta?.[name]?.optional === true
  }))
]

/**
 * The third-party packages the published packages need at install time, transitively, with the
 * versions the workspace resolved. pnpm's layout puts a package's dependencies (peers included)
 * beside it in the same node_modules, so each is looked up where Node would find it. Optional
 * dependencies absent here (other platforms' binaries) are left out, as the install skips them.
 */
export const thirdPartyClosure = (published: ReadonlyArray<WorkspacePackage>): ReadonlyArray<InstalledPackage> => {
  const ours = new Set(published.map((pkg) => pkg.name))
  const found = new Map<string, InstalledPackage>()
  const hoisted = join(workspaceRoot, "node_modules", ".pnpm", "node_modules")

  const visit = (name: string, optional: boolean, searchDirs: ReadonlyArray<string>, neededBy: string) => {
    if (ours.has(name)) return
    const candidate = searchDirs.map((nodeModules) => join(nodeModules, name)).find((path) => existsSync(path))
    if (candidate === undefined) {
      if (optional) return
      throw new Error(`${neededBy} needs ${name}, which the workspace has not installed (searched ${searchDirs.join(", ")})`)
    }
    const dir = realpathSync(candidate)
    const manifest = readManifest(dir)
    const pkg = { name: manifest.name, version: manifest.version, dir }
    if (found.has(id(pkg))) return
    found.set(id(pkg), pkg)
    // dir is <node_modules>/<name> (name may be @scope/name): its dependencies are its siblings.
    const siblings = dir.slice(0, dir.length - name.length - 1)
    for (const dep of wanted(manifest)) visit(dep.name, dep.optional, [siblings], id(pkg))
  }

  for (const pkg of published) {
    for (const dep of wanted(pkg.manifest)) {
      visit(dep.name, dep.optional, [join(pkg.dir, "node_modules"), hoisted], pkg.name)
    }
  }
  return [...found.values()].sort((a, b) => id(a).localeCompare(id(b)))
}

/** The cache file of a packed package: its name and version, the scope's slash made a plus. */
const cacheFile = (cacheDir: string, pkg: InstalledPackage) => join(cacheDir, `${id(pkg).replace("/", "+")}.tgz`)

/**
 * Tarballs of the installed packages, packed with npm (the files the package publishes) and
 * cached by name@version in `cacheDir`, so later runs pack nothing.
 */
export const packThirdParty = async (
  packages: ReadonlyArray<InstalledPackage>,
  cacheDir: string,
  clients: Clients
): Promise<ReadonlyArray<string>> => {
  mkdirSync(cacheDir, { recursive: true })
  const missing = packages.filter((pkg) => !existsSync(cacheFile(cacheDir, pkg)))
  if (missing.length > 0) {
    // One npm process packs them all; a private directory, then a rename each, so a run that
    // is stopped half-way or runs beside another never leaves a partial file in the cache.
    const staging = mkdtempSync(join(cacheDir, ".staging-"))
    try {
      const ran = await clients.npm(
        ["pack", "--ignore-scripts", "--json", "--pack-destination", staging, ...missing.map((pkg) => pkg.dir)],
        staging,
        300_000
      )
      if (ran.exitCode !== 0) throw new Error(describeRun(ran))
      const packed = JSON.parse(ran.stdout) as ReadonlyArray<{ readonly id: string; readonly filename: string }>
      for (const pkg of missing) {
        const entry = packed.find((item) => item.id === id(pkg))
        if (entry === undefined) throw new Error(`npm pack did not report ${id(pkg)}`)
        renameSync(join(staging, entry.filename), cacheFile(cacheDir, pkg))
      }
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
  return packages.map((pkg) => cacheFile(cacheDir, pkg))
}
