/**
 * The executor's side of triggers: resolve and decode a trigger step, get its opened
 * connection, and run its lifecycle (enable, disable, a delivery, a poll), with what it
 * stores and emits encoded as JSON data.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type ConnectorError, type InvalidInput, invalidInput, UnexpectedResponse } from "../ConnectorError.js"
import { Connections, type Opened } from "../Connections.js"
import * as Property from "../Property.js"
import type * as Registry from "../Registry.js"
import * as Step from "../Step.js"
import type * as Trigger from "../Trigger.js"
import * as Webhook from "../Webhook.js"

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

const encodeWith = <A>(schema: Schema.Schema<A, any>, value: A, what: () => string) =>
  Either.match(Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(value), {
    onLeft: (error) => Effect.fail(new UnexpectedResponse({ message: `${what()}: ${error.message}` })),
    onRight: Effect.succeed
  })

export const make = (registry: Registry.Registry, maxDeliveryBytes = Webhook.defaultMaxBytes) => {
  /** Resolves a trigger step of this kind. */
  const resolve = <K extends Trigger.Trigger["kind"]>(kind: K, input: unknown) =>
    Either.flatMap(Step.decode(input), (step) =>
      Either.flatMap(Either.mapLeft(registry.trigger(step.type), (error) => inStep(step, error)), ({ component, definition }) =>
        definition.kind === kind
          ? Either.right({ step, component, definition: definition as Extract<Trigger.Trigger, { kind: K }> })
          : Either.left(invalidInput([{
            path: "type",
            message: `${step.type} is a ${definition.kind.toLowerCase().replace("_", " ")} trigger`
          }], `step "${step.name}"`))))

  /** Resolves and decodes a trigger step of this kind, and gets its opened connection. */
  const prepare = <K extends Trigger.Trigger["kind"]>(kind: K, input: unknown) =>
    Effect.suspend(() => {
      const resolved = resolve(kind, input)
      if (Either.isLeft(resolved)) return Effect.fail(resolved.left)
      const { component, definition, step } = resolved.right
      const params = definition.decode(step.parameters)
      if (Either.isLeft(params)) return Effect.fail(inStep(step, params.left))
      return Effect.flatMap(Connections, (connections) =>
        Effect.map(connections.get(component), (opened) => ({
          step,
          trigger: definition,
          opened,
          context: { params: params.right, client: opened.client, connection: opened.values }
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
        encodeWith(trigger.output, event.output, () => `${trigger.name} emitted an event that does not match its schema`),
        (output) => ({ id: event.id, output: opened.scrub(output) })
      ))

  const enableTrigger = (input: Step.Step, webhookUrl: string): Effect.Effect<unknown, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, trigger }) =>
      Effect.flatMap(
        trigger.enable({ ...context, webhookUrl }),
        (state) => encodeWith(trigger.state, state, () => `${trigger.name}'s state does not encode`)
      ))

  const disableTrigger = (input: Step.Step, stored: unknown): Effect.Effect<void, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, step, trigger }) =>
      Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) => trigger.disable({ ...context, state })))

  const handleDelivery = (
    input: Step.Step,
    stored: unknown,
    request: Trigger.WebhookRequest
  ): Effect.Effect<Delivery, ConnectorError, Connections> =>
    request.body.byteLength > maxDeliveryBytes
      // Too large to be a real delivery: answered 413 before anything is decoded or run.
      ? Effect.succeed({ response: { status: 413, body: `a delivery is at most ${maxDeliveryBytes} bytes` }, events: [] })
      : Effect.suspend(() => {
        // The provider checking the URL, before it registers it: no state exists yet.
        const resolved = resolve("DYNAMIC_WEBHOOK", input)
        const check = Either.isRight(resolved) ? resolved.right.definition.urlCheck : undefined
        return check !== undefined && check.method === request.method.toUpperCase()
          ? Effect.succeed({ response: check.response, events: [] })
          : delivery(input, stored, request)
      })

  const delivery = (
    input: Step.Step,
    stored: unknown,
    request: Trigger.WebhookRequest
  ): Effect.Effect<Delivery, ConnectorError, Connections> =>
    Effect.flatMap(prepare("DYNAMIC_WEBHOOK", input), ({ context, opened, step, trigger }) =>
      Effect.flatMap(decodeStored(trigger.state, stored, "state", step), (state) =>
        Effect.flatMap(
          Effect.catchTag(
            trigger.handle({ ...context, state, request }),
            "DeliveryRejected",
            (rejected) => Effect.succeed({ response: { status: rejected.status, body: rejected.message }, events: [] })
          ),
          ({ events, response }) => Effect.map(encodeEvents(trigger, events, opened), (encoded) => ({ response, events: encoded }))
        )))

  const poll = (input: Step.Step, stored: unknown) =>
    Effect.flatMap(prepare("POLLING", input), ({ context, opened, step, trigger }) =>
      Effect.flatMap(
        stored === undefined || stored === null ? Either.right(undefined) : decodeStored(trigger.cursor, stored, "cursor", step),
        (cursor) =>
          Effect.flatMap(trigger.poll({ ...context, cursor }), (result) =>
            Effect.map(encodeEvents(trigger, result.events, opened), (events) => ({
              events,
              cursor: Either.getOrElse(
                Schema.encodeUnknownEither(trigger.cursor as Schema.Schema<unknown, unknown>)(result.cursor),
                () => result.cursor
              )
            })))
      ))

  return { enableTrigger, disableTrigger, handleDelivery, poll }
}
