/**
 * A trigger: like an action, plus its kind and lifecycle. A dynamic webhook is registered
 * with the provider on enable, removed on disable, and turns each delivery into events; a
 * static webhook's URL is registered by hand in the provider's dashboard, so it only verifies
 * and parses deliveries; a polling trigger fetches what is new since its cursor; a schedule
 * fires on the ticks of a cron expression, asking no provider anything.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Cron from "effect/Cron"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Action from "./Action.js"
import type * as Connection from "./Connection.js"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"
import type { ProviderClient } from "./ProviderClient.js"
import type { DeliveryRejected, UrlCheck } from "./Webhook.js"

/**
 * An incoming webhook delivery, as received: the raw body is what signatures cover.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebhookRequest {
  readonly method: string
  /** The callback URL the webhook was registered with, exactly. */
  readonly url: string
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
}

/**
 * What the trigger's URL answers a delivery.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebhookResponse {
  readonly status: number
  readonly body?: string
}

/**
 * One event a trigger emits; `id` identifies it, so a redelivery is not run twice.
 *
 * @since 0.1.0
 * @category models
 */
export interface TriggerEvent<A> {
  readonly id: string
  readonly output: A
}

/**
 * What a trigger's lifecycle functions run with: decoded params, the provider client, the connection's decoded values.
 *
 * @since 0.1.0
 * @category models
 */
export interface TriggerContext<P extends Property.Properties, C = Readonly<Record<string, unknown>>> {
  readonly params: Property.Params<P>
  /** The connection's provider client. */
  readonly client: ProviderClient
  /** The connection's decoded values (e.g. an app secret that signs deliveries), typed by the connection declared. */
  readonly connection: C
}

interface TriggerCommon<P extends Property.Properties, A> {
  /** The connection the trigger declares it runs with, if it declares one. */
  readonly connection?: Connection.Connection<any> | undefined
  readonly name: string
  readonly title: string
  readonly description: string
  readonly props: P
  readonly output: Schema.Schema<A, any>
  /** The OAuth2 scopes it needs (to register its webhook, to read what it emits), for connections that have scopes. */
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly decode: (params: unknown) => Either.Either<Property.Params<P>, InvalidInput>
  /** Set when the trigger is on its way out (as an action's `deprecated`); checked when it is defined. */
  readonly deprecated?: Action.Deprecation | undefined
}

/**
 * What any trigger may offer: sample events without waiting for one ("test this trigger").
 *
 * @since 0.2.0
 * @category models
 */
export interface Sampled<P extends Property.Properties, A, C> {
  /**
   * The most recent records the trigger would emit, as events (the newest first), read from
   * the provider now; nothing is enabled, stored or marked as seen.
   */
  readonly sample?: ((context: TriggerContext<P, C>) => Effect.Effect<ReadonlyArray<TriggerEvent<A>>, ConnectorError>) | undefined
}

/**
 * What a webhook trigger declares when its provider signs deliveries: the connection field that
 * holds the signing secret. The executor refuses (401) every delivery while that field has no
 * value, unless it is told to accept unsigned ones (`handleDelivery`'s `allowUnsigned`), and
 * whoever serves the trigger can refuse to start without it.
 *
 * @since 0.4.0
 * @category models
 */
export interface Signed {
  readonly signedWith?: string | undefined
}

/**
 * What the provider says of a registered webhook: it delivers (`active`), it was turned off and
 * delivers nothing (`inactive`: Trello does that to a webhook whose deliveries keep failing), or
 * it is gone. Whoever serves the trigger enables it again unless it is `active`.
 *
 * @since 0.8.0
 * @category models
 */
export type Registration = "active" | "inactive" | "gone"

/**
 * A trigger the provider is told about: enable registers a webhook, disable removes it, handle turns a delivery into events.
 *
 * @since 0.1.0
 * @category models
 */
export interface DynamicWebhookTrigger<P extends Property.Properties = any, A = any, S = any, C = any>
  extends TriggerCommon<P, A>, Sampled<P, A, C>, Signed
{
  readonly kind: "DYNAMIC_WEBHOOK"
  /** How the provider checks the callback URL before it registers it (e.g. `Webhook.headCheck`), if it does. */
  readonly urlCheck?: UrlCheck | undefined
  /** The Schema of the state `enable` returns, so that it can be stored between runs. */
  readonly state: Schema.Schema<S, any>
  /** Registers the webhook with the provider. */
  readonly enable: (
    context: TriggerContext<P, C> & { readonly webhookUrl: string }
  ) => Effect.Effect<S, ConnectorError>
  /** Removes it; a webhook that is already gone is not an error. */
  readonly disable: (context: TriggerContext<P, C> & { readonly state: S }) => Effect.Effect<void, ConnectorError>
  /**
   * Verifies one delivery and turns it into events. A delivery that fails a check fails with
   * `DeliveryRejected`: the executor answers its status and message, and emits no events.
   */
  readonly handle: (
    context: TriggerContext<P, C> & { readonly state: S; readonly request: WebhookRequest }
  ) => Effect.Effect<
    { readonly response: WebhookResponse; readonly events: ReadonlyArray<TriggerEvent<A>> },
    ConnectorError | DeliveryRejected
  >
  /**
   * Whether the registration `enable` returned still delivers, as the provider says; without it
   * the registration is trusted. `enable` must re-activate or re-register what this finds
   * `inactive` or `gone` (it is called again for that).
   */
  readonly check?: ((context: TriggerContext<P, C> & { readonly state: S }) => Effect.Effect<Registration, ConnectorError>) | undefined
  /**
   * The events that happened since a time, as the provider lists them, oldest first, each with
   * the id a delivery of it would have (so one delivered too is one event): what whoever serves
   * the trigger runs after a stop, or after the webhook was found inactive. Without it, events
   * that happened while nothing served are lost.
   */
  readonly catchUp?: ((context: TriggerContext<P, C> & { readonly since: Date }) => Effect.Effect<ReadonlyArray<TriggerEvent<A>>, ConnectorError>) | undefined
}

/**
 * Whether a trigger lists the events it missed while nothing served it (a dynamic webhook's
 * `catchUp`; a polling trigger's cursor does it by itself, a schedule has its `missed` policy).
 *
 * @since 0.8.0
 * @category utils
 */
export const catchesUp = (trigger: Trigger): boolean =>
  trigger.kind === "POLLING" || (trigger.kind === "DYNAMIC_WEBHOOK" && trigger.catchUp !== undefined)

/**
 * A trigger that asks the provider what is new since its cursor, on an interval; the first poll
 * sets the baseline (its events are dropped: no flood of history), and every event carries an
 * id, by which whoever runs them drops one seen before.
 *
 * @since 0.1.0
 * @category models
 */
export interface PollingTrigger<P extends Property.Properties = any, A = any, C = any, V = any>
  extends TriggerCommon<P, A>, Sampled<P, A, V>
{
  readonly kind: "POLLING"
  /** How often to poll, as the provider's limits and the events' urgency suggest (e.g. "5 minutes"). */
  readonly interval: Duration.DurationInput
  /** The Schema of the cursor kept between polls (stored as JSON data, so that it survives a restart). */
  readonly cursor: Schema.Schema<C, any>
  /**
   * Fetches what is new since `cursor` (undefined on the first poll, which sets the baseline).
   * Time is read from `Clock`, so that a test can drive it.
   */
  readonly poll: (
    context: TriggerContext<P, V> & { readonly cursor: C | undefined }
  ) => Effect.Effect<
    { readonly events: ReadonlyArray<TriggerEvent<A>>; readonly cursor: C },
    ConnectorError
  >
}

/**
 * A trigger whose URL the user registers by hand (in the provider's dashboard): nothing to
 * enable or disable, no state; `handle` verifies a delivery (the signing secret is part of the
 * connection) and turns it into events.
 *
 * @since 0.2.0
 * @category models
 */
export interface StaticWebhookTrigger<P extends Property.Properties = any, A = any, C = any>
  extends TriggerCommon<P, A>, Sampled<P, A, C>, Signed
{
  readonly kind: "STATIC_WEBHOOK"
  /** Where the user pastes the trigger's URL at the provider (shown by `serve` and `describe`). */
  readonly setup: string
  /**
   * Verifies one delivery and turns it into events. A delivery that fails a check fails with
   * `DeliveryRejected`: the executor answers its status and message, and emits no events.
   */
  readonly handle: (
    context: TriggerContext<P, C> & { readonly request: WebhookRequest }
  ) => Effect.Effect<
    { readonly response: WebhookResponse; readonly events: ReadonlyArray<TriggerEvent<A>> },
    ConnectorError | DeliveryRejected
  >
}

/**
 * What a schedule does with the ticks that came due while nothing served it: none of them run
 * (`skip`), or the newest of them runs once (`runLast`). Ticks that come due while it is served
 * all run, even late.
 *
 * @since 0.7.0
 * @category models
 */
export type MissedTicks = "skip" | "runLast"

/**
 * The event of one tick of a schedule: when it was due and when it fired, as ISO 8601 texts
 * (UTC). Its event id is `scheduledAt`, so a tick is one run however often it is fired.
 *
 * @since 0.7.0
 * @category schemas
 */
export const Tick = Schema.Struct({
  scheduledAt: Schema.String.annotations({ description: "When the tick was due (ISO 8601, UTC)" }),
  firedAt: Schema.String.annotations({ description: "When it fired (ISO 8601, UTC): later than scheduledAt by the runner's delay" })
}).annotations({ identifier: "Tick" })

/**
 * The event of one tick of a schedule.
 *
 * @since 0.7.0
 * @category models
 */
export type Tick = typeof Tick.Type

/**
 * A trigger that fires on the ticks of a cron expression (in its time zone), as its parameters
 * give them; whoever serves it waits for each tick and runs it once, keyed by its time.
 *
 * @since 0.7.0
 * @category models
 */
export interface ScheduleTrigger<P extends Property.Properties = any, C = any>
  extends TriggerCommon<P, Tick>, Sampled<P, Tick, C>
{
  readonly kind: "SCHEDULE"
  /** The ticks, from the decoded parameters (their check refuses what does not parse). */
  readonly cron: (params: Property.Params<P>) => Cron.Cron
  /** What to do with the ticks missed while nothing served the trigger. */
  readonly missed: (params: Property.Params<P>) => MissedTicks
}

/**
 * The ticks of a cron after a time, the first `count` of them, as events (`firedAt` is the
 * tick's own time: nothing fired yet).
 *
 * @since 0.7.0
 * @category utils
 */
export const nextTicks = (cron: Cron.Cron, after: Date, count: number): ReadonlyArray<TriggerEvent<Tick>> => {
  const ticks: Array<TriggerEvent<Tick>> = []
  let from = after
  for (let i = 0; i < count; i++) {
    from = Cron.next(cron, from)
    const at = from.toISOString()
    ticks.push({ id: at, output: { scheduledAt: at, firedAt: at } })
  }
  return ticks
}

/**
 * Any trigger.
 *
 * @since 0.1.0
 * @category models
 */
export type Trigger = DynamicWebhookTrigger | PollingTrigger | StaticWebhookTrigger | ScheduleTrigger

/**
 * Defines a dynamic-webhook trigger; its parameter decoder is compiled once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const dynamicWebhook = <P extends Property.Properties, A, S, C extends Property.Properties = Property.Properties>(
  config:
    & Omit<DynamicWebhookTrigger<P, A, S, Property.Params<Connection.WithBaseUrl<C>>>, "kind" | "decode" | "connection">
    & { readonly validate?: Property.Validate<P>; readonly connection?: Connection.Connection<C>; readonly signedWith?: Extract<keyof C, string> }
): DynamicWebhookTrigger<P, A, S> => ({
  ...config,
  kind: "DYNAMIC_WEBHOOK",
  decode: Property.decoder(config.props, config.name, config.validate),
  deprecated: Action.checkDeprecation(config.name, config.deprecated)
})

/**
 * Defines a polling trigger; its parameter decoder is compiled once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const polling = <P extends Property.Properties, A, C, V extends Property.Properties = Property.Properties>(
  config:
    & Omit<PollingTrigger<P, A, C, Property.Params<Connection.WithBaseUrl<V>>>, "kind" | "decode" | "connection">
    & { readonly validate?: Property.Validate<P>; readonly connection?: Connection.Connection<V> }
): PollingTrigger<P, A, C> => ({
  ...config,
  kind: "POLLING",
  decode: Property.decoder(config.props, config.name, config.validate),
  deprecated: Action.checkDeprecation(config.name, config.deprecated)
})

/**
 * Defines a static-webhook trigger (its URL registered by hand); its parameter decoder is compiled once.
 *
 * @since 0.2.0
 * @category constructors
 */
export const staticWebhook = <P extends Property.Properties, A, C extends Property.Properties = Property.Properties>(
  config:
    & Omit<StaticWebhookTrigger<P, A, Property.Params<Connection.WithBaseUrl<C>>>, "kind" | "decode" | "connection">
    & { readonly validate?: Property.Validate<P>; readonly connection?: Connection.Connection<C>; readonly signedWith?: Extract<keyof C, string> }
): StaticWebhookTrigger<P, A> => ({
  ...config,
  kind: "STATIC_WEBHOOK",
  decode: Property.decoder(config.props, config.name, config.validate),
  deprecated: Action.checkDeprecation(config.name, config.deprecated)
})

/**
 * Defines a schedule trigger; its parameter decoder is compiled once, and its sample data is
 * its next five ticks, from the `Clock`'s time.
 *
 * @since 0.7.0
 * @category constructors
 */
export const schedule = <P extends Property.Properties>(
  config:
    & Omit<ScheduleTrigger<P>, "kind" | "decode" | "connection" | "output" | "sample">
    & { readonly validate?: Property.Validate<P>; readonly connection?: Connection.Connection<any> }
): ScheduleTrigger<P> => ({
  ...config,
  kind: "SCHEDULE",
  output: Tick,
  sample: ({ params }) => Effect.map(Clock.currentTimeMillis, (now) => nextTicks(config.cron(params), new Date(now), 5)),
  decode: Property.decoder(config.props, config.name, config.validate),
  deprecated: Action.checkDeprecation(config.name, config.deprecated)
})
