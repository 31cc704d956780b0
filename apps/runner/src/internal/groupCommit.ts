/**
 * An append-only file with group commit: the records that arrive while a flush is under way
 * are written and flushed together by the next one (one `fdatasync` for the batch, off the
 * event loop), so the cost of a flush is shared by every record that waits on it.
 *
 * Node's `fs` is used here, not `@effect/platform`'s FileSystem: FileSystem has `sync`
 * (fsync) but no `fdatasync`, and the batching is the point of this module.
 *
 * @internal
 */
import { close, fchmod, fdatasync, fstat, ftruncate, open, write } from "node:fs"
import { promisify } from "node:util"

export interface AppendFile {
  /** Resolves once the bytes are on disk; rejects (and the file is cut back) when they could not be. */
  readonly append: (bytes: Uint8Array) => Promise<void>
  /** Writes what is pending, then closes the file. */
  readonly close: () => Promise<void>
}

interface Pending {
  readonly bytes: Uint8Array
  readonly written: () => void
  readonly failed: (error: Error) => void
}

/** Opens (creating it with `mode`) a file to append to; an existing file gets `mode` too. */
export const openAppendFile = async (path: string, mode: number): Promise<AppendFile> => {
  const fd = await promisify(open)(path, "a", mode)
  await promisify(fchmod)(fd, mode)
  // Where the records on disk end: a batch that fails part-way is cut back to it, so that no
  // later record lands on a broken line.
  let size = (await promisify(fstat)(fd)).size
  let pending: Array<Pending> = []
  let flushing: Promise<void> | undefined

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
  return {
    append: (bytes) =>
      new Promise<void>((written, failed) => {
        pending.push({ bytes, written, failed })
        void flush()
      }),
    close: async () => {
      while (flushing !== undefined || pending.length > 0) await flush()
      await promisify(close)(fd)
    }
  }
}
