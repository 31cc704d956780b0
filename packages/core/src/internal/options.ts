/**
 * The dynamic options of one property of an action or trigger (`Executor.options`): the
 * property found, the parameters the list depends on checked like any parameter, then loaded
 * with the component's connection.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Choice from "../Choice.js"
import { type ConnectorError, invalidInput } from "../ConnectorError.js"
import { Connections } from "../Connections.js"
import * as DynamicOptions from "../DynamicOptions.js"
import * as Property from "../Property.js"
import type * as Registry from "../Registry.js"

export const options = (
  registry: Registry.Registry,
  type: string,
  property: string,
  params: Readonly<Record<string, unknown>>
): Effect.Effect<ReadonlyArray<Choice.Choice<string>>, ConnectorError, Connections> =>
    Effect.suspend(() => {
      const resolved = Either.orElse(registry.action(type), () => registry.trigger(type))
      if (Either.isLeft(resolved)) return Effect.fail(resolved.left)
      const { component, definition } = resolved.right
      const props = definition.props as Property.Properties
      const prop = Object.hasOwn(props, property) ? props[property] : undefined
      if (prop === undefined || prop.dynamicOptions === undefined) {
        const dynamic = Object.keys(props).filter((name) => props[name]!.dynamicOptions !== undefined)
        return Effect.fail(invalidInput([{
          path: property,
          message: `${type} has no property "${property}" with dynamic options; available: ${
            dynamic.length === 0 ? "none" : dynamic.join(", ")
          }`
        }]))
      }
      const dynamicOptions = prop.dynamicOptions
      // The parameters the list depends on are checked like any parameter before they are sent.
      const given = dynamicOptions.dependsOn.filter((name) => DynamicOptions.isGiven(params[name]))
      if (given.length === dynamicOptions.dependsOn.length && given.length > 0) {
        const properties = Object.fromEntries(given.map((name) => [name, props[name]!]))
        const checked = Property.decoder(properties, `options of ${property}`)(
          Object.fromEntries(given.map((name) => [name, params[name]]))
        )
        if (Either.isLeft(checked)) return Effect.fail(checked.left)
      }
      return Effect.flatMap(Connections, (connections) =>
        Effect.flatMap(connections.get(component), ({ client }) => DynamicOptions.load(dynamicOptions, params, client)))
    })
