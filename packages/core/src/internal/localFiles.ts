/**
 * Local paths under the file policy: a file to read (a `path` input) and a download's
 * destination, each resolved against the policy's files directory with symlinks resolved
 * (`realpath`), and refused, with a sentence saying why, when it ends up outside. A path is
 * first checked as written, so that a path outside is refused without being looked at.
 */
import * as Effect from "effect/Effect"
import { lstat, realpath } from "node:fs/promises"
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path"
import type * as FilePolicy from "../FilePolicy.js"

const code = (cause: unknown) => (cause as { code?: unknown }).code

const inside = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** The directory as given and as it really is; a path must be inside one as written, inside the real one once resolved. */
const rootOf = (directory: string) =>
  Effect.tryPromise({
    try: async () => ({ given: resolve(directory), real: await realpath(directory) }),
    catch: (cause) => `the files directory ${directory} cannot be used (${String(code(cause) ?? cause)})`
  })

const outside = (path: string, directory: string, resolved: boolean) =>
  `${path} is outside the files directory ${directory}${resolved ? " once its symlinks are resolved" : ""}`

/** @internal The path to open for a file to read, or why it is refused. */
export const readable = (policy: FilePolicy.Policy, path: string): Effect.Effect<string, string> => {
  const files = policy.files
  if (files === "anywhere") return Effect.succeed(path)
  if (files === "nowhere") return Effect.fail(`${path} is refused: no local file may be read here (no files directory is set)`)
  return Effect.flatMap(rootOf(files.directory), (root) => {
    const candidate = resolve(root.given, path)
    if (!inside(root.given, candidate) && !inside(root.real, candidate)) return Effect.fail(outside(path, files.directory, false))
    return Effect.flatMap(
      Effect.tryPromise({
        try: () => realpath(candidate),
        catch: (cause) => code(cause) === "ENOENT" ? `no file at ${path}` : `cannot read ${path} (${String(code(cause) ?? cause)})`
      }),
      (real) => inside(root.real, real) ? Effect.succeed(real) : Effect.fail(outside(path, files.directory, true))
    )
  })
}

/** What is at a path already: nothing, a file (or a link, replaced and never followed), or a directory. */
const taken = (path: string): Promise<"nothing" | "file" | "directory"> =>
  lstat(path).then(
    (stats) => stats.isDirectory() ? "directory" : "file",
    (cause) => code(cause) === "ENOENT" ? "nothing" : Promise.reject(cause)
  )

/**
 * @internal The path a download writes, or why it is refused: inside the files directory (its
 * directory's symlinks resolved; the file itself, if it is a link, is replaced, never written
 * through), with no `..` segment; an existing file only when `overwrite` says so.
 */
export const writable = (policy: FilePolicy.Policy, path: string, overwrite: boolean): Effect.Effect<string, string> => {
  const files = policy.files
  // Checked before any request: a directory is never replaced, a file only when asked.
  const unlessTaken = (target: string) =>
    Effect.flatMap(
      Effect.tryPromise({ try: () => taken(target), catch: (cause) => `cannot write ${path} (${String(code(cause) ?? cause)})` }),
      (what) =>
        what === "directory"
          ? Effect.fail(`${path} is a directory, not a file to write`)
          : what === "file" && !overwrite
          ? Effect.fail(`${path} already exists, and overwriting it is off`)
          : Effect.succeed(target)
    )
  if (files === "anywhere") return unlessTaken(path)
  if (files === "nowhere") return Effect.fail(`${path} is refused: no local file may be written here (no files directory is set)`)
  if (path.split(/[\\/]/).includes("..")) {
    return Effect.fail(`${path} holds a ".." segment: a download's path stays inside the files directory, and a name in it is a name, never a way out`)
  }
  return Effect.flatMap(rootOf(files.directory), (root) => {
    const candidate = resolve(root.given, path)
    const name = basename(candidate)
    if (!inside(root.given, candidate) && !inside(root.real, candidate)) return Effect.fail(outside(path, files.directory, false))
    if (candidate === root.given || candidate === root.real) return Effect.fail(`${path} is a directory, not a file to write`)
    return Effect.flatMap(
      Effect.tryPromise({
        try: () => realpath(dirname(candidate)),
        catch: (cause) => code(cause) === "ENOENT" ? `the directory of ${path} does not exist` : `cannot write ${path} (${String(code(cause) ?? cause)})`
      }),
      (parent) => inside(root.real, parent) ? unlessTaken(join(parent, name)) : Effect.fail(outside(path, files.directory, true))
    )
  })
}
