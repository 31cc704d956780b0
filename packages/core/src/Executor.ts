/**
 * The step executor: parse a step's `type`, find its component and action, decode its
 * parameters (before anything is sent), open the connection, run the action and encode its
 * output. Every failure is a typed `ConnectorError`.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type * as Action from "./Action.js"
import * as Component from "./Component.js"
import * as Connection from "./Connection.js"
import { type ConnectorError, type InvalidInput, invalidInput, UnexpectedResponse } from "./ConnectorError.js"
import * as Options from "./Options.js"
import type * as Property from "./Property.js"
import * as ProviderClient from "./ProviderClient.js"
import * as Registry from "./Registry.js"
import * as Step from "./Step.js"

export interface Executor {
  readonly registry: Registry.Registry
  /**
   * Runs one step with the values of its component's connection, and returns the action's
   * output encoded as JSON data (`null` for an action without output).
   */
  readonly run: (step: unknown, connection: unknown) => Effect.Effect<unknown, ConnectorError, HttpClient.HttpClient>
  /** Opens a component's connection: decoded, authenticated, its client built (and cached per values object). */
  readonly connect: (
    component: Component.Component,
    connection: unknown
  ) => Effect.Effect<ProviderClient.ProviderClient, ConnectorError, HttpClient.HttpClient>
  /** Loads the dynamic options of one property of an action or trigger. */
  readonly options: (
    type: string,
    property: string,
    params: Readonly<Record<string, unknown>>,
    connection: unknown
  ) => Effect.Effect<ReadonlyArray<Property.Choice<string>>, ConnectorError, HttpClient.HttpClient>
}

export const make = (components: ReadonlyArray<Component.Component> | Registry.Registry): Executor => {
  const registry = Array.isArray(components)
    ? Registry.make(components as ReadonlyArray<Component.Component>)
    : components as Registry.Registry

  // Opening a connection decodes and hashes credentials; a caller that runs many steps with
  // the same values object (the runner, a benchmark) opens it once per HttpClient.
  const opened = new WeakMap<object, Map<Component.Component, { http: unknown; client: ProviderClient.ProviderClient }>>()
  const connect: Executor["connect"] = (component, values) => {
    if (typeof values !== "object" || values === null) {
      return Connection.open(component.connection, values, component.name)
    }
    return Effect.withFiberRuntime((fiber) => {
      const http = fiber.currentContext.unsafeMap.get(HttpClient.HttpClient.key)
      const cached = opened.get(values)?.get(component)
      if (cached !== undefined && cached.http === http) return Effect.succeed(cached.client)
      return Effect.tap(Connection.open(component.connection, values, component.name), (client) => {
        const byComponent = opened.get(values) ?? new Map()
        byComponent.set(component, { http, client })
        opened.set(values, byComponent)
      })
    })
  }

  const encoders = new WeakMap<Action.Action, (output: unknown) => Either.Either<unknown, ParseResult.ParseError>>()
  const encoderOf = (action: Action.Action) => {
    let encode = encoders.get(action)
    if (encode === undefined) {
      const output = action.output
      encode = output === undefined
        ? () => Either.right(null)
        : SchemaAST.encodedAST(output.ast) === output.ast
        // Nothing to transform or check: the output already is its JSON form.
        ? Either.right
        : Schema.encodeUnknownEither(output as Schema.Schema<unknown, unknown>)
      encoders.set(action, encode)
    }
    return encode
  }

  const run: Executor["run"] = (input, connection) =>
    Effect.suspend(() => {
      const step = Step.decode(input)
      if (Either.isLeft(step)) return Effect.fail(step.left)
      const resolved = registry.action(step.right.type)
      if (Either.isLeft(resolved)) return Effect.fail(inStep(step.right, resolved.left))
      const { component, definition: action } = resolved.right
      const params = action.decode(step.right.parameters)
      if (Either.isLeft(params)) return Effect.fail(inStep(step.right, params.left))
      const encode = encoderOf(action)
      return connect(component, connection).pipe(
        Effect.flatMap((client) =>
          action.run(params.right, { client })
        ),
        Effect.flatMap((output) => {
          const encoded = encode(output)
          return Either.isRight(encoded) ? Effect.succeed(encoded.right) : Effect.fail(
            new UnexpectedResponse({
              message: `${step.right.type} produced an output that does not match its schema: ${encoded.left.message}`
            })
          )
        })
      )
    })

  const options: Executor["options"] = (type, property, params, connection) =>
    Effect.suspend(() => {
      const resolved = Either.orElse(registry.action(type), () => registry.trigger(type))
      if (Either.isLeft(resolved)) return Effect.fail(resolved.left)
      const { component, definition } = resolved.right
      const prop = Object.hasOwn(definition.props, property) ? definition.props[property] : undefined
      if (prop === undefined || prop.dynamicOptions === undefined) {
        const dynamic = Object.entries(definition.props as Property.Properties).filter(([, p]) =>
          p.dynamicOptions !== undefined
        )
        return Effect.fail(invalidInput([{
          path: property,
          message: `${type} has no property "${property}" with dynamic options; available: ${
            dynamic.length === 0 ? "none" : dynamic.map(([name]) => name).join(", ")
          }`
        }]))
      }
      const dynamicOptions = prop.dynamicOptions
      return Effect.flatMap(connect(component, connection), (client) =>
        Options.load(dynamicOptions, params, client))
    })

  return { registry, run, connect, options }
}

/** Names the step in an input error, so a workflow's author knows where to look. */
const inStep = (step: Step.Step, error: InvalidInput): InvalidInput =>
  invalidInput(error.issues, `step "${step.name}" (${step.type})`)
