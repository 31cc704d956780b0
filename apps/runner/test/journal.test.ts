/** The delivery journal: group-committed writes, what a restart reads back, and damage refused. */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Journal from "../src/Journal.js"

const lines = (dir: string) =>
  readFileSync(join(dir, "journal.ndjson"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))

const withJournal = <A, E>(dir: string, use: (journal: Journal.Journal) => Effect.Effect<A, E>) =>
  Effect.runPromiseExit(Effect.scoped(Effect.flatMap(Journal.open(dir), use)).pipe(Effect.provide(NodeContext.layer)))

const record = (entry: unknown) => JSON.stringify(entry) + "\n"

describe("Journal", () => {
  it("accepts many events at once: each succeeds only once its record is on disk, all in one file, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"))
    const ids = Array.from({ length: 500 }, (_, i) => `event-${i}`)
    const onDisk: Array<number> = []
    const first = await withJournal(dir, (journal) =>
      Effect.gen(function*() {
        yield* Effect.forEach(ids, (id, i) =>
          Effect.tap(journal.accept({ id, output: { n: i } }), () =>
            // Succeeded: the record is in the file already.
            Effect.sync(() => onDisk.push(lines(dir).filter((l) => l.id === id).length))), { concurrency: "unbounded" })
        // Seen at once, before its write is done; a duplicate waits for the same write.
        const late = yield* Effect.fork(journal.accept({ id: "late", output: {} }))
        yield* Effect.yieldNow()
        expect(journal.seen("late")).toBe(true)
        yield* journal.durable("late")
        expect(lines(dir).at(-1)).toEqual({ t: "accepted", id: "late", output: {} })
        yield* late.await
        yield* journal.finish("event-0", "succeeded")
      }))
    expect(Exit.isSuccess(first)).toBe(true)
    expect(onDisk).toEqual(ids.map(() => 1))
    expect(lines(dir).map((l) => l.id)).toEqual([...ids, "late", "event-0"])
    // Payloads are readable by the owner only.
    expect(statSync(join(dir, "journal.ndjson")).mode & 0o777).toBe(0o600)

    const reopened = await withJournal(dir, (journal) =>
      Effect.sync(() => {
        expect(journal.unfinished.map((e) => e.id)).toEqual([...ids.slice(1), "late"])
        expect(journal.unfinished[0]).toEqual({ id: "event-1", output: { n: 1 } })
        expect(journal.seen("event-0")).toBe(true)
        expect(journal.seen("never")).toBe(false)
      }))
    expect(Exit.isSuccess(reopened)).toBe(true)
  })

  it("a last line torn by a crash is cut off; the records before it are kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"))
    const file = join(dir, "journal.ndjson")
    writeFileSync(file, record({ t: "accepted", id: "a", output: 1 }) + "{\"t\":\"accepted\",\"id\":\"b\",\"out")
    const exit = await withJournal(dir, (journal) => Effect.sync(() => journal.unfinished.map((e) => e.id)))
    expect(exit).toEqual(Exit.succeed(["a"]))
    expect(readFileSync(file, "utf8")).toBe(record({ t: "accepted", id: "a", output: 1 }))
  })

  it("refuses damage a crash does not explain: a broken line in the middle, random bytes, a record of another shape", async () => {
    const cases: Record<string, string | Buffer> = {
      middle: record({ t: "accepted", id: "a", output: 1 }) + "{\"t\":\"acc\n" + record({ t: "done", id: "a", status: "succeeded" }),
      random: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
      shape: record({ t: "accepted", id: "a", output: 1 }) + record({ hello: "world" })
    }
    const lineOf: Record<string, number> = { middle: 2, shape: 2 }
    for (const [name, content] of Object.entries(cases)) {
      const dir = mkdtempSync(join(tmpdir(), "journal-"))
      const file = join(dir, "journal.ndjson")
      writeFileSync(file, content)
      const exit = await withJournal(dir, () => Effect.void)
      expect(Exit.isFailure(exit), name).toBe(true)
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
      expect(error, name).toMatchObject({ _tag: "DamagedData", file })
      expect(error!.message).toContain(`${file} is damaged at line ${lineOf[name] ?? ""}`)
      expect(error!.message).toContain(`mv ${file} ${file}.damaged`)
      // Nothing was cut or appended.
      expect(readFileSync(file)).toEqual(Buffer.from(content))
    }
  })
})
