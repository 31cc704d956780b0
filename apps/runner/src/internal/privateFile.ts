/**
 * Writing a file that holds secrets or payloads: to a new file created 0600 (and made so, if
 * a stale one was left), synced, then renamed over the old one, so that it is never readable
 * by others nor seen half-written.
 *
 * @internal
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { PlatformError } from "@effect/platform/Error"
import * as Effect from "effect/Effect"

export const write = (file: string, text: string): Effect.Effect<void, PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const temporary = `${file}.${process.pid}.tmp`
    yield* Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(temporary, { flag: "w", mode: 0o600 })
      yield* fs.chmod(temporary, 0o600)
      yield* handle.writeAll(new TextEncoder().encode(text))
      yield* handle.sync
    }))
    yield* fs.rename(temporary, file)
  })
