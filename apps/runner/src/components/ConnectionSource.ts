/**
 * Where the connections of a command come from: the sandbox's simulators, or the connections
 * file and the environment; checked for the components the workflow uses.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { Component } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { Components } from "./Components.js"
import * as ConnectionValues from "./ConnectionValues.js"
import { type ConnectionProblem, InvalidArguments } from "../Errors.js"

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

/** A base URL on this machine (127.0.0.1, ::1 or localhost): a simulator, not a provider. */
const isLoopback = (baseUrl: string): boolean => {
  try {
    return ["127.0.0.1", "[::1]", "localhost"].includes(new URL(baseUrl).hostname)
  } catch {
    return false
  }
}
