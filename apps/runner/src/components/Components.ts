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
 * The catalog's components, loaded when a command first needs them: `--version`, `--help` and
 * the commands that need none never load the packages. With `only`, those components alone
 * (each package a chunk of its own in the bundle): a command that names one type loads that
 * package only.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (
  options: { readonly rateLimits: boolean; readonly only?: ReadonlyArray<string> | undefined } = { rateLimits: true }
): Layer.Layer<Components> =>
  Layer.effect(
    Components,
    Effect.map(
      Effect.promise(() => import("./catalog/index.js")).pipe(
        Effect.flatMap((Index) => {
          const only = options.only
          return only !== undefined && only.length > 0 && only.every(Index.isName)
            ? Effect.promise(() => Index.load(only.filter(Index.isName)))
            : Effect.map(Effect.promise(() => import("./Catalog.js")), (Catalog) => Catalog.entries)
        })
      ),
      (entries) => make(entries, options)
    )
  )

/**
 * The components a command about one step type or component needs (`boardtool/v1/createCard`,
 * `boardtool/v1`, `boardtool`): that component alone when the catalog has one of that name, else
 * all (so that an unknown component is answered with every one there is; an unknown version or
 * action of a known one is answered with that component's).
 *
 * @since 0.12.0
 * @category layers
 */
export const layerFor = (type: string | undefined, options: { readonly rateLimits: boolean } = { rateLimits: true }): Layer.Layer<Components> =>
  layer({ ...options, only: type === undefined ? undefined : [type.split("/")[0]!] })
