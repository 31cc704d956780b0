/**
 * The components a command runs with, as a service: the catalog's entries and the executor
 * of their steps (whose `registry` resolves step types). Built once per command by its layer:
 * no module-level registry or executor.
 *
 * @since 0.2.0
 */
import { Component, Executor } from "@x/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Catalog from "./Catalog.js"

/**
 * The components and their executor: one registry, the executor's (under
 * `--without-rate-limits` it holds the components without their limits).
 *
 * @since 0.2.0
 * @category models
 */
export interface Components {
  readonly entries: ReadonlyArray<Catalog.Entry>
  readonly executor: Executor.Executor
}

/**
 * The service of the components a command runs with.
 *
 * @since 0.2.0
 * @category tags
 */
export const Components = Context.GenericTag<Components>("x-runner/Components")

/**
 * The components of these entries. Without `rateLimits` the executor keeps to no rate limit:
 * for the sandbox's load tests, where the simulators enforce none either.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (entries: ReadonlyArray<Catalog.Entry>, options: { readonly rateLimits: boolean }): Components => {
  const components = entries.map((entry) => entry.component)
  const executor = Executor.make(options.rateLimits ? components : components.map((component) => Component.withRateLimits(component, [])))
  return { entries, executor }
}

/**
 * The catalog's components.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: { readonly rateLimits: boolean } = { rateLimits: true }): Layer.Layer<Components> =>
  // Loaded when a command first needs the components: `--version`, `--help` and the commands that
  // need none never load the three packages (a chunk of their own in the bundle).
  Layer.effect(Components, Effect.map(Effect.promise(() => import("./Catalog.js")), (Catalog) => make(Catalog.entries, options)))
