/**
 * The factory of sitebuilder's triggers: each is one of Webflow's webhook events on a site.
 * Each trigger says its `triggerType`, its payload's Schema, what makes one event unique (so
 * that Webflow's redelivery of it is one event), which events are its own (by its params), and
 * what its sample reads; the factory does the rest once for all of them: enable (the site's
 * webhook with the same URL, type and filter reused, else one created), disable (a webhook
 * already gone is fine), and each delivery verified before anything runs: `x-webflow-signature`
 * is the hex HMAC-SHA256 of `"<x-webflow-timestamp>:<raw body>"` keyed with the connection's
 * OAuth client secret, compared in constant time, and a timestamp more than 5 minutes from now
 * is refused (a forged, altered or replayed delivery is a 401 and runs nothing). `check` asks
 * whether the webhook is still there; a trigger that declares its `history` (the records
 * Webflow lists and each one's time) catches up what happened while nothing served it.
 */
import { type ConnectorError, type Property, type ProviderClient, Trigger, Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Webhooks from "../api/webhooks.js"
import { connection } from "../connection.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

/** Every trigger's site: its webhooks are the site's. */
const siteProps = { siteId: Props.siteId(true) }
type SiteProps<P extends Property.Properties> = typeof siteProps & P
/** The site of a trigger's params (typed generically, TypeScript cannot see `siteId` among them). */
const siteOf = (params: unknown) => (params as Property.Params<typeof siteProps>).siteId

export interface WebhookTrigger<P extends Property.Properties, A> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** Its props besides the site. */
  readonly props: P
  readonly triggerType: Webhooks.TriggerType
  /** The scope that reads what its events carry (besides `sites:write`, which registers the webhook). */
  readonly readScope: string
  /** The Schema of the delivery's `payload`; the event's output is what it decodes to. */
  readonly payload: Schema.Schema<A, any>
  /** The output's Schema when the payload's is a transformation (else the payload's). */
  readonly output?: Schema.Schema<A, any>
  /** What makes the event unique: a redelivery of it has the same id. */
  readonly id: (event: A) => string
  /** The webhook's `filter` (form_submission only). */
  readonly filter?: (params: Property.Params<SiteProps<P>>) => Webhooks.Filter | undefined
  /** Whether an event is this trigger's, by its params (a collection ...). */
  readonly matches?: (event: A, params: Property.Params<SiteProps<P>>) => boolean
  /** Its most recent records, newest first, as its events would carry them; none where nothing can be read. */
  readonly recent?: (
    client: ProviderClient.ProviderClient,
    params: Property.Params<SiteProps<P>>
  ) => Effect.Effect<ReadonlyArray<A>, ConnectorError.ConnectorError>
  /**
   * Its records as Webflow lists them (any order; as its events would carry them, so each has
   * the id its delivery has) and when each one's event happened (none: it is not this
   * trigger's event). With it the trigger catches up: the events since a time, oldest first.
   * Without it, what happens while nothing serves the trigger is lost.
   */
  readonly history?: {
    readonly records: (
      client: ProviderClient.ProviderClient,
      params: Property.Params<SiteProps<P>>
    ) => Effect.Effect<ReadonlyArray<A>, ConnectorError.ConnectorError>
    readonly happenedAt: (record: A) => string | null | undefined
  }
}

export const make = <P extends Property.Properties, A>(config: WebhookTrigger<P, A>) => {
  const readDelivery = Schema.decodeUnknownEither(Schema.parseJson(Schema.Struct({ triggerType: Schema.String, payload: Schema.Unknown })))
  const readPayload = Schema.decodeUnknownEither(config.payload)
  const eventsOf = (records: ReadonlyArray<A>, params: Property.Params<SiteProps<P>>) =>
    records.filter((record) => config.matches?.(record, params) ?? true).map((output) => ({ id: config.id(output), output }))
  const recent = config.recent
  const history = config.history
  /** The records whose event happened at or after `since`, oldest first. */
  const since = (records: ReadonlyArray<A>, happenedAt: (record: A) => string | null | undefined, time: Date) =>
    records
      .flatMap((record) => {
        const at = happenedAt(record)
        const ms = at == null ? Number.NaN : Date.parse(at)
        return Number.isNaN(ms) || ms < time.getTime() ? [] : [{ record, ms }]
      })
      .sort((a, b) => a.ms - b.ms)
      .map(({ record }) => record)

  return Trigger.dynamicWebhook({
    name: config.name,
    title: config.title,
    // The webhook's type names the event in Webflow's documents and dashboard.
    description: `${config.description} Webflow's \`${config.triggerType}\` webhook.`,
    connection,
    props: { ...siteProps, ...config.props } as SiteProps<P>,
    output: config.output ?? config.payload,
    // Listing and deleting webhooks is `sites:read`, creating one `sites:write`; the site is a dropdown of sites.
    scopes: [...new Set([Scopes.sitesWrite, Scopes.sitesRead, config.readScope])],
    state: Schema.Struct({ webhookId: Schema.String }),
    // Webflow signs an app's webhooks with its OAuth client secret.
    signedWith: "clientSecret",

    enable: ({ client, params, webhookUrl }) =>
      Effect.map(
        Webhooks.ensureWebhook(client, { siteId: siteOf(params), triggerType: config.triggerType, url: webhookUrl, filter: config.filter?.(params) }),
        (webhook) => ({ webhookId: webhook.id })
      ),

    // A webhook that is already gone is what disabling wants.
    disable: ({ client, state }) => Webhooks.deleteWebhook(client, state.webhookId).pipe(Effect.catchTag("NotFound", () => Effect.void)),

    // Deleted (by hand, or with its site): `enable` registers it again.
    check: ({ client, state }) => Webhooks.registration(client, state.webhookId),

    ...(history === undefined ? {} : {
      // What the webhook would have delivered since then, oldest first, with a delivery's ids.
      catchUp: ({ client, params, since: time }: { client: ProviderClient.ProviderClient; params: Property.Params<SiteProps<P>>; since: Date }) =>
        Effect.map(history.records(client, params), (records) => eventsOf(since(records, history.happenedAt, time), params))
    }),

    ...(recent === undefined ? {} : {
      sample: ({ client, params }: { client: ProviderClient.ProviderClient; params: Property.Params<SiteProps<P>> }) =>
        Effect.map(recent(client, params), (records) => eventsOf(records, params).slice(0, Webhooks.sampleSize))
    }),

    handle: ({ connection, params, request }) =>
      Effect.gen(function*() {
        yield* Webhook.verifyHmacSha256Hex({
          secret: connection.clientSecret,
          body: request.body,
          timestamp: request.headers["x-webflow-timestamp"],
          signature: request.headers["x-webflow-signature"]
        })
        const notOurs = { response: { status: 400, body: `not a Webflow ${config.triggerType} delivery` }, events: [] }
        const delivery = readDelivery(new TextDecoder().decode(request.body))
        if (Either.isLeft(delivery)) return notOurs
        // Another event type (a webhook registered by hand on this URL): answered, so that Webflow does not retry it.
        if (delivery.right.triggerType !== config.triggerType) return { response: { status: 200 }, events: [] }
        const payload = readPayload(delivery.right.payload)
        return Either.isLeft(payload) ? notOurs : { response: { status: 200 }, events: eventsOf([payload.right], params) }
      })
  })
}

/** Webflow ids are hexadecimal: the same id in either case. */
export const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()
