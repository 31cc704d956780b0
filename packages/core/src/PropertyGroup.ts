/**
 * Property groups: an input whose fields come from the provider at design time (a CMS
 * collection's fields, say). A group declares the parameters it depends on and a loader that
 * reads its fields' definitions through the connection; its value is an object keyed by field.
 * Before any request is sent, the executor (and the typed clients) load the definitions,
 * cached per connection and dependency values for the group's `cacheFor`, and decode the value
 * against them: an unknown field or a wrong value is an `InvalidInput` naming `group.field`.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type { ConnectorError } from "./ConnectorError.js"
import { type Common, isPlainObject, JsonObject, make as makeProperty, type Properties, type Property } from "./internal/property.js"
import type { ProviderClient } from "./ProviderClient.js"

/**
 * What a loader gets: the parameters it depends on (decoded) with the rest of the step's, and
 * the connection's client.
 *
 * @since 0.2.0
 * @category models
 */
export interface Context {
  readonly params: Readonly<Record<string, unknown>>
  readonly client: ProviderClient
}

/**
 * Loads the group's fields: their definitions, built with `Property`'s constructors (a title,
 * `required`, the kind and its rules), by field key.
 *
 * @since 0.2.0
 * @category models
 */
export type Loader = (context: Context) => Effect.Effect<Properties, ConnectorError>

/**
 * How a group's fields are loaded: what it depends on, the loader, and how long what it
 * loaded is kept (per connection and dependency values).
 *
 * @since 0.2.0
 * @category models
 */
export interface Fields {
  readonly dependsOn: ReadonlyArray<string>
  readonly load: Loader
  readonly cacheFor: Duration.Duration
}

/**
 * A property group: a property of kind GROUP whose value is an object of loaded fields.
 *
 * @since 0.2.0
 * @category models
 */
export interface PropertyGroup<R extends boolean = boolean> extends Property<Readonly<Record<string, unknown>>, R> {
  readonly kind: "GROUP"
  readonly fields: Fields
}

/**
 * A property group: `dependsOn` names the parameters its fields are loaded from (each must be
 * a property of the same action), `load` reads them, `cacheFor` (default a minute) says how
 * long a load is reused, so a batch of steps does not load them again for every call.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <const R extends boolean = false>(
  config: Common<R> & {
    readonly dependsOn: ReadonlyArray<string>
    readonly load: Loader
    readonly cacheFor?: Duration.DurationInput
  }
): PropertyGroup<R> => ({
  // Before the fields are loaded, the value is only checked to be an object.
  ...makeProperty<Readonly<Record<string, unknown>>, R>("GROUP", config, JsonObject, { dependsOn: config.dependsOn }, isPlainObject),
  kind: "GROUP",
  fields: {
    dependsOn: config.dependsOn,
    load: config.load,
    cacheFor: Duration.decode(config.cacheFor ?? "1 minute")
  }
})

/**
 * Whether a property is a group.
 *
 * @since 0.2.0
 * @category guards
 */
export const isGroup = (property: Property<any, boolean, any>): property is PropertyGroup =>
  property.kind === "GROUP" && "fields" in property

/**
 * The groups among a record of properties, by name; `undefined` when there are none (the
 * executor's check that costs nothing for an action without groups).
 *
 * @since 0.2.0
 * @category utils
 */
export const groupsOf = (properties: Properties): ReadonlyArray<readonly [string, PropertyGroup]> | undefined => {
  const groups = Object.entries(properties).filter((entry): entry is [string, PropertyGroup] => isGroup(entry[1]))
  return groups.length === 0 ? undefined : groups
}
