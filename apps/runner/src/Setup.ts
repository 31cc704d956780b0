/**
 * What the commands share before they run anything: the workflow, read and checked once, and
 * the connections (the sandbox's, or the file's and the environment's), checked for the
 * components the workflow uses.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { Component } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { Components } from "./Components.js"
import * as ConnectionValues from "./ConnectionValues.js"
import { type ConnectionProblem, InvalidArguments, InvalidWorkflow } from "./Errors.js"
import * as Workflow from "./Workflow.js"

/**
 * Reads and checks a workflow file, with the inputs given on the command line.
 *
 * @since 0.2.0
 * @category constructors
 */
export const loadWorkflow = (
  file: string,
  given: ReadonlyMap<string, string>
): Effect.Effect<Workflow.Workflow, InvalidArguments | InvalidWorkflow, Components | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { executor } = yield* Components
    const text = yield* Effect.mapError(fs.readFileString(file), () => new InvalidArguments({ message: `the workflow ${file} cannot be read` }))
    return yield* Either.mapLeft(Workflow.parse(text, given, executor), (issues) => new InvalidWorkflow({ file, issues }))
  })

/**
 * Where the connections come from.
 *
 * @since 0.2.0
 * @category models
 */
export interface ConnectionSource {
  readonly sandbox: boolean
  readonly file: Option.Option<string>
  readonly withoutRateLimits: boolean
}

/**
 * The connections, checked for these components: the sandbox's (its simulators run until the
 * scope closes, and `notes` says where they are), or the file's and the environment's.
 *
 * @since 0.2.0
 * @category constructors
 */
export const connect = (
  source: ConnectionSource,
  used: ReadonlyArray<Component.Component>
): Effect.Effect<
  { readonly connections: ConnectionValues.ConnectionValues; readonly notes: ReadonlyArray<string> },
  InvalidArguments | ConnectionProblem,
  Components | FileSystem.FileSystem | Scope.Scope
> =>
  Effect.gen(function*() {
    if (source.withoutRateLimits && !source.sandbox) {
      return yield* new InvalidArguments({ message: "--without-rate-limits needs --sandbox: a real provider's rate limits are its own" })
    }
    const { entries } = yield* Components
    const started = source.sandbox
      // The simulators are loaded only for the sandbox (a chunk of their own in the bundle).
      ? yield* Effect.flatMap(Effect.promise(() => import("./Sandbox.js")), (Sandbox) =>
        Sandbox.start(entries, { rateLimits: !source.withoutRateLimits }))
      : { connections: yield* ConnectionValues.load(entries.map((entry) => entry.component), source.file, process.env), notes: [] }
    yield* ConnectionValues.check(started.connections, used)
    return started
  })
