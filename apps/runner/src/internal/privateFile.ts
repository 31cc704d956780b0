/**
 * Files that hold secrets or payloads: written to a new file created 0600, synced, then renamed
 * over the old one, so that it is never readable by others nor seen half-written (`write`); or
 * kept in place, created 0600 and made so (`ensure`). Neither follows a symbolic link: making a
 * link private would change the mode of whatever it points at (another file of the user's, or
 * of the system's when run as root), so a link where such a file belongs is refused.
 *
 * @internal
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { PlatformError } from "@effect/platform/Error"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { constants } from "node:fs"
import * as NodeFs from "node:fs/promises"

/** A file that cannot be made private: a symbolic link (`link`), or one the system refused. */
export class NotPrivate extends Data.TaggedError("NotPrivate")<{ readonly file: string; readonly link: boolean; readonly message: string }> {}

const refused = (file: string) => (cause: unknown): NotPrivate => {
  const code = (cause as { readonly code?: unknown } | undefined)?.code
  // O_NOFOLLOW on a link fails with ELOOP (EMLINK on FreeBSD).
  return code === "ELOOP" || code === "EMLINK"
    ? new NotPrivate({ file, link: true, message: `${file} is a symbolic link` })
    : new NotPrivate({ file, link: false, message: `${file} cannot be used: ${cause instanceof Error ? cause.message : String(cause)}` })
}

/**
 * The file created 0600 if missing, or made 0600, in place (its content kept); a symbolic link
 * is refused, its target untouched. Opened with O_NOFOLLOW and changed through that descriptor
 * (which @effect/platform's FileSystem has no flag for), so that no link put there meanwhile is
 * followed either.
 */
export const ensure = (file: string): Effect.Effect<void, NotPrivate> =>
  Effect.tryPromise({
    try: async () => {
      const handle = await NodeFs.open(file, constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600)
      try {
        await handle.chmod(0o600)
      } finally {
        await handle.close()
      }
    },
    catch: refused(file)
  })

/** Refuses the file if it is a symbolic link (one that is missing is fine): for the files another program creates beside ours. */
export const notALink = (file: string): Effect.Effect<void, NotPrivate> =>
  Effect.tryPromise({
    try: () => NodeFs.lstat(file).then((info) => info.isSymbolicLink(), (error: { readonly code?: unknown }) => {
      if (error.code === "ENOENT") return false
      throw error
    }),
    catch: refused(file)
  }).pipe(Effect.flatMap((link) => link ? Effect.fail(new NotPrivate({ file, link: true, message: `${file} is a symbolic link` })) : Effect.void))

/** The file written whole, 0600: to a new file, synced, then renamed over it (a link there is replaced, not followed). */
export const write = (file: string, text: string): Effect.Effect<void, PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const temporary = `${file}.${process.pid}.tmp`
    // A stale one (or a link put there) goes first: the new one is created, never opened through a link.
    yield* fs.remove(temporary, { force: true })
    yield* Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(temporary, { flag: "wx", mode: 0o600 })
      yield* fs.chmod(temporary, 0o600)
      yield* handle.writeAll(new TextEncoder().encode(text))
      yield* handle.sync
    }))
    yield* fs.rename(temporary, file)
  })
