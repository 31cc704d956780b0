import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)

/** The repository root (this package is tooling/registry-test). */
export const workspaceRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** The workspace's own tools, so the test uses the pinned versions and fetches none. */
export const tools = {
  /** The pnpm the workspace pins (package.json's packageManager, also a devDependency here). */
  // pnpm exports only its package.json, as ".".
  pnpm: join(dirname(require.resolve("pnpm")), "bin", "pnpm.cjs"),
  tsc: join(dirname(require.resolve("typescript/package.json")), "bin", "tsc"),
  /** @types/node, for the consumers' type-checks (a consumer would install it; same package). */
  typesNodeRoot: dirname(dirname(require.resolve("@types/node/package.json")))
}

export interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly bin?: string | Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
  readonly devDependencies?: Record<string, string>
}

export const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest

export interface WorkspacePackage {
  readonly name: string
  readonly dir: string
  readonly manifest: Manifest
}

/** Every workspace package, as pnpm sees the workspace (pnpm-workspace.yaml's globs). */
export const workspacePackages = (): ReadonlyArray<WorkspacePackage> => {
  // pnpm's own listing, synchronously: the test's names are needed when vitest collects them.
  const listed = JSON.parse(
    execFileSync(process.execPath, [tools.pnpm, "ls", "-r", "--depth", "-1", "--json"], {
      cwd: workspaceRoot,
      encoding: "utf8"
    })
  ) as ReadonlyArray<{ readonly name: string; readonly path: string }>
  return listed
    .filter((entry) => entry.path !== workspaceRoot.replace(/\/$/, ""))
    .map((entry) => ({ name: entry.name, dir: entry.path, manifest: readManifest(entry.path) }))
}

/** The packages a release publishes: every workspace package not marked private. */
export const publishedPackages = (): ReadonlyArray<WorkspacePackage> =>
  workspacePackages().filter((pkg) => pkg.manifest.private !== true)
