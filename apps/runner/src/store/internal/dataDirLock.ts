/**
 * One runner per data directory, held by the operating system: `runner.lock` in the directory
 * is a SQLite file on which the runner keeps an exclusive transaction open for as long as it
 * serves. SQLite's lock is a POSIX lock of the file, which the kernel drops when the process
 * ends, however it ends (a `kill -9` too): no clock, no heartbeat, no staleness to guess. A
 * second runner's `BEGIN EXCLUSIVE` is refused at once (`SQLITE_BUSY`), and it reads the
 * holder's process id from `runner.pid`, written by the holder once it holds the lock (only
 * to name it: the lock alone decides).
 *
 * @internal
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as PrivateFile from "../../internal/privateFile.js"

/** Another process holds the data directory; its process id when it wrote one. */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{ readonly dataDir: string; readonly pid: Option.Option<number> }> {}

/** The lock could not be taken for a reason of its own (a link where its files belong, a file SQLite cannot open). */
export class DataDirLockFailed extends Data.TaggedError("DataDirLockFailed")<{ readonly file: string; readonly message: string }> {}

const sqliteCode = (error: unknown): unknown => {
  const cause = (error as { readonly cause?: unknown } | undefined)?.cause ?? error
  return (cause as { readonly code?: unknown } | undefined)?.code
}

/** The holder's process id as it wrote it, if it did (a missing or unreadable file names none). */
const holderPid = (file: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.map((text) => Option.filter(Option.some(Number(text.trim())), (pid) => Number.isSafeInteger(pid) && pid > 0)),
    Effect.orElseSucceed(() => Option.none<number>())
  )

/**
 * Holds the data directory (an existing one) for the scope: released when the scope closes or
 * the process ends. Fails with `DataDirInUse` while another process holds it.
 */
export const hold = (dataDir: string): Effect.Effect<void, DataDirInUse | DataDirLockFailed, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    const fs = yield* FileSystem.FileSystem
    const file = path.join(dataDir, "runner.lock")
    const pidFile = path.join(dataDir, "runner.pid")
    // Created 0600, as the runs' files are; SQLite writes through no link of ours.
    yield* Effect.forEach([`${file}-journal`, pidFile], PrivateFile.notALink, { discard: true }).pipe(
      Effect.zipRight(PrivateFile.ensure(file)),
      Effect.mapError((problem) =>
        new DataDirLockFailed({
          file: problem.file,
          message: problem.link
            ? `${problem.file} is a symbolic link: x-runner keeps its lock in files of its own and follows no link there (nothing was changed). ` +
              `Remove the link, or choose another --data-dir`
            : problem.message
        })
      )
    )
    const failed = (cause: unknown) =>
      new DataDirLockFailed({
        file,
        message: `${file} cannot be locked: ${String((cause as { cause?: unknown })?.cause ?? cause)}${
          sqliteCode(cause) === "SQLITE_NOTADB" || sqliteCode(cause) === "SQLITE_CORRUPT"
            ? ". It holds nothing but the lock: once no x-runner serves from this directory, remove it"
            : ""
        }`
      })
    const context = yield* Layer.build(SqliteClient.layer({ filename: file, disableWAL: true })).pipe(
      Effect.catchAllCause((cause) => Effect.fail(failed(Cause.squash(cause))))
    )
    const sql = Context.get(context, SqlClient.SqlClient)
    // Refused at once rather than after better-sqlite3's default wait of 5 seconds.
    yield* Effect.mapError(sql.unsafe("PRAGMA busy_timeout = 0"), failed)
    const begun = yield* Effect.either(sql.unsafe("BEGIN EXCLUSIVE"))
    if (begun._tag === "Left") {
      if (sqliteCode(begun.left) !== "SQLITE_BUSY") return yield* failed(begun.left)
      return yield* new DataDirInUse({ dataDir, pid: yield* holderPid(pidFile) })
    }
    // Removed before the lock is released (the scope closes in reverse), so that it never
    // removes the next holder's.
    yield* Effect.addFinalizer(() => Effect.ignore(fs.remove(pidFile, { force: true })))
    yield* Effect.mapError(PrivateFile.write(pidFile, `${process.pid}\n`), (error) => new DataDirLockFailed({ file: pidFile, message: error.message }))
  })
