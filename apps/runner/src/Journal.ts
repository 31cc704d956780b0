/**
 * The delivery journal of `serve`: an append-only file in the data directory, readable by its
 * owner only (it holds the events' payloads). An accepted event is written and flushed to
 * disk before its delivery is acknowledged (group-committed: see `internal/groupCommit`); a
 * finished run is written after it. On start, the journal says which events were accepted
 * but not finished (to run now) and which were seen (to refuse as duplicates): nothing
 * acknowledged is lost or run twice.
 *
 * Only a damage a crash explains is repaired: a last line cut short mid-write (its delivery
 * was never acknowledged) is cut off. Any other damage (a broken line before the last, bytes
 * the runner did not write) stops the start: reading past it would lose an "accepted" record
 * (a redelivery would run again) or a "done" one (the event would rerun).
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { DamagedData } from "./Errors.js"
import { type AppendFile, openAppendFile } from "./internal/groupCommit.js"

/**
 * A record could not be written: its delivery must not be acknowledged.
 *
 * @since 0.2.0
 * @category errors
 */
export class JournalWriteFailed extends Data.TaggedError("JournalWriteFailed")<{ readonly message: string }> {}

/**
 * An accepted event.
 *
 * @since 0.2.0
 * @category models
 */
export interface Event {
  readonly id: string
  readonly output: unknown
}

/**
 * The journal of a data directory.
 *
 * @since 0.2.0
 * @category models
 */
export interface Journal {
  /** Events accepted before and not finished, oldest first. */
  readonly unfinished: ReadonlyArray<Event>
  readonly seen: (id: string) => boolean
  /**
   * Writes the event; succeeds once it is on disk, and only then may its delivery be
   * acknowledged. The event counts as seen at once: a duplicate that arrives meanwhile waits
   * (`durable`) for the same write.
   */
  readonly accept: (event: Event) => Effect.Effect<void, JournalWriteFailed>
  /** Succeeds once the event accepted under this id is on disk (at once for one read at start). */
  readonly durable: (id: string) => Effect.Effect<void>
  readonly finish: (id: string, status: string) => Effect.Effect<void, JournalWriteFailed>
}

/** The file's records: one JSON object a line, as `JSON.stringify` writes them. */
type Entry = { readonly t: "accepted"; readonly id: string; readonly output: unknown } | { readonly t: "done"; readonly id: string; readonly status: string }

const recordStart = "{\"t\":\""

const isEntry = (value: unknown): value is Entry => {
  if (typeof value !== "object" || value === null || typeof (value as { id?: unknown }).id !== "string") return false
  const entry = value as Record<string, unknown>
  return entry["t"] === "accepted" || (entry["t"] === "done" && typeof entry["status"] === "string")
}

/** The records of the journal's text, and where its whole lines end; or the first damaged line. */
const read = (text: string): { readonly entries: ReadonlyArray<Entry>; readonly end: number } | { readonly damaged: number } => {
  const end = text.lastIndexOf("\n") + 1
  const tail = text.slice(end)
  // A torn last line is the start of a record the runner wrote, nothing else.
  if (tail !== "" && !(tail.startsWith(recordStart) || recordStart.startsWith(tail))) return { damaged: text.slice(0, end).split("\n").length }
  const lines = text.slice(0, end).split("\n").slice(0, -1)
  const entries: Array<Entry> = []
  for (let i = 0; i < lines.length; i++) {
    let entry: unknown
    try {
      entry = JSON.parse(lines[i]!)
    } catch {
      return { damaged: i + 1 }
    }
    if (!isEntry(entry)) return { damaged: i + 1 }
    entries.push(entry)
  }
  return { entries, end }
}

/**
 * Opens the journal of a data directory (which must exist), reading what it holds; closed with
 * the scope, after what is pending is written.
 *
 * @since 0.2.0
 * @category constructors
 */
export const open = (dataDir: string): Effect.Effect<Journal, DamagedData, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const file = (yield* Path.Path).join(dataDir, "journal.ndjson")
    const unreadable = (error: { readonly message: string }) => new DamagedData({ file, message: `${file} cannot be read: ${error.message}` })
    const accepted = new Map<string, unknown>()
    const done = new Set<string>()
    if (yield* Effect.mapError(fs.exists(file), unreadable)) {
      const bytes = yield* Effect.mapError(fs.readFile(file), unreadable)
      const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
      const records = read(text)
      if ("damaged" in records) {
        return yield* new DamagedData({
          file,
          message: `${file} is damaged at line ${records.damaged}: it is not a record x-runner wrote, and a crash does not explain it. ` +
            `Reading past it could run an event twice or lose one, so serve does not start. Move the file aside ` +
            `(e.g. mv ${file} ${file}.damaged) to start with an empty journal, once you know which of its events ran.`
        })
      }
      // A last line cut short by a crash was never acknowledged: cut it off, so the next record
      // starts on a line of its own.
      const whole = Buffer.byteLength(text.slice(0, records.end))
      if (whole < bytes.length) yield* Effect.mapError(fs.truncate(file, whole), unreadable)
      for (const entry of records.entries) {
        if (entry.t === "accepted") accepted.set(entry.id, entry.output)
        else done.add(entry.id)
      }
    }
    const log = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => openAppendFile(file, 0o600), catch: (error) => unreadable(error as Error) }),
      (log) => Effect.promise(() => log.close())
    )
    return make(log, accepted, done)
  })

const make = (log: AppendFile, accepted: Map<string, unknown>, done: Set<string>): Journal => {
  /** The write under way of each accepted event not yet on disk. */
  const writing = new Map<string, Promise<void>>()
  const append = (entry: Entry) => log.append(Buffer.from(JSON.stringify(entry) + "\n"))
  const failed = (error: unknown) => new JournalWriteFailed({ message: (error as Error).message })
  return {
    unfinished: [...accepted].filter(([id]) => !done.has(id)).map(([id, output]) => ({ id, output })),
    seen: (id) => accepted.has(id) || done.has(id),
    accept: ({ id, output }) =>
      Effect.tryPromise({
        try: () => {
          accepted.set(id, output)
          const written = append({ t: "accepted", id, output }).finally(() => writing.delete(id))
          // A failed write leaves the event unseen: its delivery was not acknowledged, so the
          // provider sends it again.
          written.catch(() => accepted.delete(id))
          writing.set(id, written)
          return written
        },
        catch: failed
      }),
    durable: (id) => Effect.promise(() => (writing.get(id) ?? Promise.resolve()).catch(() => undefined)),
    finish: (id, status) =>
      Effect.tryPromise({
        try: () => {
          done.add(id)
          return append({ t: "done", id, status })
        },
        catch: failed
      })
  }
}
