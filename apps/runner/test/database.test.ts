/** The data directory of `serve`: readable by its owner only, whether serve created it or found it. */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { chmodSync, chownSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Database from "../src/Database.js"

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
