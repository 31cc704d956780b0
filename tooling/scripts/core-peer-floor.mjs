// Run by `pnpm release` right after `changeset version`: every package released in this
// version that takes @x/core as a peer gets the core version it is built and tested with as
// the floor of that range (`>=<core> <1.0.0`). A connector that starts using something new in
// core can then never be installed with an older core; one that is not released keeps the
// range it was published with.
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

/** The peer range on @x/core for a package released with this core version. */
export const floorRange = (coreVersion) => `workspace:>=${coreVersion} <1.0.0`

/** Whether a published range of the form `>=X <1.0.0` holds this core version (what `lint:packages` checks). */
export const holds = (range, coreVersion) => {
  const match = /^>=(\d+)\.(\d+)\.(\d+) <1\.0\.0$/.exec(range)
  if (match === null) return false
  const floor = match.slice(1).map(Number)
  const core = coreVersion.split(".").map(Number)
  for (let i = 0; i < 3; i++) if (floor[i] !== core[i]) return floor[i] < core[i]
  return true
}

const main = () => {
  const root = fileURLToPath(new URL("../../", import.meta.url))
  const read = (file) => JSON.parse(readFileSync(file, "utf8"))
  const core = read(join(root, "packages/core/package.json")).version
  const dirs = ["packages", "apps"].flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(root, parent, name)))
  for (const dir of dirs) {
    const file = join(dir, "package.json")
    let manifest
    try {
      manifest = read(file)
    } catch {
      continue
    }
    if (manifest.peerDependencies?.["@x/core"] === undefined) continue
    const before = JSON.parse(execFileSync("git", ["show", `HEAD:${relative(root, file)}`], { cwd: root, encoding: "utf8" })).version
    if (before === manifest.version) continue
    manifest.peerDependencies["@x/core"] = floorRange(core)
    writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n")
    console.log(`${manifest.name}@${manifest.version}: peer @x/core ${floorRange(core)}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
