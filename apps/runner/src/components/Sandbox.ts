/**
 * Sandbox mode: every catalog entry's simulator started (seeded, on a free loopback port),
 * and the connections pointed at them. No account or credential needed. A simulator can be
 * made to fail on purpose (`--sandbox-fault`), and says how often it did.
 *
 * @since 0.2.0
 */
import type { Faults } from "@x/core/testing"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as Catalog from "./Catalog.js"
import type { ConnectionValues } from "./ConnectionValues.js"

/**
 * The running sandbox: the connection of each component, and one line about each simulator.
 *
 * @since 0.2.0
 * @category models
 */
export interface Sandbox {
  readonly connections: ConnectionValues
  readonly notes: ReadonlyArray<string>
  /** Each fault given, with its component's name and how many times it fired so far. */
  readonly faultsFired: () => ReadonlyArray<Faults.Fired & { readonly component: string }>
}

/**
 * How the sandbox starts: its simulators' rate limits on or off, and the faults of each
 * component's simulator, by the component's name.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  readonly rateLimits: boolean
  readonly faults: ReadonlyMap<string, ReadonlyArray<Faults.Fault>>
}

/**
 * Starts the simulators of these entries, together; they stop with the scope.
 *
 * @since 0.2.0
 * @category constructors
 */
export const start = (
  entries: ReadonlyArray<Catalog.Entry>,
  options: Options
): Effect.Effect<Sandbox, never, Scope.Scope> =>
  Effect.map(
    Effect.forEach(entries, (entry) =>
      Effect.map(
        entry.simulate({ rateLimits: options.rateLimits, faults: options.faults.get(entry.component.name) ?? [] }),
        (simulated) => [entry.component.name, simulated] as const
      ), { concurrency: "unbounded" }),
    (started) => ({
      connections: new Map(started.map(([name, simulated]) => [name, simulated.connection])),
      notes: started.map(([, simulated]) => simulated.note),
      faultsFired: () => started.flatMap(([component, simulated]) => simulated.faultsFired().map((fired) => ({ component, ...fired })))
    })
  )
