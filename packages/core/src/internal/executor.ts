/**
 * `Executor`'s internals: running an action on its component's opened connection, written once
 * for the step executor (which returns the output as JSON data) and the typed clients (which
 * return it typed); and loading a property's dynamic options.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Action from "../Action.js"
import type * as Choice from "../Choice.js"
import { type ConnectorError, invalidInput, UnexpectedResponse } from "../ConnectorError.js"
import { Connections } from "../Connections.js"
import * as DynamicOptions from "../DynamicOptions.js"
import * as Property from "../Property.js"
import type * as Registry from "../Registry.js"
import type { Opened } from "./open.js"
import { hasSecrets, secretValues } from "./property.js"
import * as PropertyGroups from "./propertyGroup.js"
import * as Scrub from "./scrub.js"
import { scrubError } from "./scrubError.js"

/**
 * Runs an action with decoded parameters on its component's opened connection. Its output is encoded (checked against its schema)
 * and scrubbed of the connection's secrets and of the step's secret parameters (its error too), since a provider or a proxy may echo what it was
 * sent; `finish` gets the output, its encoding and the scrubbed encoding (the same object when
 * there was nothing to scrub). `label` names the action in the error of an output that does
 * not match its schema, and the step in the error of a group value that does not match its
 * loaded fields (an action with property groups has them decoded first; any other pays nothing).
 */
export const execute = <A, B>(
  opened: Opened,
  action: Action.Action<any, A>,
  params: Readonly<Record<string, unknown>>,
  label: string,
  finish: (output: A, encoded: unknown, scrubbed: unknown) => B
): Effect.Effect<B, ConnectorError> =>
  withStepSecrets(opened, action, params, (scrub) =>
    action.groups === undefined
      ? runAndEncode(opened, action, params, label, scrub, finish)
      : Effect.flatMap(
        PropertyGroups.decode(action.groups, params, opened.client, label),
        (decoded) => runAndEncode(opened, action, decoded, label, scrub, finish)
      ))

/**
 * The values of the step's secret parameters (a password, a header's value) are scrubbed from
 * its output and error too, as the connection's are: a provider may echo what it was sent. An
 * action without secret parameters pays one lookup.
 */
const withStepSecrets = <B>(
  opened: Opened,
  action: Action.Action<any, any>,
  params: Readonly<Record<string, unknown>>,
  body: (scrub: <V>(value: V) => V) => Effect.Effect<B, ConnectorError>
): Effect.Effect<B, ConnectorError> => {
  if (!hasSecrets(action.props)) return body(opened.scrub)
  const secrets = secretValues(action.props, params)
  const forms = Scrub.formsOf(secrets)
  if (forms.length === 0) return body(opened.scrub)
  const scrub = <V>(value: V): V => Scrub.walk(opened.scrub(value), forms) as V
  return Effect.mapError(body(scrub), (error) => scrubError(secrets, error))
}

const runAndEncode = <A, B>(
  opened: Opened,
  action: Action.Action<any, A>,
  params: Readonly<Record<string, unknown>>,
  label: string,
  scrub: <V>(value: V) => V,
  finish: (output: A, encoded: unknown, scrubbed: unknown) => B
): Effect.Effect<B, ConnectorError> =>
  Effect.flatMap(action.run(params, opened.context), (output) => {
    const encoded = action.encode(output)
    return Either.isRight(encoded)
      ? Effect.succeed(finish(output, encoded.right, scrub(encoded.right)))
      : Effect.fail(
        new UnexpectedResponse({
          message: scrub(`${label} produced an output that does not match its schema: ${encoded.left.message}`)
        })
      )
  })

/**
 * Reconciles an action's attempt cut short (`Action.reconcile`): what it finds is encoded and
 * scrubbed as `execute` does an output; `None` when it finds nothing. Property groups are
 * decoded first, as for a run.
 */
export const reconcile = <A, B>(
  opened: Opened,
  action: Action.Action<any, A>,
  params: Readonly<Record<string, unknown>>,
  label: string,
  attempt: Action.Attempt,
  finish: (output: A, encoded: unknown, scrubbed: unknown) => B
): Effect.Effect<Option.Option<B>, ConnectorError> => {
  const find = action.reconcile
  if (find === undefined) return Effect.succeed(Option.none())
  return withStepSecrets(opened, action, params, (scrub) => {
    const look = (decoded: Readonly<Record<string, unknown>>) =>
      Effect.flatMap(find(decoded, opened.context, attempt), (found) => {
        if (Option.isNone(found)) return Effect.succeed(Option.none<B>())
        const encoded = action.encode(found.value)
        return Either.isRight(encoded)
          ? Effect.succeed(Option.some(finish(found.value, encoded.right, scrub(encoded.right))))
          : Effect.fail(
            new UnexpectedResponse({
              message: scrub(`${label} found an output that does not match its schema: ${encoded.left.message}`)
            })
          )
      })
    return action.groups === undefined
      ? look(params)
      : Effect.flatMap(PropertyGroups.decode(action.groups, params, opened.client, label), look)
  })
}

/**
 * The dynamic options of one property of an action or trigger (`Executor.options`): the
 * property found, the parameters the list depends on checked like any parameter, then loaded
 * with the component's connection.
 */
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
