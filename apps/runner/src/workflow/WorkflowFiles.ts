/**
 * Workflow files as the commands read them: one file read and checked, with the inputs given on
 * the command line, or the files `serve` serves (the one given, or every `*.json` of a directory).
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { Components } from "../components/Components.js"
import { InvalidArguments, InvalidWorkflow } from "../Errors.js"
import * as Workflow from "./Workflow.js"

/**
 * Reads and checks a workflow file, with the inputs given on the command line, and the
 * workflows it calls (paths relative to it).
 *
 * @since 0.2.0
 * @category constructors
 */
export const loadWorkflow = (
  file: string,
  given: ReadonlyMap<string, unknown>
): Effect.Effect<Workflow.Workflow, InvalidArguments | InvalidWorkflow, Components | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { executor } = yield* Components
    const text = yield* Effect.mapError(fs.readFileString(file), () => new InvalidArguments({ message: `the workflow ${file} cannot be read` }))
    // The workflows its tasks call are read as the check meets them (the check is synchronous).
    const source: Workflow.Source = { file: NodePath.resolve(file), read: readCalled }
    return yield* Either.mapLeft(Workflow.parse(text, given, executor, source), (issues) => new InvalidWorkflow({ file, issues }))
  })

/** A called workflow's text, or why it cannot be read. */
const readCalled = (file: string): Either.Either<string, string> => {
  try {
    return Either.right(readFileSync(file, "utf8"))
  } catch (error) {
    return Either.left((error as { code?: string }).code === "ENOENT" ? "no such file" : "cannot be read")
  }
}
/**
 * A workflow file to serve, and its name (the file's, without `.json`).
 *
 * @since 0.3.0
 * @category models
 */
export interface WorkflowFile {
  readonly name: string
  readonly path: string
}

/**
 * A workflow's name: its file's name without `.json`.
 *
 * @since 0.10.0
 * @category utils
 */
export const workflowName = (path: Path.Path, file: string): string => path.basename(file).replace(/\.json$/i, "")

/**
 * The workflow files `serve` serves: the one given, or every `*.json` of the directory given.
 *
 * @since 0.3.0
 * @category constructors
 */
export const workflowFiles = (given: string): Effect.Effect<ReadonlyArray<WorkflowFile>, InvalidArguments, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const unreadable = () => new InvalidArguments({ message: `the workflow ${given} cannot be read` })
    const info = yield* Effect.mapError(fs.stat(given), unreadable)
    const nameOf = (file: string) => workflowName(path, file)
    if (info.type !== "Directory") return [{ name: nameOf(given), path: given }]
    const entries = (yield* Effect.mapError(fs.readDirectory(given), unreadable)).filter((entry) => /\.json$/i.test(entry)).sort()
    if (entries.length === 0) return yield* new InvalidArguments({ message: `${given} holds no workflow file (*.json)` })
    return entries.map((entry) => ({ name: nameOf(entry), path: path.join(given, entry) }))
  })
