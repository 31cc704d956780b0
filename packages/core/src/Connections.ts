/**
 * Opened connections as a service: the executor asks `Connections` for a component's opened
 * connection (its values decoded, its credentials applied, its provider client built) and
 * never sees credentials, type strings or HTTP clients. `layer` opens each component's
 * connection at most once, when a step first needs it, and shares it with every later step.
 *
 * @since 0.2.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type * as Component from "./Component.js"
import type { ConnectorError } from "./ConnectorError.js"
import { invalidInput } from "./ConnectorError.js"
import * as internal from "./internal/open.js"
import type * as Property from "./Property.js"
import type { Opened } from "./internal/open.js"

/**
 * An opened connection: its decoded values, its provider client, and the scrubber of its secrets.
 *
 * @since 0.2.0
 * @category models
 */
export type {
  /**
   * An opened connection: its decoded values, its provider client, and the scrubber of its secrets.
   *
   * @since 0.2.0
   * @category models
   */
  Opened
} from "./internal/open.js"

/**
 * The service of opened connections.
 *
 * @since 0.2.0
 * @category services
 */
export class Connections extends Context.Tag("@x/core/Connections")<Connections, {
  /** The component's opened connection; a missing or invalid one is a `ConnectorError` naming what to give. */
  readonly get: (component: Component.Component) => Effect.Effect<Opened, ConnectorError>
}>() {}

/**
 * The values of each component's connection, by component name (e.g. `{ boardtool: { key, token } }`).
 *
 * @since 0.2.0
 * @category models
 */
export type ValuesByComponent = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>

const valuesOf = (values: ValuesByComponent, name: string): unknown =>
  values instanceof Map
    ? values.get(name)
    : Object.hasOwn(values, name)
    ? (values as Readonly<Record<string, unknown>>)[name]
    : undefined

/**
 * Opens one component's connection with these values (`undefined`: none given): decodes
 * them (every problem named, no value printed), authenticates, and builds the provider client.
 *
 * @since 0.2.0
 * @category constructors
 */
export const open = (
  component: Component.Component,
  values: unknown
): Effect.Effect<Opened, ConnectorError, HttpClient.HttpClient> => {
  if (values === undefined) {
    const needed = Object.entries(component.connection.props as Property.Properties)
      .filter(([, property]) => property.required && property.defaultValue === undefined)
      .map(([name]) => name)
    if (needed.length > 0) {
      return Effect.fail(invalidInput([{
        path: component.name,
        message: `no connection is given for ${component.name}; it needs ${needed.join(", ")}`
      }], "connections"))
    }
  }
  return internal.open(component.connection, values, component.name)
}

/**
 * The opened connections of these values, in a scope: each component's connection is opened
 * when first asked for (by the component object's identity), once, however many steps ask at
 * the same time. A failed opening is not kept: the next step tries again.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (
  values: ValuesByComponent
): Effect.Effect<Connections["Type"], never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.map(Effect.zip(Effect.context<HttpClient.HttpClient>(), Effect.scope), ([context, scope]) => {
    const opened = new Map<Component.Component, Effect.Effect<Opened, ConnectorError>>()
    const opening = (component: Component.Component): Effect.Effect<Opened, ConnectorError> => {
      const result = Deferred.unsafeMake<Opened, ConnectorError>(FiberId.none)
      let started = false
      // Opened in the layer's scope, so a step that is interrupted does not interrupt the others' wait.
      const start = Effect.uninterruptible(Effect.suspend(() => {
        if (started) return Effect.void
        started = true
        return open(component, valuesOf(values, component.name)).pipe(
          Effect.provide(context),
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) opened.set(component, Effect.succeed(exit.value))
              else opened.delete(component)
            })
          ),
          Effect.intoDeferred(result),
          Effect.forkIn(scope),
          Effect.asVoid
        )
      }))
      return Effect.zipRight(start, Deferred.await(result))
    }
    return {
      get: (component) => {
        let found = opened.get(component)
        if (found === undefined) {
          found = opening(component)
          opened.set(component, found)
        }
        return found
      }
    }
  })

/**
 * `make` as a layer: the opened connections of these values, closed with the layer.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (values: ValuesByComponent): Layer.Layer<Connections, never, HttpClient.HttpClient> =>
  Layer.scoped(Connections, make(values))
