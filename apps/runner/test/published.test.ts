/**
 * The x-runner package as `pnpm pack` (and so `pnpm publish`) makes it: only the bundled bin and
 * the package's documents, one dependency (better-sqlite3, the embedded database's native addon,
 * which no bundle can hold), and a bin that runs workflows on its own, unpacked where no
 * node_modules can lend it anything; `serve`'s engine with better-sqlite3 installed beside it.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile, execFileSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { stallMs } from "./bin.js"

const runnerDir = fileURLToPath(new URL("../", import.meta.url))
const pnpm = fileURLToPath(new URL("../../../node_modules/.bin/pnpm", import.meta.url))

const run = (cwd: string, args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, args, { cwd, timeout: stallMs }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? 1, stdout, stderr }))
  })

/** Every node_modules directory Node would look in from `dir` up. */
const nodeModulesAbove = (dir: string): Array<string> => {
  const found: Array<string> = []
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules"))) found.push(join(at, "node_modules"))
    if (dirname(at) === at) return found
  }
}

describe("x-runner as published", () => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-published-"))
  execFileSync(pnpm, ["pack", "--pack-destination", dir], { cwd: runnerDir, stdio: "pipe" })
  const tarball = join(dir, readdirSync(dir).find((f) => f.startsWith("x-runner-") && f.endsWith(".tgz"))!)
  const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").sort()
  execFileSync("tar", ["xzf", tarball, "-C", dir])
  const unpacked = join(dir, "package")
  const manifest = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"))

  it("holds only the bundle, README, LICENSE, CHANGELOG and package.json", () => {
    const other = files.filter((f) => !/^package\/dist\/bundle\/[\w-]+\.js$/.test(f))
    expect(other).toEqual(["package/CHANGELOG.md", "package/LICENSE", "package/README.md", "package/package.json"])
    expect(files).toContain("package/dist/bundle/x-runner.js")
  })

  it("is public, named x-runner, with its bin and better-sqlite3 its one dependency", () => {
    expect(manifest).toMatchObject({ name: "x-runner", bin: { "x-runner": "./dist/bundle/x-runner.js" }, engines: { node: ">=20.19" } })
    expect(manifest.private).toBeUndefined()
    expect(manifest.dependencies).toEqual({ "better-sqlite3": expect.stringMatching(/^\^\d+\.\d+\.\d+$/) })
    expect(manifest.peerDependencies ?? {}).toEqual({})
  })

  it("runs --help and the demo on the sandbox from the unpacked package alone", async () => {
    expect(nodeModulesAbove(unpacked)).toEqual([])
    copyFileSync(join(runnerDir, "examples/demo.json"), join(dir, "demo.json"))
    const bin = join(unpacked, "dist/bundle/x-runner.js")

    const help = await run(dir, [bin, "--help"])
    expect(help.stderr).toBe("")
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`x-runner ${manifest.version}`)

    const demo = await run(dir, [bin, "run", "demo.json", "--sandbox"])
    expect(demo.stderr).not.toMatch(/Cannot find (package|module)/)
    expect(demo.code).toBe(0)
    // Without its database's driver installed, the run is not recorded, and says so.
    expect(demo.stderr).toContain("⚠ the run is not recorded (better-sqlite3 is not installed here)")
    expect(demo.stdout).toContain("card (boardtool/v1/createCard): succeeded")
    expect(demo.stdout).toContain("item (sitebuilder/v1/getCollectionItem): succeeded")

    // The board demo, with its trigger served alongside (the serve chunks loaded from the bundle,
    // the engine's database from better-sqlite3, installed beside the package as npm installs it).
    const installed = realpathSync(join(runnerDir, "node_modules", "better-sqlite3"))
    symlinkSync(dirname(installed), join(unpacked, "node_modules"))
    for (const file of ["board.json", "card-moved.json"]) copyFileSync(join(runnerDir, "examples", file), join(dir, file))
    const board = await run(dir, [bin, "run", "board.json", "--sandbox", "--serve", "card-moved.json"])
    expect(board.stderr).not.toMatch(/Cannot find (package|module)/)
    expect(board.code).toBe(0)
    expect(board.stdout).toContain("result (boardtool/v1/getCard): succeeded")
    expect(board.stdout).toMatch(/boardtool\/v1\/cardMoved fired \(event [0-9a-f]{24}\), its run succeeded/)
  })

  /** The prepack check, run in `cwd` as pnpm runs it in the package: its exit status and stderr. */
  const prepack = (cwd: string) => {
    try {
      execFileSync(process.execPath, [join(runnerDir, "scripts/check-bundle.mjs")], { cwd, stdio: "pipe", encoding: "utf8" })
      return { status: 0, stderr: "" }
    } catch (error) {
      return error as { status: number; stderr: string }
    }
  }

  it("refuses to pack without its bundle, or with one older than the compiled sources, saying how to build it", () => {
    const unbuilt = mkdtempSync(join(tmpdir(), "x-runner-unbuilt-"))
    expect(prepack(unbuilt)).toMatchObject({ status: 1, stderr: expect.stringContaining("dist/bundle/x-runner.js is missing") })

    mkdirSync(join(unbuilt, "dist/bundle"), { recursive: true })
    writeFileSync(join(unbuilt, "dist/bundle/x-runner.js"), "")
    writeFileSync(join(unbuilt, "dist/main.js"), "")
    const now = Date.now() / 1000
    utimesSync(join(unbuilt, "dist/bundle/x-runner.js"), now - 60, now - 60)
    expect(prepack(unbuilt)).toMatchObject({ status: 1, stderr: expect.stringContaining("is older than dist/main.js") })

    utimesSync(join(unbuilt, "dist/bundle/x-runner.js"), now, now)
    expect(prepack(unbuilt).status).toBe(0)
  })
})
