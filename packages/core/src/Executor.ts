/**
 * The step executor: parse a step's `type`, find its component and action, decode its
 * parameters (before anything is sent), get the opened connection from `Connections`, run
 * the action and encode its output. Every failure is a typed `ConnectorError`.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Fiber from "effect/Fiber"
import type * as Option from "effect/Option"
import type * as Action from "./Action.js"
import type * as Choice from "./Choice.js"
import type * as Component from "./Component.js"
import type * as ConnectionTest from "./ConnectionTest.js"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
import { Connections } from "./Connections.js"
import * as internalConnectionTest from "./internal/connectionTest.js"
import * as internal from "./internal/executor.js"
import { flatMapNow } from "./internal/flatMapNow.js"
import { inStep } from "./internal/executor.js"
import * as PropertyGroups from "./internal/propertyGroup.js"
import type * as Property from "./Property.js"
import * as Registry from "./Registry.js"
import * as Step from "./Step.js"
import type * as Trigger from "./Trigger.js"

/**
 * A step that was checked: its shape decoded and its type resolved, once. Its parameters are
 * decoded by `decodeParameters` (or `runPrepared`), once they are known: references in them may
 * be substituted after the check.
 *
 * @since 0.2.0
 * @category models
 */
export interface Prepared {
  readonly step: Step.Step
  readonly component: Component.Component
  readonly action: Action.Action
}

/**
 * A prepared step with its parameters decoded: ready to run as it is, any number of times.
 *
 * @since 0.2.0
 * @category models
 */
export interface Decoded extends Prepared {
  readonly params: Readonly<Record<string, unknown>>
}

/**
 * A trigger as a workflow declares it (a step whose type names a trigger), or prepared once
 * with `prepareTrigger` (then nothing is decoded again on each delivery or poll).
 *
 * @since 0.1.0
 * @category models
 */
export type TriggerStep = internal.TriggerStep

/**
 * A trigger step that was checked: its shape decoded, its type resolved to a trigger, its
 * parameters decoded.
 *
 * @since 0.2.0
 * @category models
 */
export type PreparedTrigger = internal.PreparedTrigger

/**
 * What a delivery to a webhook trigger (dynamic or static) comes to: the answer, and the events.
 *
 * @since 0.2.0
 * @category models
 */
export type Delivery = internal.Delivery

/**
 * Runs steps, loads dynamic options and drives triggers, with the connections of the `Connections` service.
 *
 * @since 0.1.0
 * @category models
 */
export interface Executor {
  readonly registry: Registry.Registry
  /** Checks a step: its shape, and its type resolved to a component's action. */
  readonly prepare: (step: unknown) => Either.Either<Prepared, InvalidInput>
  /** Decodes a prepared step's parameters (references in them substituted, if it had any). */
  readonly decodeParameters: (prepared: Prepared, parameters: unknown) => Either.Either<Decoded, InvalidInput>
  /**
   * Runs a decoded step, and returns the action's output encoded as JSON data (`null` for an
   * action without output), scrubbed of the connection's secrets.
   */
  readonly runDecoded: (decoded: Decoded) => Effect.Effect<unknown, ConnectorError, Connections>
  /** `decodeParameters` and `runDecoded` in one. */
  readonly runPrepared: (prepared: Prepared, parameters: unknown) => Effect.Effect<unknown, ConnectorError, Connections>
  /** `prepare` and `runPrepared` in one. */
  readonly run: (step: unknown) => Effect.Effect<unknown, ConnectorError, Connections>
  /**
   * For a step cut short after it may have sent a write: what its action finds it created at
   * or after `since` (`Action.reconcile`), encoded and scrubbed as `runPrepared` returns an
   * output; `None` when it finds nothing, or when the action cannot tell (see `reconcilable`).
   */
  readonly reconcilePrepared: (prepared: Prepared, parameters: unknown, since: Date) => Effect.Effect<Option.Option<unknown>, ConnectorError, Connections>
  /** Loads the dynamic options of one property of an action or trigger. */
  readonly options: (
    type: string,
    property: string,
    params: Readonly<Record<string, unknown>>
  ) => Effect.Effect<ReadonlyArray<Choice.Choice<string>>, ConnectorError, Connections>
  /**
   * Loads the fields of one property group of an action for these parameters (those it depends
   * on are needed), described as JSON data by field key: what its value may hold.
   */
  readonly fields: (
    type: string,
    property: string,
    params: Readonly<Record<string, unknown>>
  ) => Effect.Effect<Record<string, Property.PropertyDescription>, ConnectorError, Connections>
  /** Checks a trigger step: its shape, its type resolved to a trigger, its parameters decoded. */
  readonly prepareTrigger: (step: unknown) => Either.Either<PreparedTrigger, InvalidInput>
  /**
   * Enables a dynamic-webhook trigger: registers it, and returns its state as JSON data, to be
   * stored. Any other kind is an `InvalidInput` (a static webhook's URL is registered by hand).
   */
  readonly enableTrigger: (trigger: TriggerStep, webhookUrl: string) => Effect.Effect<unknown, ConnectorError, Connections>
  /** Disables a dynamic-webhook trigger, from its stored state (any other kind: `InvalidInput`). */
  readonly disableTrigger: (trigger: TriggerStep, state: unknown) => Effect.Effect<void, ConnectorError, Connections>
  /**
   * Asks the provider whether a dynamic webhook's stored registration still delivers; `None`
   * when the trigger cannot tell (it declares no `check`).
   */
  readonly checkTrigger: (trigger: TriggerStep, state: unknown) => Effect.Effect<Option.Option<Trigger.Registration>, ConnectorError, Connections>
  /**
   * The events a dynamic webhook missed since a time, oldest first, encoded like a delivery's
   * (same ids); `None` when the trigger cannot list them (it declares no `catchUp`).
   */
  readonly catchUp: (trigger: TriggerStep, since: Date) => Effect.Effect<Option.Option<ReadonlyArray<Trigger.TriggerEvent<unknown>>>, ConnectorError, Connections>
  /**
   * Handles one request to a webhook trigger's URL, dynamic or static (a static one has no
   * state: `state` is ignored): what to answer, and the events (each with its id, for
   * deduplication, and its output encoded as JSON data). A rejected delivery answers 4xx
   * (413 over the size limit, 401 for a bad signature) and has no events. A trigger whose
   * provider signs deliveries (`signedWith`) answers 401 to every one while its connection has
   * no signing secret, unless `allowUnsigned` (the operator's explicit choice) is set.
   */
  readonly handleDelivery: (
    trigger: TriggerStep,
    state: unknown,
    request: Trigger.WebhookRequest,
    options?: { readonly allowUnsigned?: boolean | undefined }
  ) => Effect.Effect<Delivery, ConnectorError, Connections>
  /**
   * Polls a polling trigger from its stored cursor and returns the events and the next cursor
   * (JSON data, to be stored once the events are). Without a cursor (the first poll) it sets
   * the baseline: no events. `Polling.run` drives it on the trigger's interval.
   */
  readonly poll: (
    trigger: TriggerStep,
    cursor: unknown
  ) => Effect.Effect<
    { readonly events: ReadonlyArray<Trigger.TriggerEvent<unknown>>; readonly cursor: unknown },
    ConnectorError,
    Connections
  >
  /** Sample events of a trigger of any kind, read now (nothing enabled or stored); `InvalidInput` if it offers none. */
  readonly sample: (trigger: TriggerStep) => Effect.Effect<ReadonlyArray<Trigger.TriggerEvent<unknown>>, ConnectorError, Connections>
  /**
   * Tests a component's connection (from `Connections`, as its actions get it) with the request
   * its connection declares (`ConnectionTest`): what the answer says about the credentials, or
   * a `ConnectionTestFailed` naming the connection, whether the credentials were refused or
   * the provider not reached, and what to do.
   *
   * @since 0.3.0
   */
  readonly testConnection: (
    component: Component.Component,
    /** A named connection of the component to test instead of its default (@since 0.8.0). */
    connection?: string | undefined
  ) => Effect.Effect<ConnectionTest.Result, ConnectionTest.ConnectionTestFailed, Connections>
}

/**
 * How an executor treats what it receives.
 *
 * @since 0.2.0
 * @category models
 */
export interface Settings {
  /** The largest webhook delivery accepted; larger ones are answered 413. Default 1 MiB. */
  readonly maxDeliveryBytes?: number
}

const asScrubbed = (_output: unknown, _encoded: unknown, scrubbed: unknown) => scrubbed

/**
 * An executor of these components' steps. It needs the `Connections` service to run them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  components: ReadonlyArray<Component.Component> | Registry.Registry,
  settings: Settings = {}
): Executor => {
  const registry = Array.isArray(components)
    ? Registry.make(components as ReadonlyArray<Component.Component>)
    : components as Registry.Registry

  const prepare: Executor["prepare"] = (input) => {
    const step = Step.decode(input)
    if (Either.isLeft(step)) return Either.left(step.left)
    const resolved = registry.action(step.right.type)
    if (Either.isLeft(resolved)) return Either.left(inStep(step.right, resolved.left))
    return Either.right({ step: step.right, component: resolved.right.component, action: resolved.right.definition })
  }

  const decodeParameters: Executor["decodeParameters"] = (prepared, parameters) =>
    Either.map(
      Either.mapLeft(prepared.action.decode(parameters), (error) => inStep(prepared.step, error)),
      (params) => ({ ...prepared, params })
    )

  /** Runs a step with its decoded parameters on the fiber that runs it (no object built for them on the way: a hot path). */
  const executeOn = (
    fiber: Fiber.RuntimeFiber<unknown, unknown>,
    { action, component, step }: Prepared,
    params: Readonly<Record<string, unknown>>
  ): Effect.Effect<unknown, ConnectorError> =>
    flatMapNow(Context.get(fiber.currentContext as Context.Context<Connections>, Connections).get(component, step.connection), (opened) =>
      internal.execute(opened, action, params, step.type, asScrubbed))

  // The service read in one step of the fiber's (`contextWithEffect` takes two).
  const execute = (prepared: Prepared, params: Readonly<Record<string, unknown>>) =>
    Effect.withFiberRuntime((fiber) => executeOn(fiber, prepared, params)) as Effect.Effect<unknown, ConnectorError, Connections>

  const runDecoded: Executor["runDecoded"] = (decoded) => execute(decoded, decoded.params)

  /** The step's parameters decoded and given to `f`, or their failure in the step's name. */
  const decoded = <A, R>(
    prepared: Prepared,
    parameters: unknown,
    f: (params: Readonly<Record<string, unknown>>) => Effect.Effect<A, ConnectorError, R>
  ): Effect.Effect<A, ConnectorError, R> => {
    const params = prepared.action.decode(parameters)
    return Either.isLeft(params) ? Effect.fail(inStep(prepared.step, params.left)) : f(params.right)
  }

  const runPrepared: Executor["runPrepared"] = (prepared, parameters) =>
    decoded(prepared, parameters, (params) => execute(prepared, params))

  const reconcilePrepared: Executor["reconcilePrepared"] = (prepared, parameters, since) =>
    decoded(prepared, parameters, (params) =>
      Effect.flatMap(Connections, (connections) =>
        Effect.flatMap(connections.get(prepared.component, prepared.step.connection), (opened) =>
          internal.reconcile(opened, prepared.action, params, prepared.step.type, { since }, asScrubbed))))

  // Checked and run in one step of the fiber's.
  const run: Executor["run"] = (input) =>
    Effect.withFiberRuntime((fiber) => {
      const prepared = prepare(input)
      if (Either.isLeft(prepared)) return Effect.fail(prepared.left)
      return decoded(prepared.right, prepared.right.step.parameters, (params) => executeOn(fiber, prepared.right, params))
    }) as Effect.Effect<unknown, ConnectorError, Connections>

  const options: Executor["options"] = (type, property, params) => internal.options(registry, type, property, params)

  const fields: Executor["fields"] = (type, property, params) => PropertyGroups.fields(registry, type, property, params)

  const testConnection: Executor["testConnection"] = (component, connection) =>
    Effect.flatMap(Connections, (connections) => internalConnectionTest.run(component, connections.get(component, connection), connection))

  const triggers = internal.makeTriggers(registry, settings.maxDeliveryBytes)
  return { registry, prepare, decodeParameters, runDecoded, runPrepared, run, reconcilePrepared, options, fields, testConnection, ...triggers }
}

/**
 * Whether a prepared step's action can find what an attempt cut short created (`reconcilePrepared`).
 *
 * @since 0.2.0
 * @category utils
 */
export const reconcilable = (prepared: Prepared): boolean => prepared.action.reconcile !== undefined
