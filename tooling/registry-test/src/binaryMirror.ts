/**
 * Where a native addon's prebuilt binary comes from during the rehearsal. On a user's machine,
 * `npm install` of such a package (better-sqlite3: the runner's embedded database) runs
 * `prebuild-install`, which downloads the binary built for that Node from the package's GitHub
 * releases, and compiles only when there is none. Here only the npm registry is reachable, so
 * the rehearsal serves those downloads from loopback: a mirror (prebuild-install's
 * `npm_config_<package>_binary_host`) holding, under prebuild-install's file name, a tarball of
 * the binary the workspace's install built. The package itself is published without its build
 * directory, as its real tarball is: the install must fetch the binary, as a user's does.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import * as tar from "tar"
import type { InstalledPackage } from "./thirdParty.js"

/** A package whose install builds a native addon with node-gyp (it has a `binding.gyp`). */
export const isNative = (pkg: InstalledPackage): boolean => existsSync(join(pkg.dir, "binding.gyp"))

export interface BinaryMirror {
  /** prebuild-install's mirror setting of each native package, for the clients' environment. */
  readonly env: Readonly<Record<string, string>>
  readonly close: () => Promise<void>
}

/** prebuild-install's setting name for a package: `npm_config_<name with _ for other characters>_binary_host`. */
const settingOf = (name: string) => `npm_config_${name.replace(/[^a-zA-Z0-9]/g, "_").replace(/^_/, "")}_binary_host`

/**
 * Starts the mirror of the native packages' binaries (those the workspace built; a package with
 * prebuild-install's install script and a `build/Release/*.node`).
 */
export const startBinaryMirror = async (packages: ReadonlyArray<InstalledPackage>, dir: string): Promise<BinaryMirror> => {
  const files = new Map<string, string>()
  const hosted: Array<string> = []
  mkdirSync(dir, { recursive: true })
  for (const pkg of packages.filter(isNative)) {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8")) as { readonly scripts?: Record<string, string> }
    const release = join(pkg.dir, "build", "Release")
    if (!/prebuild-install/.test(manifest.scripts?.["install"] ?? "") || !existsSync(release)) continue
    const binaries = readdirSync(release).filter((file) => file.endsWith(".node") && !file.startsWith("test_"))
    // prebuild-install's default name: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz
    const name = `${pkg.name.replace(/^@[^/]+\//, "")}-v${pkg.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
    const file = join(dir, name)
    await tar.create({ gzip: true, portable: true, cwd: pkg.dir, file }, binaries.map((binary) => join("build", "Release", binary)))
    files.set(`/v${pkg.version}/${name}`, file)
    hosted.push(pkg.name)
  }
  const server = createServer((request, response) => {
    const file = files.get(request.url ?? "")
    if (file === undefined) return response.writeHead(404).end()
    response.writeHead(200, { "content-type": "application/gzip" }).end(readFileSync(file))
  })
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)))
  return {
    env: Object.fromEntries(hosted.map((name) => [settingOf(name), `http://127.0.0.1:${port}`])),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
