/**
 * Opened connections as a service: the executor asks `Connections` for a component's opened
 * connection (its values decoded, its credentials applied, its provider client built) and
 * never sees credentials, type strings or HTTP clients. `layer` opens each connection at most
 * once, when a step first needs it, and shares it with every later step.
 *
 * A component's default connection is the entry under its name; named connections (several of
 * one component, e.g. two accounts) are entries under a name of the user's choosing whose
 * value says its `component` besides its fields. A step picks one with its `connection`. Rate
 * limits stay per credential: two names holding one token share its limits.
 *
 * @since 0.2.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type * as Component from "./Component.js"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
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
  /**
   * The component's opened connection: the one named `connection` (which must be of that
   * component), else its default; a missing or invalid one is a `ConnectorError` naming what to give.
   */
  readonly get: (component: Component.Component, connection?: string | undefined) => Effect.Effect<Opened, ConnectorError>
}>() {}

/**
 * The values of the connections: each component's default under its name (e.g.
 * `{ boardtool: { key, token } }`), and named connections under their names, each saying its
 * component (e.g. `{ work: { component: "boardtool", key, token } }`).
 *
 * @since 0.2.0
 * @category models
 */
export type ValuesByComponent = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>

const entryOf = (values: ValuesByComponent, name: string): unknown =>
  values instanceof Map
    ? values.get(name)
    : Object.hasOwn(values, name)
    ? (values as Readonly<Record<string, unknown>>)[name]
    : undefined

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The values of a component's connection: the entry named `connection`, else the one under the
 * component's name (`undefined`: none given), without its `component`; an entry of another
 * component, or a named one that does not say its component, is refused.
 *
 * @since 0.8.0
 * @category utils
 */
export const valuesOf = (
  values: ValuesByComponent,
  component: Component.Component,
  connection?: string | undefined
): Either.Either<unknown, InvalidInput> => {
  const name = connection ?? component.name
  const entry = entryOf(values, name)
  const refuse = (message: string) => Either.left(invalidInput([{ path: name, message }], "connections"))
  if (entry === undefined) {
    return name === component.name ? Either.right(undefined) : refuse(`there is no connection named "${name}"`)
  }
  if (!isRecord(entry) || !Object.hasOwn(entry, "component")) {
    return name === component.name
      ? Either.right(entry)
      : refuse(`the connection "${name}" does not say its component: give it "component": "${component.name}"`)
  }
  const { component: of, ...fields } = entry
  return of === component.name
    ? Either.right(fields)
    : refuse(`the connection "${name}" is of ${typeof of === "string" ? of : JSON.stringify(of)}, not ${component.name}`)
}

/**
 * Runs an effect with a named connection as the default of its component: its
 * `Connections.get(component)` (without a name) gets that connection where its component is
 * the connection's, the default elsewhere. `undefined` changes nothing. What a command that
 * takes `--connection` wraps around loading a property's options, say.
 *
 * @since 0.8.0
 * @category combinators
 */
export const withConnection = (connection: string | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Connections> =>
  connection === undefined ? effect : Effect.flatMap(Connections, (connections) =>
    Effect.provideService(effect, Connections, {
      get: (component, given) => connections.get(component, given ?? connection)
    }))

/**
 * Opens one component's connection with these values (`undefined`: none given): decodes
 * them (every problem named, no value printed), authenticates, and builds the provider client.
 *
 * @since 0.2.0
 * @category constructors
 */
export const open = (
  component: Component.Component,
  values: unknown,
  /** What messages call the connection: a named connection's name (the component's by default). */
  name: string = component.name
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
  return internal.open(component.connection, values, name)
}

/**
 * The opened connections of these values, in a scope: each connection is opened when first
 * asked for (by the component object's identity and the connection's name), once, however many
 * steps ask at the same time. A failed opening is not kept: the next step tries again.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (
  values: ValuesByComponent
): Effect.Effect<Connections["Type"], never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.map(Effect.zip(Effect.context<HttpClient.HttpClient>(), Effect.scope), ([context, scope]) => {
    // By component, then by the connection's name (the component's own name for its default).
    const opened = new Map<Component.Component, Map<string, Effect.Effect<Opened, ConnectorError>>>()
    const opening = (component: Component.Component, name: string, given: unknown): Effect.Effect<Opened, ConnectorError> => {
      const result = Deferred.unsafeMake<Opened, ConnectorError>(FiberId.none)
      let started = false
      // Opened in the layer's scope, so a step that is interrupted does not interrupt the others' wait.
      const start = Effect.uninterruptible(Effect.suspend(() => {
        if (started) return Effect.void
        started = true
        return open(component, given, name).pipe(
          Effect.provide(context),
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) opened.get(component)?.set(name, Effect.succeed(exit.value))
              else opened.get(component)?.delete(name)
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
      get: (component, connection) => {
        const name = connection ?? component.name
        let byName = opened.get(component)
        if (byName === undefined) {
          byName = new Map()
          opened.set(component, byName)
        }
        let found = byName.get(name)
        if (found === undefined) {
          const given = valuesOf(values, component, connection)
          if (Either.isLeft(given)) return Effect.fail(given.left)
          found = opening(component, name, given.right)
          byName.set(name, found)
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
