/**
 * Sandbox mode: every catalog entry's simulator started (seeded, on a free loopback port),
 * and the connections pointed at them. No account or credential needed.
 *
 * @since 0.2.0
 */
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
}

/**
 * Starts the simulators of these entries, together; they stop with the scope.
 *
 * @since 0.2.0
 * @category constructors
 */
export const start = (
  entries: ReadonlyArray<Catalog.Entry>,
  options: Catalog.SimulatorOptions
): Effect.Effect<Sandbox, never, Scope.Scope> =>
  Effect.map(
    Effect.forEach(entries, (entry) => Effect.map(entry.simulate(options), (simulated) => [entry.component.name, simulated] as const), {
      concurrency: "unbounded"
    }),
    (started) => ({
      connections: new Map(started.map(([name, simulated]) => [name, simulated.connection])),
      notes: started.map(([, simulated]) => simulated.note)
    })
  )
