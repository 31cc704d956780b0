/**
 * Sandbox mode: every catalog entry's simulator started (seeded, on a free loopback port),
 * and the connections pointed at them; each named connection a workflow uses is another
 * account of its simulator where it has one (Trello's other seeded members). No account or
 * credential needed. A simulator can be made to fail on purpose (`--sandbox-fault`), and says
 * how often it did.
 *
 * @since 0.2.0
 */
import type { Faults } from "@x/core/testing"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as Catalog from "./Catalog.js"
import type * as ConnectionValues from "./ConnectionValues.js"

/**
 * The running sandbox: the connection of each component, and one line about each simulator.
 *
 * @since 0.2.0
 * @category models
 */
export interface Sandbox {
  readonly connections: ConnectionValues.ConnectionValues
  readonly notes: ReadonlyArray<string>
  /** One line per named connection: which account it is. */
  readonly named: ReadonlyArray<string>
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
  /**
   * The connections used (a named one: its component's other account at the simulator, one each
   * in the order of their names, where the simulator has one; else its default's values).
   */
  readonly named?: ReadonlyArray<ConnectionValues.Use> | undefined
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
    Effect.forEach(entries.flatMap((entry) => entry.simulate === undefined ? [] : [{ ...entry, simulate: entry.simulate }]), (entry) =>
      Effect.map(
        entry.simulate({ rateLimits: options.rateLimits, faults: options.faults.get(entry.component.name) ?? [] }),
        (simulated) => [entry.component.name, simulated] as const
      ), { concurrency: "unbounded" }),
    (started) => {
      const connections = new Map(started.map(([name, simulated]) => [name, simulated.connection]))
      const notes = started.map(([, simulated]) => simulated.note)
      const accounts: Array<string> = []
      // Each name once, with the component of its first use (a use of it with another component is refused by the check).
      const named = new Map<string, string>()
      for (const { component, connection } of options.named ?? []) {
        if (connection !== undefined && connection !== component.name && !named.has(connection)) named.set(connection, component.name)
      }
      for (const [component, simulated] of started) {
        const names = [...named].filter(([, of]) => of === component).map(([name]) => name).sort()
        names.forEach((name, i) => {
          const account = simulated.accounts?.[i]
          connections.set(name, { component, ...(account?.connection ?? simulated.connection) })
          accounts.push(`connection "${name}" is ${account === undefined ? `${component}'s default account (the simulator has no other)` : account.note}`)
        })
      }
      return {
        connections,
        notes: [...notes, ...accounts],
        named: accounts,
        faultsFired: () => started.flatMap(([component, simulated]) => simulated.faultsFired().map((fired) => ({ component, ...fired })))
      }
    }
  )
