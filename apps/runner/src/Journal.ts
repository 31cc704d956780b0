/**
 * The delivery journal of `serve`: an append-only file in the data directory. An accepted
 * event is written and flushed to disk before its delivery is acknowledged; a finished run is
 * written after it. On start, the journal says which events were accepted but not finished
 * (to run now) and which were seen (to refuse as duplicates): nothing acknowledged is lost
 * or run twice.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs"
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
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (line.trim() === "") continue
      let entry: Entry
      try {
        entry = JSON.parse(line) as Entry
      } catch {
        continue // a line cut short by a crash: its delivery was never acknowledged
      }
      if (entry.t === "accepted") accepted.set(entry.id, entry.output)
      else done.add(entry.id)
    }
  }
  const fd = openSync(path, "a")
  const append = (entry: Entry) => {
    writeSync(fd, JSON.stringify(entry) + "\n")
    fsyncSync(fd)
  }
  return {
    unfinished: [...accepted].filter(([id]) => !done.has(id)).map(([id, output]) => ({ id, output })),
    seen: (id) => accepted.has(id),
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
