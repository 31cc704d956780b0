/**
 * The components a command runs with, as a service: the catalog's entries, their registry
 * and the executor of their steps. Built once per command by its layer: no module-level
 * registry or executor.
 *
 * @since 0.2.0
 */
import { Component, Executor, Registry } from "@x/core"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Catalog from "./Catalog.js"

/**
 * The components, their registry and an executor.
 *
 * @since 0.2.0
 * @category models
 */
export interface Components {
  readonly entries: ReadonlyArray<Catalog.Entry>
  readonly registry: Registry.Registry
  readonly executor: Executor.Executor
}

/**
 * The service of the components a command runs with.
 *
 * @since 0.2.0
 * @category tags
 */
export const Components = Context.GenericTag<Components>("@x/runner/Components")

/**
 * The components of these entries. Without `rateLimits` the executor keeps to no rate limit:
 * for the sandbox's load tests, where the simulators enforce none either.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (entries: ReadonlyArray<Catalog.Entry>, options: { readonly rateLimits: boolean }): Components => {
  const registry = Registry.make(entries.map((entry) => entry.component))
  const executor = options.rateLimits
    ? Executor.make(registry)
    : Executor.make(entries.map((entry) => Component.withRateLimits(entry.component, [])))
  return { entries, registry, executor }
}

/**
 * The catalog's components.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: { readonly rateLimits: boolean } = { rateLimits: true }): Layer.Layer<Components> =>
  Layer.sync(Components, () => make(Catalog.entries, options))
