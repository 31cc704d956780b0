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
import type * as Action from "./Action.js"
import * as Component from "./Component.js"
import * as Connection from "./Connection.js"
import { type ConnectorError, type InvalidInput, invalidInput, UnexpectedResponse } from "./ConnectorError.js"
import * as Options from "./Options.js"
import * as Property from "./Property.js"
import type * as Trigger from "./Trigger.js"
import * as Registry from "./Registry.js"
import * as Step from "./Step.js"
import * as Webhook from "./Webhook.js"

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
  ) => Effect.Effect<Connection.Opened, ConnectorError, HttpClient.HttpClient>
  /** Loads the dynamic options of one property of an action or trigger. */
  readonly options: (
    type: string,
    property: string,
    params: Readonly<Record<string, unknown>>,
    connection: unknown
  ) => Effect.Effect<ReadonlyArray<Property.Choice<string>>, ConnectorError, HttpClient.HttpClient>
  /** Enables a dynamic-webhook trigger: registers it, and returns its state as JSON data, to be stored. */
  readonly enableTrigger: (
    trigger: TriggerStep,
    connection: unknown,
    webhookUrl: string
  ) => Effect.Effect<unknown, ConnectorError, HttpClient.HttpClient>
  /** Disables a dynamic-webhook trigger, from its stored state. */
  readonly disableTrigger: (
    trigger: TriggerStep,
    connection: unknown,
    state: unknown
  ) => Effect.Effect<void, ConnectorError, HttpClient.HttpClient>
  /**
   * Handles one delivery to a dynamic-webhook trigger: what to answer, and the events (each
   * with its id, for deduplication, and its output encoded as JSON data). A rejected delivery
   * answers 4xx and has no events.
   */
  readonly handleDelivery: (
    trigger: TriggerStep,
    connection: unknown,
    state: unknown,
    request: Trigger.WebhookRequest
  ) => Effect.Effect<
    { readonly response: Trigger.WebhookResponse; readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>> },
    ConnectorError,
    HttpClient.HttpClient
  >
  /** Polls a polling trigger from its stored cursor (undefined at first); returns events and the next cursor. */
  readonly poll: (
    trigger: TriggerStep,
    connection: unknown,
    cursor: unknown
  ) => Effect.Effect<
    { readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>>; readonly cursor: unknown },
    ConnectorError,
    HttpClient.HttpClient
  >
}

/** A trigger as a workflow declares it: a step whose type names a trigger. */
export type TriggerStep = Step.Step

export interface ExecutorOptions {
  /** The largest webhook delivery accepted; larger ones are answered 413. Default 1 MiB. */
  readonly maxDeliveryBytes?: number
}

/**
 * An executor of these components' steps. Opened connections are cached per values object:
 * pass a new object when a connection's values change.
 */
export const make = (
  components: ReadonlyArray<Component.Component> | Registry.Registry,
  settings: ExecutorOptions = {}
): Executor => {
  const maxDeliveryBytes = settings.maxDeliveryBytes ?? Webhook.defaultMaxBytes
  const registry = Array.isArray(components)
    ? Registry.make(components as ReadonlyArray<Component.Component>)
    : components as Registry.Registry

  // Opening a connection decodes and hashes credentials; a caller that runs many steps with
  // the same values object (the runner, a benchmark) opens it once per HttpClient.
  const opened = new WeakMap<object, Map<Component.Component, { http: unknown; opened: Connection.Opened }>>()
  const connect: Executor["connect"] = (component, values) => {
    if (typeof values !== "object" || values === null) {
      return Connection.open(component.connection, values, component.name)
    }
    return Effect.withFiberRuntime((fiber) => {
      const http = fiber.currentContext.unsafeMap.get(HttpClient.HttpClient.key)
      const cached = opened.get(values)?.get(component)
      if (cached !== undefined && cached.http === http) return Effect.succeed(cached.opened)
      return Effect.tap(Connection.open(component.connection, values, component.name), (result) => {
        const byComponent = opened.get(values) ?? new Map()
        byComponent.set(component, { http, opened: result })
        opened.set(values, byComponent)
      })
    })
  }

  const encoders = new WeakMap<Action.Action, (output: unknown) => Either.Either<unknown, ParseResult.ParseError>>()
  const encoderOf = (action: Action.Action) => {
    let encode = encoders.get(action)
    if (encode === undefined) {
      // Encoding checks the output against its schema and keeps only its declared fields.
      encode = action.output === undefined
        ? () => Either.right(null)
        : Schema.encodeUnknownEither(action.output as Schema.Schema<unknown, unknown>)
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
        Effect.flatMap(({ client }) => action.run(params.right, { client })),
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
      // The parameters the list depends on are checked like any parameter before they are sent.
      const given = dynamicOptions.dependsOn.filter((name: string) => params[name] !== undefined && params[name] !== null && params[name] !== "")
      if (given.length === dynamicOptions.dependsOn.length && given.length > 0) {
        const properties = Object.fromEntries(given.map((name: string) => [name, (definition.props as Property.Properties)[name]!]))
        const checked = Property.decoder(properties, `options of ${property}`)(Object.fromEntries(given.map((name: string) => [name, params[name]])))
        if (Either.isLeft(checked)) return Effect.fail(checked.left)
      }
      return Effect.flatMap(connect(component, connection), ({ client }) =>
        Options.load(dynamicOptions, params, client))
    })

  /** Resolves and decodes a trigger step, and opens its connection. */
  const prepare = <K extends Trigger.Trigger["kind"]>(kind: K, input: unknown, connection: unknown) =>
    Effect.suspend(() => {
      const step = Step.decode(input)
      if (Either.isLeft(step)) return Effect.fail(step.left)
      const resolved = registry.trigger(step.right.type)
      if (Either.isLeft(resolved)) return Effect.fail(inStep(step.right, resolved.left))
      const { component, definition } = resolved.right
      if (definition.kind !== kind) {
        return Effect.fail(invalidInput([{
          path: "type",
          message: `${step.right.type} is a ${definition.kind.toLowerCase().replace("_", " ")} trigger`
        }], `step "${step.right.name}"`))
      }
      const params = definition.decode(step.right.parameters)
      if (Either.isLeft(params)) return Effect.fail(inStep(step.right, params.left))
      return Effect.map(connect(component, connection), ({ client, values }) => ({
        step: step.right,
        trigger: definition as Extract<Trigger.Trigger, { kind: K }>,
        context: { params: params.right, client, connection: values }
      }))
    })

  const decodeStored = <A>(schema: Schema.Schema<A, any>, value: unknown, what: string, step: Step.Step) =>
    Either.mapLeft(
      Schema.decodeUnknownEither(schema)(value),
      (error) => invalidInput(Property.issuesOf(error).map((i) => ({ ...i, path: `${what}${i.path === "" ? "" : "."}${i.path}` })), `step "${step.name}"`)
    )

  const encodeEvents = (
    trigger: Trigger.Trigger,
    events: ReadonlyArray<Trigger.TriggerEvent<unknown>>
  ): Effect.Effect<ReadonlyArray<Trigger.TriggerEvent<unknown>>, UnexpectedResponse> => {
    const encode = Schema.encodeUnknownEither(trigger.output as Schema.Schema<unknown, unknown>)
    return Effect.forEach(events, (event) =>
      Either.match(encode(event.output), {
        onLeft: (error) =>
          Effect.fail(new UnexpectedResponse({ message: `${trigger.name} emitted an event that does not match its schema: ${error.message}` })),
        onRight: (output) => Effect.succeed({ id: event.id, output })
      }))
  }

  const enableTrigger: Executor["enableTrigger"] = (input, connection, webhookUrl) =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input, connection), ({ context, trigger }) =>
      Effect.flatMap(trigger.enable({ ...context, webhookUrl }), (state) =>
        Either.match(Schema.encodeUnknownEither(trigger.state as Schema.Schema<unknown, unknown>)(state), {
          onLeft: (error) => Effect.fail(new UnexpectedResponse({ message: `${trigger.name}'s state does not encode: ${error.message}` })),
          onRight: Effect.succeed
        })))

  const disableTrigger: Executor["disableTrigger"] = (input, connection, stored) =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input, connection), ({ context, step, trigger }) =>
      Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) => trigger.disable({ ...context, state })))

  const handleDelivery: Executor["handleDelivery"] = (input, connection, stored, request) =>
    request.body.byteLength > maxDeliveryBytes
      // Too large to be a real delivery: answered 413 before anything is decoded or run.
      ? Effect.succeed({ response: { status: 413, body: `a delivery is at most ${maxDeliveryBytes} bytes` }, events: [] })
      : Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input, connection), ({ context, step, trigger }) =>
      Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) =>
        Effect.flatMap(
          Effect.catchTag(trigger.handle({ ...context, state, request }), "DeliveryRejected", (rejected) =>
            Effect.succeed({ response: { status: rejected.status, body: rejected.message }, events: [] })),
          ({ events, response }) => Effect.map(encodeEvents(trigger, events), (encoded) => ({ response, events: encoded }))
        )))

  const poll: Executor["poll"] = (input, connection, stored) =>
    Effect.flatMap(prepare("POLLING", input, connection), ({ context, step, trigger }) =>
      Effect.flatMap(
        stored === undefined || stored === null
          ? Either.right(undefined)
          : decodeStored(trigger.cursor, stored, "cursor", step),
        (cursor) =>
          Effect.flatMap(trigger.poll({ ...context, cursor }), (result) =>
            Effect.map(encodeEvents(trigger, result.events), (events) => ({
              events,
              cursor: Either.getOrElse(
                Schema.encodeUnknownEither(trigger.cursor as Schema.Schema<unknown, unknown>)(result.cursor),
                () => result.cursor
              )
            })))
      ))

  return { registry, run, connect, options, enableTrigger, disableTrigger, handleDelivery, poll }
}

/** Names the step in an input error, so a workflow's author knows where to look. */
const inStep = (step: Step.Step, error: InvalidInput): InvalidInput =>
  invalidInput(error.issues, `step "${step.name}" (${step.type})`)
