/**
 * The data directory of `serve` (readable by its owner only) and the enabled
 * trigger's state in it (e.g. the webhook's id, in `trigger.json`), so that the next start
 * can remove a webhook a crash left behind before it registers a new one. A state file that
 * cannot be read stops the start: ignoring it would leave that webhook at the provider.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { DamagedData } from "./Errors.js"
import * as JsonText from "./JsonText.js"
import * as PrivateFile from "./internal/privateFile.js"

/**
 * Creates the data directory (mode 0700), or makes an existing one 0700: it holds payloads.
 * One that others may read and that belongs to another user is refused (not ours to change).
 *
 * @since 0.2.0
 * @category constructors
 */
export const makeDataDir = (dataDir: string): Effect.Effect<void, DamagedData, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const problem = (message: string) => new DamagedData({ file: dataDir, message })
    const cannot = (error: { readonly message: string }) => problem(`the data directory ${dataDir} cannot be used: ${error.message}`)
    if (!(yield* Effect.mapError(fs.exists(dataDir), cannot))) {
      return yield* Effect.mapError(fs.makeDirectory(dataDir, { recursive: true, mode: 0o700 }), (error) =>
        problem(`the data directory ${dataDir} cannot be created: ${error.message}`))
    }
    const info = yield* Effect.mapError(fs.stat(dataDir), cannot)
    if (info.type !== "Directory") return yield* problem(`the data directory ${dataDir} is not a directory`)
    if ((info.mode & 0o077) === 0) return
    const owner = Option.getOrUndefined(info.uid)
    if (owner !== undefined && owner !== process.getuid?.()) {
      return yield* problem(
        `the data directory ${dataDir} can be read by other users (mode ${(info.mode & 0o777).toString(8)}) and belongs to ` +
          `another user: make it 0700 (chmod 700 ${dataDir}) or choose another with --data-dir`
      )
    }
    yield* Effect.mapError(fs.chmod(dataDir, 0o700), cannot)
  })

const fileOf = (dataDir: string) => Effect.map(Path.Path, (path) => path.join(dataDir, "trigger.json"))

/**
 * The state a previous run left, if any.
 *
 * @since 0.2.0
 * @category constructors
 */
export const read = (dataDir: string): Effect.Effect<Option.Option<unknown>, DamagedData, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const file = yield* fileOf(dataDir)
    const damaged = (reason: string) =>
      new DamagedData({
        file,
        message: `${file} ${reason}. It holds the state of a trigger a previous run enabled (e.g. its webhook), which serve ` +
          `removes before it enables a new one; unread, that webhook would stay. Remove the webhook at the provider, then ` +
          `delete the file (or restore it) and start again.`
      })
    if (!(yield* Effect.mapError(fs.exists(file), (error) => damaged(`cannot be read (${error.message})`)))) return Option.none()
    const text = yield* Effect.mapError(fs.readFileString(file), (error) => damaged(`cannot be read (${error.message})`))
    const parsed = JsonText.parse(text)
    return Either.isLeft(parsed) ? yield* damaged(`is damaged (${parsed.left.message})`) : Option.some(parsed.right)
  })

/**
 * Stores the state (mode 0600): written to a new file, synced, then renamed over the old one.
 *
 * @since 0.2.0
 * @category utils
 */
export const write = (dataDir: string, state: unknown): Effect.Effect<void, DamagedData, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const file = yield* fileOf(dataDir)
    yield* PrivateFile.write(file, JSON.stringify(state))
  }).pipe(Effect.mapError((error) => new DamagedData({ file: dataDir, message: `the trigger's state cannot be stored in ${dataDir}: ${error.message}` })))

/**
 * Removes the stored state.
 *
 * @since 0.2.0
 * @category utils
 */
export const clear = (dataDir: string): Effect.Effect<void, never, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(fileOf(dataDir), (file) => Effect.flatMap(FileSystem.FileSystem, (fs) => Effect.ignore(fs.remove(file, { force: true }))))

// --- a polling trigger's cursor ------------------------------------------------------------

/**
 * What `cursor.json` holds: the cursor of the last poll whose events are in the journal, with
 * the trigger it belongs to (a cursor of another board, say, would skip its events).
 *
 * @since 0.2.0
 * @category models
 */
export interface StoredCursor {
  readonly type: string
  readonly parameters: unknown
  readonly cursor: unknown
}

const cursorFileOf = (dataDir: string) => Effect.map(Path.Path, (path) => path.join(dataDir, "cursor.json"))

const sameTrigger = (stored: StoredCursor, type: string, parameters: unknown) =>
  stored.type === type && JSON.stringify(stored.parameters) === JSON.stringify(parameters)

/**
 * The cursor a previous run stored for this trigger: `none` when there is none, or it belongs
 * to another trigger (then `replaced` says so: the next poll is a new baseline). A file that
 * cannot be read stops the start: a new baseline would skip what happened meanwhile.
 *
 * @since 0.2.0
 * @category constructors
 */
export const readCursor = (
  dataDir: string,
  type: string,
  parameters: unknown
): Effect.Effect<{ readonly cursor: Option.Option<unknown>; readonly replaced: boolean }, DamagedData, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const file = yield* cursorFileOf(dataDir)
    const damaged = (reason: string) =>
      new DamagedData({
        file,
        message: `${file} ${reason}. It holds where the polling trigger stopped; without it, serve would start from a new ` +
          `baseline and skip what happened since. Restore it, or delete it to start from a new baseline.`
      })
    if (!(yield* Effect.mapError(fs.exists(file), (error) => damaged(`cannot be read (${error.message})`)))) {
      return { cursor: Option.none(), replaced: false }
    }
    const text = yield* Effect.mapError(fs.readFileString(file), (error) => damaged(`cannot be read (${error.message})`))
    const parsed = JsonText.parse(text)
    if (Either.isLeft(parsed)) return yield* damaged(`is damaged (${parsed.left.message})`)
    const stored = parsed.right as Partial<StoredCursor> | null
    if (typeof stored !== "object" || stored === null || typeof stored.type !== "string" || !("cursor" in stored)) {
      return yield* damaged("is not a cursor x-runner wrote")
    }
    return sameTrigger(stored as StoredCursor, type, parameters)
      ? { cursor: Option.some(stored.cursor), replaced: false }
      : { cursor: Option.none(), replaced: true }
  })

/**
 * Stores the cursor (mode 0600; written to a new file, synced, renamed over the old one), once
 * the events of its poll are in the journal.
 *
 * @since 0.2.0
 * @category utils
 */
export const writeCursor = (
  dataDir: string,
  stored: StoredCursor
): Effect.Effect<void, DamagedData, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const file = yield* cursorFileOf(dataDir)
    yield* PrivateFile.write(file, JSON.stringify(stored))
  }).pipe(Effect.mapError((error) => new DamagedData({ file: dataDir, message: `the trigger's cursor cannot be stored in ${dataDir}: ${error.message}` })))
