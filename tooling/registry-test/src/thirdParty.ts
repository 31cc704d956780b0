import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import * as tar from "tar"
import { mapInPool, type Pool } from "./pool.js"
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

/** The cache file of a packed package: its name and version, the scope's slash made a plus (a native one's tarball has no build directory: a name of its own). */
const cacheFile = (cacheDir: string, pkg: InstalledPackage) =>
  join(cacheDir, `${id(pkg).replace("/", "+")}${existsSync(join(pkg.dir, "binding.gyp")) ? ".unbuilt" : ""}.tgz`)

/**
 * Tarballs of the installed packages, cached by name@version in `cacheDir`, so later runs pack
 * nothing. An installed package holds exactly the files its published tarball had, so the
 * tarball is its directory under `package/`. The directory is copied first: pnpm's store
 * hard-links every file, and node-tar 7.5 (npm pack's too) waits forever for the other links of
 * such files, which are outside the archive.
 */
export const packThirdParty = (
  packages: ReadonlyArray<InstalledPackage>,
  cacheDir: string,
  pool: Pool
): Promise<ReadonlyArray<string>> => {
  mkdirSync(cacheDir, { recursive: true })
  return mapInPool(pool, packages, async (pkg) => {
    const file = cacheFile(cacheDir, pkg)
    if (existsSync(file)) return file
    // Built aside then renamed, so a stopped or concurrent run never leaves a partial file.
    const staging = mkdtempSync(join(cacheDir, ".staging-"))
    try {
      const copy = join(staging, "package")
      // A native addon's build directory is what its install makes, not what it publishes.
      const built = existsSync(join(pkg.dir, "binding.gyp")) ? join(pkg.dir, "build") : undefined
      cpSync(pkg.dir, copy, { recursive: true, filter: (source) => source !== join(pkg.dir, "node_modules") && source !== built })
      const partial = join(staging, "package.tgz")
      await tar.create({ gzip: true, portable: true, prefix: "package/", cwd: copy, file: partial }, readdirSync(copy))
      renameSync(partial, file)
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
    return file
  })
}
