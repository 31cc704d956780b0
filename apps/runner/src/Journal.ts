/**
 * The delivery journal of `serve`: an append-only file in the data directory. An accepted
 * event is written and flushed to disk before its delivery is acknowledged; a finished run is
 * written after it. On start, the journal says which events were accepted but not finished
 * (to run now) and which were seen (to refuse as duplicates): nothing acknowledged is lost
 * or run twice.
 *
 * Writes are group-committed: the records that arrive while a flush is under way are written
 * and flushed together by the next one (one `fdatasync` for the batch, off the event loop), so
 * the cost of a flush is shared by every delivery that waits on it.
 */
import { closeSync, existsSync, fdatasync, fstatSync, ftruncate, mkdirSync, openSync, readFileSync, truncateSync, write } from "node:fs"
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
  /**
   * Writes the event; resolves once it is on disk, and only then may its delivery be
   * acknowledged. The event counts as seen at once: a duplicate that arrives meanwhile waits
   * (`durable`) for the same write.
   */
  readonly accept: (id: string, output: unknown) => Promise<void>
  /** Resolves once the event accepted under this id is on disk (at once for one read at start). */
  readonly durable: (id: string) => Promise<void>
  readonly finish: (id: string, status: string) => Promise<void>
  /** Writes what is pending, then closes the file. */
  readonly close: () => Promise<void>
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
  // Where the records on disk end: a batch that fails part-way is cut back to it, so that no
  // later record lands on a broken line (the reader would skip the line, and that record).
  let size = fstatSync(fd).size
  let pending: Array<{ readonly bytes: Buffer; readonly written: () => void; readonly failed: (error: Error) => void }> = []
  let flushing: Promise<void> | undefined
  /** The write under way of each accepted event not yet on disk. */
  const writing = new Map<string, Promise<void>>()

  const writeAll = (bytes: Buffer, from = 0): Promise<void> =>
    new Promise<number>((resolve, reject) => write(fd, bytes, from, bytes.length - from, null, (e, n) => e ? reject(e) : resolve(n)))
      .then((n) => (from + n < bytes.length ? writeAll(bytes, from + n) : undefined))
  const flush = (): Promise<void> => {
    if (flushing !== undefined || pending.length === 0) return flushing ?? Promise.resolve()
    const batch = pending
    pending = []
    const bytes = Buffer.concat(batch.map((r) => r.bytes))
    flushing = writeAll(bytes)
      .then(() => new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve()))))
      .then(
        () => {
          size += bytes.length
          batch.forEach((r) => r.written())
        },
        (error: Error) =>
          new Promise<void>((resolve) => ftruncate(fd, size, () => resolve())).then(() => batch.forEach((r) => r.failed(error)))
      )
      .finally(() => {
        flushing = undefined
        void flush()
      })
    return flushing
  }
  const append = (entry: Entry) =>
    new Promise<void>((written, failed) => {
      pending.push({ bytes: Buffer.from(JSON.stringify(entry) + "\n"), written, failed })
      void flush()
    })

  return {
    unfinished: [...accepted].filter(([id]) => !done.has(id)).map(([id, output]) => ({ id, output })),
    seen: (id) => accepted.has(id) || done.has(id),
    accept: (id, output) => {
      accepted.set(id, output)
      const written = append({ t: "accepted", id, output }).finally(() => writing.delete(id))
      // A failed write leaves the event unseen: its delivery was not acknowledged, so the
      // provider sends it again.
      written.catch(() => accepted.delete(id))
      writing.set(id, written)
      return written
    },
    durable: (id) => writing.get(id) ?? Promise.resolve(),
    finish: (id, status) => {
      done.add(id)
      return append({ t: "done", id, status })
    },
    close: async () => {
      while (flushing !== undefined || pending.length > 0) await flush()
      closeSync(fd)
    }
  }
}
