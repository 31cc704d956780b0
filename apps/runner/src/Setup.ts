/**
 * What the commands share before they run anything: the workflow, read and checked once, and
 * the connections (the sandbox's, or the file's and the environment's), checked for the
 * components the workflow uses.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type { Component } from "@x/core"
import * as Effect from "effect/Effect"
import { createServer } from "node:net"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { Components } from "./Components.js"
import * as ConnectionValues from "./ConnectionValues.js"
import { type ConnectionProblem, InvalidArguments, InvalidWorkflow } from "./Errors.js"
import type * as Engine from "./Engine.js"
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
    const { entries } = yield* Components
    const started = source.sandbox
      // The simulators are loaded only for the sandbox (a chunk of their own in the bundle).
      ? yield* Effect.flatMap(Effect.promise(() => import("./Sandbox.js")), (Sandbox) =>
        Sandbox.start(entries, { rateLimits: !source.withoutRateLimits }))
      : { connections: yield* ConnectionValues.load(entries.map((entry) => entry.component), source.file, process.env), notes: [] }
    yield* ConnectionValues.check(started.connections, used)
    // Unpaced only against simulators: the sandbox's, or ones on this machine (a test's).
    const remote = source.sandbox ? [] : used.filter((component) => !isLoopback(ConnectionValues.baseUrlOf(started.connections, component)))
    if (source.withoutRateLimits && remote.length > 0) {
      return yield* new InvalidArguments({
        message: `--without-rate-limits needs --sandbox or simulators on this machine: ${remote.map((c) => c.name).join(", ")} ` +
          `${remote.length === 1 ? "is a real provider, whose" : "are real providers, whose"} rate limits are its own`
      })
    }
    return started
  })

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
    const nameOf = (file: string) => path.basename(file).replace(/\.json$/i, "")
    if (info.type !== "Directory") return [{ name: nameOf(given), path: given }]
    const entries = (yield* Effect.mapError(fs.readDirectory(given), unreadable)).filter((entry) => /\.json$/i.test(entry)).sort()
    if (entries.length === 0) return yield* new InvalidArguments({ message: `${given} holds no workflow file (*.json)` })
    return entries.map((entry) => ({ name: nameOf(entry), path: path.join(given, entry) }))
  })

const freePort = (host: string) =>
  Effect.async<number, InvalidArguments>((resume) => {
    const server = createServer()
    server.once("error", (error) => resume(Effect.fail(new InvalidArguments({ message: `no free port on ${host}: ${error.message}` }))))
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number }
      server.close(() => resume(Effect.succeed(port)))
    })
  })

/**
 * How the other runners of a cluster reach this one: `--runner-address host:port`, by default
 * 127.0.0.1 on a free port (runners on one machine).
 *
 * @since 0.3.0
 * @category constructors
 */
export const runnerAddress = (given: string | undefined): Effect.Effect<Engine.ClusterOptions, InvalidArguments> =>
  Effect.gen(function*() {
    const shardLockExpiration = "5 seconds"
    if (given === undefined) return { host: "127.0.0.1", port: yield* freePort("127.0.0.1"), shardLockExpiration }
    const match = /^(.+):(\d{1,5})$/.exec(given)
    const port = Number(match?.[2])
    if (match === null || !(port > 0 && port < 65536)) {
      return yield* new InvalidArguments({ message: `--runner-address ${given}: not host:port (e.g. 10.0.0.5:34431)` })
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ""), port, shardLockExpiration }
  })

/** A base URL on this machine (127.0.0.1, ::1 or localhost): a simulator, not a provider. */
const isLoopback = (baseUrl: string): boolean => {
  try {
    return ["127.0.0.1", "[::1]", "localhost"].includes(new URL(baseUrl).hostname)
  } catch {
    return false
  }
}
