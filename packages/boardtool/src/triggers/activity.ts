/**
 * The factory of boardtool's webhook triggers. Each trigger says which model its webhook is on,
 * which of Trello's action types it fires on, which of those are its own (by its params), and
 * what its event outputs; the factory does the rest, once for all of them: one webhook per model
 * and callback URL (the token's own reused, reactivated if Trello turned it off), disable (a
 * webhook already gone is fine), Trello's HEAD check, the signature, decoding the delivery, the
 * event id (Trello's action id, so a redelivery is one event), the check that the webhook still
 * delivers, the catch-up of the actions it missed (listed as Trello lists them), the read-back of what a delivery
 * lacks (paced by the connection's rate limits, as every request), and the sample (the model's
 * latest matching actions, turned into events as a delivery would be).
 */
import { type ConnectorError, type Property, type ProviderClient, Trigger, Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Shared from "../api/shared.js"
import * as Webhooks from "../api/webhooks.js"
import { actionsSince, Delivery, type Model, recentActions, type TrelloAction } from "../api/activity.js"
import { connection } from "../connection.js"

const readDelivery = Schema.decodeUnknownEither(Schema.parseJson(Delivery))

/** Trello ids are hexadecimal: the same id in either case. */
export const same = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.toLowerCase() === b.toLowerCase()

/** How many of a model's latest actions `sample` looks through for its matching ones. */
const sampleScan = 50

export interface ActivityTrigger<P extends Property.Properties, A> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The webhook's description at Trello, before " on <model> <id>" (e.g. "New cards"). */
  readonly summary: string
  readonly props: P
  readonly validate?: Property.Validate<P>
  /** The model the webhook is on. */
  readonly model: (params: Property.Params<P>) => Model
  /** Trello's action types it fires on; none is every type. */
  readonly types: ReadonlyArray<string> | ((params: Property.Params<P>) => ReadonlyArray<string>)
  /** Whether an action of those types is this trigger's, by its params (the list a card moved to, a label ...). */
  readonly matches?: (action: TrelloAction, params: Property.Params<P>) => boolean
  readonly output: Schema.Schema<A, any>
  /**
   * The event's output: the action's data, and what a delivery lacks read back. `undefined` is
   * no event (the record is not the trigger's after all); a record deleted since is none either.
   */
  readonly read: (
    action: TrelloAction,
    context: { readonly client: ProviderClient.ProviderClient; readonly params: Property.Params<P> }
  ) => Effect.Effect<A | undefined, ConnectorError.ConnectorError>
}

export const make = <P extends Property.Properties, A>(config: ActivityTrigger<P, A>) => {
  const typesOf = (params: Property.Params<P>) => typeof config.types === "function" ? config.types(params) : config.types
  const isOurs = (action: TrelloAction, params: Property.Params<P>) => {
    const types = typesOf(params)
    return (types.length === 0 || types.includes(action.type)) && (config.matches?.(action, params) ?? true)
  }
  // Deleted since the action (or not readable any more): no event, and no failure that would make Trello retry.
  const eventOf = (action: TrelloAction, client: ProviderClient.ProviderClient, params: Property.Params<P>) =>
    config.read(action, { client, params }).pipe(
      Effect.catchTag("NotFound", () => Effect.succeed(undefined)),
      Effect.map((output) => (output === undefined ? [] : [{ id: action.id, output }]))
    )

  return Trigger.dynamicWebhook({
    name: config.name,
    title: config.title,
    // Trello's action types name what it fires on in Trello's documents (boardActivity's are chosen).
    description: typeof config.types !== "function" && config.types.length > 0
      ? `${config.description} Trello's actions: ${config.types.map((type) => `\`${type}\``).join(", ")}.`
      : config.description,
    connection,
    props: config.props,
    ...(config.validate === undefined ? {} : { validate: config.validate }),
    output: config.output,
    state: Schema.Struct({ webhookId: Schema.String }),
    // Trello checks the callback URL with a HEAD before it creates the webhook.
    urlCheck: Webhook.headCheck,
    // Trello signs with the app's secret, which the connection may lack: then the executor
    // refuses every delivery, unless the operator chose to accept unsigned ones.
    signedWith: "secret",

    // The token's webhook for this model and URL if it has one: a second would fire twice.
    enable: ({ client, connection, params, webhookUrl }) => {
      const model = config.model(params)
      return Effect.map(
        Webhooks.ensureWebhook(client, connection.token, {
          callbackURL: webhookUrl,
          idModel: model.id,
          description: `${config.summary} on ${model.kind} ${model.id}`
        }),
        (webhook) => ({ webhookId: webhook.id })
      )
    },

    // A webhook that is already gone is what disabling wants.
    disable: ({ client, state }) =>
      Webhooks.deleteWebhook(client, state.webhookId).pipe(Effect.catchTag("NotFound", () => Effect.void)),

    // Turned off by Trello (deliveries kept failing) or deleted: `enable` finds it again and re-activates it, or registers a new one.
    check: ({ client, state }) => Webhooks.registration(client, state.webhookId),

    // What the webhook would have delivered since then, oldest first, as a delivery of each
    // would give it (the same event id: Trello's action id).
    catchUp: ({ client, params, since }) =>
      Effect.gen(function*() {
        const actions = yield* actionsSince(client, config.model(params), typesOf(params), since)
        const events: Array<{ id: string; output: A }> = []
        for (const action of actions) {
          if (isOurs(action, params)) events.push(...(yield* eventOf(action, client, params)))
        }
        return events
      }),

    // The latest matching actions, newest first, as events: what a delivery of each would give.
    sample: ({ client, params }) =>
      Effect.gen(function*() {
        const actions = yield* recentActions(client, config.model(params), typesOf(params), sampleScan)
        const events: Array<{ id: string; output: A }> = []
        for (const action of actions) {
          if (events.length >= Shared.sampleSize) break
          if (isOurs(action, params)) events.push(...(yield* eventOf(action, client, params)))
        }
        return events
      }),

    handle: ({ client, connection, params, request }) =>
      Effect.gen(function*() {
        // Without the secret the executor hands a delivery here only if unsigned ones are allowed.
        if (connection.secret !== undefined) {
          yield* Webhook.verifyHmacSha1Base64({
            secret: connection.secret,
            body: request.body,
            callbackUrl: request.url,
            signature: request.headers["x-trello-webhook"]
          })
        }
        const delivery = readDelivery(new TextDecoder().decode(request.body))
        if (Either.isLeft(delivery)) return { response: { status: 400, body: "not a Trello delivery" }, events: [] }
        const { action } = delivery.right
        const events = isOurs(action, params) ? yield* eventOf(action, client, params) : []
        return { response: { status: 200 }, events }
      })
  })
}
