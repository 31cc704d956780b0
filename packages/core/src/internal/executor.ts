/**
 * The executor, `Executor.ts`'s internal twin: running an action on its component's opened
 * connection, written once for the step executor (which returns the output as JSON data) and
 * the typed clients (which return it typed); loading a property's dynamic options; and the
 * executor's side of triggers (a trigger step resolved and decoded, its lifecycle run).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Action from "../Action.js"
import type * as Choice from "../Choice.js"
import type * as Component from "../Component.js"
import { type ConnectorError, type InvalidInput, invalidInput, UnexpectedResponse } from "../ConnectorError.js"
import { Connections } from "../Connections.js"
import * as DynamicOptions from "../DynamicOptions.js"
import * as Property from "../Property.js"
import type * as Registry from "../Registry.js"
import * as Step from "../Step.js"
import type * as Trigger from "../Trigger.js"
import * as Webhook from "../Webhook.js"
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

// ---------------------------------------------------------------------------------------------
// Triggers: a trigger step resolved and decoded, its opened connection, and its lifecycle
// (enable, disable, a delivery, a poll), with what it stores and emits encoded as JSON data. A
// static webhook has deliveries only: enabling or disabling one is an `InvalidInput` (its URL
// is registered by hand).
// ---------------------------------------------------------------------------------------------

/** Names the step in an input error, so a workflow's author knows where to look. */
export const inStep = (step: Step.Step, error: InvalidInput): InvalidInput =>
  invalidInput(error.issues, `step "${step.name}" (${step.type})`)

export interface Delivery {
  readonly response: Trigger.WebhookResponse
  readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>>
}

const decodeStored = <A>(schema: Schema.Schema<A, any>, value: unknown, what: string, step: Step.Step) =>
  Either.mapLeft(
    Schema.decodeUnknownEither(schema)(value),
    (error) =>
      invalidInput(
        Property.issuesOf(error).map((i) => ({ ...i, path: `${what}${i.path === "" ? "" : "."}${i.path}` })),
        `step "${step.name}"`
      )
  )

/** Encodes what a trigger stores or emits; a failure's message (it quotes values) is scrubbed. */
const encodeWith = <A>(schema: Schema.Schema<A, any>, value: A, what: () => string, scrub: (text: string) => string) =>
  Either.match(Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(value), {
    onLeft: (error) => Effect.fail(new UnexpectedResponse({ message: scrub(`${what()}: ${error.message}`) })),
    onRight: Effect.succeed
  })

/** Marks a trigger step that `prepareTrigger` checked. */
const PreparedTypeId: unique symbol = Symbol("@x/core/Executor/PreparedTrigger")

export interface PreparedTrigger {
  readonly [PreparedTypeId]: typeof PreparedTypeId
  readonly step: Step.Step
  readonly component: Component.Component
  readonly trigger: Trigger.Trigger
  readonly params: Readonly<Record<string, unknown>>
}

/** A trigger step as written, or prepared. */
export type TriggerStep = Step.Step | PreparedTrigger

const isPrepared = (input: unknown): input is PreparedTrigger =>
  typeof input === "object" && input !== null && PreparedTypeId in input

/** Checks a trigger step once: its shape, its type resolved to a trigger, its parameters decoded. */
const prepareWith = (registry: Registry.Registry) => (input: unknown): Either.Either<PreparedTrigger, InvalidInput> =>
  isPrepared(input) ? Either.right(input) : Either.flatMap(Step.decode(input), (step) =>
    Either.mapLeft(
      Either.flatMap(registry.trigger(step.type), ({ component, definition }) =>
        Either.map(definition.decode(step.parameters), (params): PreparedTrigger => ({
          [PreparedTypeId]: PreparedTypeId,
          step,
          component,
          trigger: definition,
          params
        }))),
      (error) => inStep(step, error)
    ))

const staticHint = ": its URL is registered by hand at the provider, so there is nothing to enable or disable (only deliveries to handle)"

export const makeTriggers = (registry: Registry.Registry, maxDeliveryBytes = Webhook.defaultMaxBytes) => {
  const prepareTrigger = prepareWith(registry)

  /** The prepared trigger, of this kind. */
  const resolve = <K extends Trigger.Trigger["kind"]>(kind: K, input: TriggerStep) =>
    Either.flatMap(prepareTrigger(input), (prepared) =>
      prepared.trigger.kind === kind
        ? Either.right(prepared as PreparedTrigger & { readonly trigger: Extract<Trigger.Trigger, { kind: K }> })
        : Either.left(invalidInput([{
          path: "type",
          message: `${prepared.step.type} is a ${prepared.trigger.kind.toLowerCase().replace("_", " ")} trigger${
            prepared.trigger.kind === "STATIC_WEBHOOK" ? staticHint : ""
          }`
        }], `step "${prepared.step.name}"`)))

  /** The prepared trigger of this kind, with its opened connection. */
  const prepare = <K extends Trigger.Trigger["kind"]>(kind: K, input: TriggerStep) =>
    Effect.suspend(() => {
      const resolved = resolve(kind, input)
      if (Either.isLeft(resolved)) return Effect.fail(resolved.left)
      const { component, params, step, trigger } = resolved.right
      return Effect.flatMap(Connections, (connections) =>
        Effect.map(connections.get(component, step.connection), (opened) => ({
          step,
          trigger,
          opened,
          context: { params, client: opened.client, connection: opened.values }
        })))
    })

  /** Events encoded as JSON data, scrubbed of the connection's secrets like every output. */
  const encodeEvents = (
    trigger: Trigger.Trigger,
    events: ReadonlyArray<Trigger.TriggerEvent<unknown>>,
    opened: Opened
  ): Effect.Effect<ReadonlyArray<Trigger.TriggerEvent<unknown>>, UnexpectedResponse> =>
    Effect.forEach(events, (event) =>
      Effect.map(
        encodeWith(trigger.output, event.output, () => `${trigger.name} emitted an event that does not match its schema`, opened.scrub),
        (output) => ({ id: event.id, output: opened.scrub(output) })
      ))

  const enableTrigger = (input: TriggerStep, webhookUrl: string): Effect.Effect<unknown, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, opened, trigger }) =>
      Effect.flatMap(
        trigger.enable({ ...context, webhookUrl }),
        (state) => encodeWith(trigger.state, state, () => `${trigger.name}'s state does not encode`, opened.scrub)
      ))

  const disableTrigger = (input: TriggerStep, stored: unknown): Effect.Effect<void, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, step, trigger }) =>
      Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) => trigger.disable({ ...context, state })))

  const checkTrigger = (input: TriggerStep, stored: unknown): Effect.Effect<Option.Option<Trigger.Registration>, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, step, trigger }) => {
      const check = trigger.check
      if (check === undefined) return Effect.succeed(Option.none())
      return Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) => Effect.map(check({ ...context, state }), Option.some))
    })

  const catchUp = (input: TriggerStep, since: Date): Effect.Effect<Option.Option<ReadonlyArray<Trigger.TriggerEvent<unknown>>>, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, opened, trigger }) => {
      const list = trigger.catchUp
      if (list === undefined) return Effect.succeed(Option.none())
      return Effect.map(Effect.flatMap(list({ ...context, since }), (events) => encodeEvents(trigger, events, opened)), Option.some)
    })

  /**
   * What a trigger's handler gives, as the answer: a rejection answered with its status, the
   * events encoded. A trigger whose provider signs deliveries (`signedWith`) is not handed one
   * while its connection has no signing secret, unless unsigned deliveries are allowed: a
   * handler that verifies only when it has the secret would otherwise run forged ones.
   */
  const answer = (
    trigger: Trigger.DynamicWebhookTrigger | Trigger.StaticWebhookTrigger,
    opened: Opened,
    allowUnsigned: boolean,
    handle: () => Effect.Effect<
      { readonly response: Trigger.WebhookResponse; readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>> },
      ConnectorError | Webhook.DeliveryRejected
    >
  ): Effect.Effect<Delivery, ConnectorError> => {
    const field = trigger.signedWith
    if (field !== undefined && !allowUnsigned && (opened.values[field] === undefined || opened.values[field] === null)) {
      return Effect.succeed({ response: { status: 401, body: `the connection has no ${field} to verify deliveries with` }, events: [] })
    }
    return Effect.flatMap(
      Effect.catchTag(handle(), "DeliveryRejected", (rejected) => Effect.succeed({ response: { status: rejected.status, body: rejected.message }, events: [] })),
      ({ events, response }) => Effect.map(encodeEvents(trigger, events, opened), (encoded) => ({ response, events: encoded }))
    )
  }

  const handleDelivery = (
    input: TriggerStep,
    stored: unknown,
    request: Trigger.WebhookRequest,
    options?: { readonly allowUnsigned?: boolean | undefined }
  ): Effect.Effect<Delivery, ConnectorError, Connections> =>
    request.body.byteLength > maxDeliveryBytes
      // Too large to be a real delivery: answered 413 before anything is decoded or run.
      ? Effect.succeed({ response: { status: 413, body: `a delivery is at most ${maxDeliveryBytes} bytes` }, events: [] })
      : Effect.suspend(() => {
        // Decoded once here; `prepare` below takes the prepared step as it is.
        const prepared = prepareTrigger(input)
        if (Either.isLeft(prepared)) return Effect.fail(prepared.left)
        const definition = prepared.right.trigger
        // Static webhooks: registered by hand, so a delivery is all there is (no state, no lifecycle).
        if (definition.kind === "STATIC_WEBHOOK") {
          return Effect.flatMap(prepare("STATIC_WEBHOOK", prepared.right), ({ context, opened, trigger }) =>
            answer(trigger, opened, options?.allowUnsigned === true, () => trigger.handle({ ...context, request })))
        }
        // The provider checking the URL, before it registers it: no state exists yet.
        const check = definition.kind === "DYNAMIC_WEBHOOK" ? definition.urlCheck : undefined
        if (check !== undefined && check.method === request.method.toUpperCase()) return Effect.succeed({ response: check.response, events: [] })
        return Effect.flatMap(prepare("DYNAMIC_WEBHOOK", prepared.right), ({ context, opened, step, trigger }) =>
          Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) =>
            answer(trigger, opened, options?.allowUnsigned === true, () => trigger.handle({ ...context, state, request }))))
      })

  // --- polling triggers ------------------------------------------------------------------

  /** A poll from the stored cursor; the first one (no cursor) sets the baseline and emits nothing. */
  const poll = (input: TriggerStep, stored: unknown) =>
    Effect.flatMap(prepare("POLLING", input), ({ context, opened, step, trigger }) => {
      const baseline = stored === undefined || stored === null
      return Effect.flatMap(
        baseline ? Either.right(undefined) : decodeStored(trigger.cursor, stored, "cursor", step),
        (cursor) =>
          Effect.flatMap(trigger.poll({ ...context, cursor }), (result) =>
            Effect.zipWith(
              // The baseline's events are history, not news: dropped here, whatever the trigger returned.
              baseline ? Effect.succeed([]) : encodeEvents(trigger, result.events, opened),
              encodeWith(trigger.cursor, result.cursor, () => `${trigger.name}'s cursor does not encode`, opened.scrub),
              (events, cursor) => ({ events, cursor })
            ))
      )
    })

  // --- sample data -----------------------------------------------------------------------

  /** Sample events of any kind of trigger, encoded and scrubbed like real ones. */
  const sample = (input: TriggerStep): Effect.Effect<ReadonlyArray<Trigger.TriggerEvent<unknown>>, ConnectorError, Connections> =>
    Effect.suspend(() => {
      const prepared = prepareTrigger(input)
      if (Either.isLeft(prepared)) return Effect.fail(prepared.left)
      const { component, params, step, trigger } = prepared.right
      if (trigger.sample === undefined) {
        return Effect.fail(invalidInput([{ path: "type", message: `${step.type} offers no sample data` }], `step "${step.name}"`))
      }
      const sampleOf = trigger.sample as NonNullable<Trigger.Sampled<any, unknown, unknown>["sample"]>
      return Effect.flatMap(Connections, (connections) =>
        Effect.flatMap(connections.get(component, step.connection), (opened) =>
          Effect.flatMap(
            sampleOf({ params, client: opened.client, connection: opened.values }),
            (events) => encodeEvents(trigger, events, opened)
          )))
    })

  return { prepareTrigger, enableTrigger, disableTrigger, checkTrigger, catchUp, handleDelivery, poll, sample }
}
