import { mapInPool, type Pool } from "./pool.js"
import type { Clients } from "./clients.js"
import { describeRun } from "./exec.js"
import type { WorkspacePackage } from "./workspace.js"

export interface PackedPackage {
  readonly name: string
  readonly version: string
  readonly tarball: string
}

/**
 * Packs each package as a release does: `pnpm pack` in its directory, which rewrites the
 * `workspace:` ranges to the versions and applies publishConfig.
 */
export const packWorkspace = (
  packages: ReadonlyArray<WorkspacePackage>,
  destination: string,
  clients: Clients,
  pool: Pool
): Promise<ReadonlyArray<PackedPackage>> =>
  mapInPool(pool, packages, async (pkg) => {
    const ran = await clients.pnpm(["pack", "--pack-destination", destination, "--json"], pkg.dir, 120_000)
    if (ran.exitCode !== 0) throw new Error(describeRun(ran, pkg.dir))
    // Scripts (prepack) may print before pnpm's JSON: it is the last top-level object.
    const packed = JSON.parse(ran.stdout.slice(ran.stdout.lastIndexOf("\n{") + 1)) as {
      readonly name: string
      readonly version: string
      readonly filename: string
    }
    return { name: packed.name, version: packed.version, tarball: packed.filename }
  })
