/**
 * One component the runner knows, as the catalog lists it: the component, and how the sandbox
 * starts its provider's simulator (seeded, on a free loopback port) with the connection values
 * that point at it.
 *
 * @since 0.12.0
 */
import type { Component } from "@x/core"
import type { Faults } from "@x/core/testing"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

/**
 * How the sandbox starts a simulator.
 *
 * @since 0.2.0
 * @category models
 */
export interface SimulatorOptions {
  /** Whether the simulator enforces its provider's rate limits (as it does by default). */
  readonly rateLimits: boolean
  /** Requests it fails on purpose (`--sandbox-fault`), with its provider's errors. */
  readonly faults: ReadonlyArray<Faults.Fault>
}

/**
 * A running simulator: the connection values pointing at it, and one line for the user
 * (where it is, and its well-known sandbox credentials when they are useful, e.g. for curl).
 *
 * @since 0.2.0
 * @category models
 */
export interface Simulated {
  readonly connection: Readonly<Record<string, unknown>>
  readonly note: string
  /** Other accounts' connection values, for the named connections a workflow uses, with a line saying whose. */
  readonly accounts?: ReadonlyArray<{ readonly connection: Readonly<Record<string, unknown>>; readonly note: string }> | undefined
  /** Each of its faults, with how many times it fired so far. */
  readonly faultsFired: () => ReadonlyArray<Faults.Fired>
}

/**
 * One component the runner knows.
 *
 * @since 0.2.0
 * @category models
 */
export interface Entry {
  readonly component: Component.Component
  /** Starts the simulator for the sandbox; it stops with the scope. None for a component that asks no provider (`schedule`). */
  readonly simulate?: ((options: SimulatorOptions) => Effect.Effect<Simulated, never, Scope.Scope>) | undefined
}

/**
 * A simulator started by `start` and stopped by its `close` with the scope.
 *
 * @since 0.12.0
 * @category constructors
 */
export const simulator = <S extends { readonly close: () => Promise<void> }>(start: () => Promise<S>) =>
  Effect.acquireRelease(Effect.promise(start), (started) => Effect.promise(() => started.close()))
