/** The delivery journal: group-committed writes, and what a restart reads back. */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Journal from "../src/Journal.js"

const lines = (dir: string) =>
  readFileSync(join(dir, "journal.ndjson"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))

describe("Journal", () => {
  it("accepts many events at once: each resolves only once its record is on disk, all in one file, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"))
    const journal = Journal.open(dir)
    const ids = Array.from({ length: 500 }, (_, i) => `event-${i}`)
    const onDisk: Array<number> = []
    await Promise.all(ids.map((id, i) =>
      journal.accept(id, { n: i }).then(() => {
        // Resolved: the record is in the file already.
        onDisk.push(lines(dir).filter((l) => l.id === id).length)
      })
    ))
    expect(onDisk).toEqual(ids.map(() => 1))
    expect(lines(dir).map((l) => l.id)).toEqual(ids)
    // Seen at once, before its write is done; a duplicate waits for the same write.
    const late = journal.accept("late", {})
    expect(journal.seen("late")).toBe(true)
    await journal.durable("late")
    expect(lines(dir).at(-1)).toEqual({ t: "accepted", id: "late", output: {} })
    await late
    await journal.finish("event-0", "succeeded")
    await journal.close()

    const reopened = Journal.open(dir)
    expect(reopened.unfinished.map((e) => e.id)).toEqual([...ids.slice(1), "late"])
    expect(reopened.unfinished[0]).toEqual({ id: "event-1", output: { n: 1 } })
    expect(reopened.seen("event-0")).toBe(true)
    expect(reopened.seen("never")).toBe(false)
    await reopened.close()
  })
})
