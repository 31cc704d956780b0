/**
 * The delivery journal of `serve`: an append-only file in the data directory. An accepted
 * event is written and flushed to disk before its delivery is acknowledged; a finished run is
 * written after it. On start, the journal says which events were accepted but not finished
 * (to run now) and which were seen (to refuse as duplicates): nothing acknowledged is lost
 * or run twice.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs"
import { join } from "node:path"

interface Entry {
  readonly t: "accepted" | "done"
  readonly id: string
  readonly output?: unknown
  readonly status?: string
}

export interface Journal {
  /** Events accepted before and not finished, oldest first. */
  readonly unfinished: ReadonlyArray<{ readonly id: string; readonly output: unknown }>
  readonly seen: (id: string) => boolean
  /** Writes the event and flushes it to disk; only then may its delivery be acknowledged. */
  readonly accept: (id: string, output: unknown) => void
  readonly finish: (id: string, status: string) => void
  readonly close: () => void
}

export const open = (dataDir: string): Journal => {
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, "journal.ndjson")
  const accepted = new Map<string, unknown>()
  const done = new Set<string>()
  if (existsSync(path)) {
    const text = readFileSync(path, "utf8")
    // A last line cut short by a crash was never acknowledged: drop it, so the next record
    // starts on a line of its own.
    const end = text.lastIndexOf("\n") + 1
    if (end < text.length) truncateSync(path, Buffer.byteLength(text.slice(0, end)))
    for (const line of text.slice(0, end).split("\n")) {
      if (line.trim() === "") continue
      let entry: Entry
      try {
        entry = JSON.parse(line) as Entry
      } catch {
        continue // a line cut short by a crash: its delivery was never acknowledged
      }
      if (typeof entry !== "object" || entry === null || typeof entry.id !== "string") continue
      if (entry.t === "accepted") accepted.set(entry.id, entry.output)
      else done.add(entry.id)
    }
  }
  const fd = openSync(path, "a")
  const append = (entry: Entry) => {
    const bytes = Buffer.from(JSON.stringify(entry) + "\n")
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written)
    fsyncSync(fd)
  }
  return {
    unfinished: [...accepted].filter(([id]) => !done.has(id)).map(([id, output]) => ({ id, output })),
    seen: (id) => accepted.has(id) || done.has(id),
    accept: (id, output) => {
      append({ t: "accepted", id, output })
      accepted.set(id, output)
    },
    finish: (id, status) => {
      append({ t: "done", id, status })
      done.add(id)
    },
    close: () => closeSync(fd)
  }
}
