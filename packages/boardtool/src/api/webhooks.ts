/**
 * Trello's webhooks (REST API 1): one per model and callback URL, found again by the token that
 * made it, reactivated rather than doubled.
 */
import { Auth, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest

const Webhook = Schema.Struct({
  id: Schema.String,
  idModel: Schema.optional(Schema.String),
  callbackURL: Schema.optional(Schema.String),
  active: Schema.optional(Schema.Boolean)
})

const createWebhook = (
  client: ProviderClient.ProviderClient,
  webhook: { callbackURL: string; idModel: string; description: string }
) => client.json({ method: "POST", path: "/webhooks", query: webhook }, Webhook)

export const deleteWebhook = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/webhooks/${id}` })

/** The webhooks a token created (Trello lists them by the token itself, in the path). */
const tokenWebhooks = (client: ProviderClient.ProviderClient, token: Auth.SecretValue) =>
  client.json({ method: "GET", path: path`/tokens/${Auth.reveal(token)}/webhooks` }, Schema.Array(Webhook))

const activateWebhook = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "PUT", path: path`/webhooks/${id}`, query: { active: true } }, Webhook)

/**
 * The token's webhook on this model with this callback URL, reactivated if Trello turned it
 * off; a new one only when there is none. Re-enabling (a restart that lost the state, a
 * workflow enabled twice) must neither register a second webhook that fires twice nor fail
 * on Trello's 400 to a duplicate.
 */
export const ensureWebhook = (
  client: ProviderClient.ProviderClient,
  token: Auth.SecretValue,
  webhook: { callbackURL: string; idModel: string; description: string }
) =>
  Effect.flatMap(tokenWebhooks(client, token), (webhooks) => {
    const found = webhooks.find((w) =>
      w.callbackURL === webhook.callbackURL && w.idModel?.toLowerCase() === webhook.idModel.toLowerCase()
    )
    if (found === undefined) return createWebhook(client, webhook)
    return found.active === false ? activateWebhook(client, found.id) : Effect.succeed(found)
  })

/**
 * Whether a webhook still delivers, as Trello says (`GET /webhooks/{id}`): Trello sets `active`
 * to false on a webhook whose deliveries keep failing, and a deleted one is not found.
 */
export const registration = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/webhooks/${id}` }, Webhook).pipe(
    Effect.map((webhook): "active" | "inactive" => webhook.active === false ? "inactive" : "active"),
    Effect.catchTag("NotFound", () => Effect.succeed("gone" as const))
  )
