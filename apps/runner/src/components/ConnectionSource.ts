/**
 * Where the connections of a command come from: the sandbox's simulators (some made to fail on
 * purpose), or the connections file and the environment; checked for the components the
 * workflow uses.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { Component } from "@x/core"
import { Faults } from "@x/core/testing"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { Components } from "./Components.js"
import * as ConnectionValues from "./ConnectionValues.js"
import { type ConnectionProblem, InvalidArguments } from "../Errors.js"
import { Output } from "../Output.js"

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
  /** Requests the sandbox's simulators fail on purpose (`--sandbox-fault`); only with `sandbox`. */
  readonly sandboxFaults?: ReadonlyArray<SandboxFault> | undefined
}

/**
 * A fault of one component's simulator in the sandbox (`--sandbox-fault`).
 *
 * @since 0.2.0
 * @category models
 */
export interface SandboxFault {
  readonly component: string
  readonly fault: Faults.Fault
}

/**
 * The connections, checked for these components' defaults and these uses: the sandbox's (its
 * simulators run until the scope closes, and `notes` says where they are and which account each
 * named connection is; when it closes, a line on stderr says how often each fault fired), or
 * the file's and the environment's.
 *
 * @since 0.2.0
 * @category constructors
 */
export const connect = (
  source: ConnectionSource,
  used: ReadonlyArray<Component.Component | ConnectionValues.Use>
): Effect.Effect<
  {
    readonly connections: ConnectionValues.ConnectionValues
    readonly notes: ReadonlyArray<string>
    /** The sandbox's: which account each named connection is. */
    readonly named: ReadonlyArray<string>
  },
  InvalidArguments | ConnectionProblem,
  Components | FileSystem.FileSystem | Output | Scope.Scope
> =>
  Effect.gen(function*() {
    const { entries } = yield* Components
    const faults = yield* faultsByComponent(source, entries.map((entry) => entry.component.name))
    const started = source.sandbox
      // The simulators are loaded only for the sandbox (a chunk of their own in the bundle).
      ? yield* Effect.flatMap(Effect.promise(() => import("./Sandbox.js")), (Sandbox) =>
        Effect.tap(Sandbox.start(entries, { rateLimits: !source.withoutRateLimits, faults, named: ConnectionValues.usesOf(used) }), (sandbox) =>
          faults.size === 0 ? Effect.void : Effect.addFinalizer(() =>
            Effect.flatMap(Output, (output) =>
              Effect.forEach(sandbox.faultsFired(), ({ component, fault, fired }) =>
                output.err(`sandbox: ${component} ${Faults.format(fault)} fired ${fired} time${fired === 1 ? "" : "s"}`), { discard: true })))))
      : { connections: yield* ConnectionValues.load(entries.map((entry) => entry.component), source.file, process.env), notes: [], named: [] }
    yield* ConnectionValues.check(started.connections, used)
    // Unpaced only against simulators: the sandbox's, or ones on this machine (a test's).
    const remote = source.sandbox ? [] : [
      ...new Set(
        ConnectionValues.usesOf(used)
          .filter(({ component, connection }) => !isLoopback(ConnectionValues.baseUrlOf(started.connections, component, connection)))
          .map(({ component, connection }) => connection ?? component.name)
      )
    ]
    if (source.withoutRateLimits && remote.length > 0) {
      return yield* new InvalidArguments({
        message: `--without-rate-limits needs --sandbox or simulators on this machine: ${remote.join(", ")} ` +
          `${remote.length === 1 ? "is a real provider, whose" : "are real providers, whose"} rate limits are its own`
      })
    }
    return started
  })

/** `--sandbox-fault`s by component: only with `--sandbox`, and only of components the sandbox has. */
const faultsByComponent = (source: ConnectionSource, names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const given = source.sandboxFaults ?? []
    if (given.length > 0 && !source.sandbox) {
      return yield* new InvalidArguments({ message: "--sandbox-fault needs --sandbox: it makes the sandbox's simulators fail, not a real provider" })
    }
    const faults = new Map<string, Array<Faults.Fault>>()
    for (const { component, fault } of given) {
      if (!names.includes(component)) {
        return yield* new InvalidArguments({
          message: `--sandbox-fault "${component} ${Faults.format(fault)}": the sandbox has no component ${component} (it has ${names.join(", ")})`
        })
      }
      faults.set(component, [...faults.get(component) ?? [], fault])
    }
    return faults
  })

/** A base URL on this machine (127.0.0.1, ::1 or localhost): a simulator, not a provider. */
const isLoopback = (baseUrl: string): boolean => {
  try {
    return ["127.0.0.1", "[::1]", "localhost"].includes(new URL(baseUrl).hostname)
  } catch {
    return false
  }
}
