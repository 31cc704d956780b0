/**
 * Opening the runs' embedded database (`Database.layer`, from the build): two processes opening
 * a fresh data directory at the same moment (`serve` and an `x-runner runs`, say) both succeed,
 * its migrations run once; a database a newer x-runner migrated (to a migration this one does not
 * know) is refused, naming it, rather than read or written on a schema this one cannot know.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Migrations from "../dist/store/Migrations.js"
import { runner, spawn } from "./bin.js"

const openStore = fileURLToPath(new URL("./fixtures/openStore.mjs", import.meta.url))

/** better-sqlite3 (the runner's dependency, without types of its own). */
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new(file: string) => {
  prepare: (sql: string) => { all: () => Array<unknown>; run: (...values: Array<unknown>) => unknown }
  close: () => void
}
const withDatabase = <A>(dataDir: string, f: (db: InstanceType<typeof Sqlite>) => A): A => {
  const db = new Sqlite(join(dataDir, "runs.db"))
  try {
    return f(db)
  } finally {
    db.close()
  }
}

/** The fixture in a process of its own, ready (modules loaded) to open the store when told to. */
const opener = (dataDir: string, eventId: string) => {
  const child = spawn(process.execPath, [openStore, dataDir, eventId])
  let out = ""
  let err = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on("exit", (code) => resolve({ code, out, err })))
  const ready = async () => {
    while (!out.includes("ready\n")) {
      if (child.exitCode !== null) throw new Error(`the store's opener ended before it was ready: ${err}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return { go: () => child.stdin.write("go\n"), ready, exited }
}

describe("opening the runs' embedded database", () => {
  it("two processes opening a fresh data directory at the same moment both succeed; its migrations run once", async () => {
    const known = (await Effect.runPromise(Migrations.loader)).map(([id, name]) => ({ migration_id: id, name }))
    // Six rounds: turning WAL on found the other's lock taken in about one round of five before
    // the opening was tried again (SQLITE_BUSY at once, without the busy handler).
    for (let round = 0; round < 6; round++) {
      // Not there yet: both create it, the database file and its schema.
      const dataDir = join(mkdtempSync(join(tmpdir(), "x-runner-opening-")), "data")
      const both = [opener(dataDir, "a"), opener(dataDir, "b")]
      await Promise.all(both.map((process) => process.ready()))
      for (const process of both) process.go()
      const [a, b] = await Promise.all(both.map((process) => process.exited))
      expect([a!.code, a!.err, b!.code, b!.err]).toEqual([0, "", 0, ""])
      // Each wrote its run; the one that listed last saw both.
      expect([JSON.parse(a!.out.split("\n")[1]!), JSON.parse(b!.out.split("\n")[1]!)].sort((x, y) => y.length - x.length)[0].sort()).toEqual(["a", "b"])
      expect(withDatabase(dataDir, (db) => db.prepare(`SELECT migration_id, name FROM ${Migrations.table} ORDER BY migration_id`).all())).toEqual(known)
    }
  })

  it("a database migrated by a newer x-runner is refused, naming its migration, nothing read or written", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "x-runner-newer-")), "data")
    const made = opener(dataDir, "a")
    await made.ready()
    made.go()
    expect((await made.exited).code).toBe(0)
    withDatabase(dataDir, (db) => db.prepare(`INSERT INTO ${Migrations.table} (migration_id, name) VALUES (99, 'from_a_newer_runner')`).run())

    const latest = Math.max(...(await Effect.runPromise(Migrations.loader)).map(([id]) => id))
    const listed = await runner(["runs", "--data-dir", dataDir])
    expect(listed.code).toBe(2)
    expect(listed.stdout).toBe("")
    expect(listed.stderr).toContain(
      `the runs' database was migrated by a newer x-runner: it is at migration 99 "from_a_newer_runner", this x-runner knows up to ${latest}: open it with that x-runner, or a newer one`
    )
    const opened = opener(dataDir, "b")
    await opened.ready()
    opened.go()
    expect((await opened.exited).code).not.toBe(0)
    expect(withDatabase(dataDir, (db) => db.prepare("SELECT event_id FROM xr_runs").all())).toEqual([{ event_id: "a" }])
  })
})
