/** The data directory of `serve`: readable by its owner only, whether serve created it or found it. */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/store/Database.js"
import { runner } from "./bin.js"

const makeDataDir = (dataDir: string) => Effect.runPromiseExit(Database.makeDataDir(dataDir).pipe(Effect.provide(NodeContext.layer)))
const modeOf = (path: string) => statSync(path).mode & 0o777

describe("Database.makeDataDir", () => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-datadir-"))

  it("creates a missing one (and its parents) 0700", async () => {
    const dataDir = join(dir, "new", "data")
    expect(Exit.isSuccess(await makeDataDir(dataDir))).toBe(true)
    expect(modeOf(dataDir)).toBe(0o700)
  })

  it("makes an existing one that others could read 0700, and leaves a 0700 one as it is", async () => {
    const dataDir = join(dir, "open")
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o755)
    expect(Exit.isSuccess(await makeDataDir(dataDir))).toBe(true)
    expect(modeOf(dataDir)).toBe(0o700)
    expect(Exit.isSuccess(await makeDataDir(dataDir))).toBe(true)
    expect(modeOf(dataDir)).toBe(0o700)
  })

  it("refuses a file in its place, with a message naming it", async () => {
    const file = join(dir, "a-file")
    writeFileSync(file, "")
    const exit = await makeDataDir(file)
    expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DamagedData", file } } })
    expect(JSON.stringify(exit)).toContain("is not a directory")
  })

  // Changing the owner needs root: elsewhere the case cannot be set up.
  it.skipIf(process.getuid?.() !== 0)("refuses an open one that belongs to another user, saying how to fix it, and leaves it as it is", async () => {
    const dataDir = join(dir, "theirs")
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o755)
    chownSync(dataDir, 65534, 65534)
    const exit = await makeDataDir(dataDir)
    expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DamagedData", file: dataDir } } })
    expect(JSON.stringify(exit)).toContain(`chmod 700 ${dataDir}`)
    expect(modeOf(dataDir)).toBe(0o755)
  })
})

describe("Database.layer: runs.db and its -wal and -shm are never symbolic links", () => {
  const dir = mkdtempSync(join(tmpdir(), "x-runner-links-"))
  const open = (dataDir: string) =>
    Effect.runPromiseExit(Effect.scoped(Layer.build(Database.layer({ _tag: "Embedded", dataDir }))).pipe(Effect.provide(NodeContext.layer)))

  for (const name of ["runs.db", "runs.db-wal", "runs.db-shm"]) {
    it(`${name} a link to another file: refused, naming it, and its target keeps its mode and content`, async () => {
      const dataDir = join(dir, name)
      mkdirSync(dataDir, { mode: 0o700 })
      const target = join(dir, `${name}.target`)
      writeFileSync(target, "the user's own file\n")
      chmodSync(target, 0o644)
      symlinkSync(target, join(dataDir, name))
      const exit = await open(dataDir)
      expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DamagedData", file: join(dataDir, name) } } })
      expect(JSON.stringify(exit)).toContain(`${join(dataDir, name)} is a symbolic link`)
      expect(modeOf(target)).toBe(0o644)
      expect(readFileSync(target, "utf8")).toBe("the user's own file\n")
    })
  }

  it("through the CLI: runs show refuses a linked runs.db with exit 2, the target's mode untouched", async () => {
    const dataDir = join(dir, "cli")
    mkdirSync(dataDir, { mode: 0o700 })
    const target = join(dir, "cli.target")
    writeFileSync(target, "")
    chmodSync(target, 0o644)
    symlinkSync(target, join(dataDir, "runs.db"))
    const { code, stderr } = await runner(["runs", "show", "3f2a9c41d0e8b7a6", "--data-dir", dataDir])
    expect(code).toBe(2)
    expect(stderr).toContain(`${join(dataDir, "runs.db")} is a symbolic link`)
    expect(modeOf(target)).toBe(0o644)
  })
})
