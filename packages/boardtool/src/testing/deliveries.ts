/**
 * Webhook deliveries as Trello makes them: a signed POST (`X-Trello-Webhook`, base64
 * HMAC-SHA1 of the body and the callback URL, keyed with the app secret) of `{action, model}`
 * to each active webhook watching a model the action is about, retried up to 3 times on a
 * failure, the webhook deleted on a 410, and turned off after too many failures in a row (when
 * the simulator is told how many).
 */
import { WebhookSender } from "@x/core/testing"
import { createHmac } from "node:crypto"
import type { Webhook } from "./store.js"

export interface Delivery {
  readonly webhookId: string
  readonly actionId: string
  readonly attempt: number
  /** The callback's answer, or "error" when it could not be reached. */
  readonly status: number | "error"
}

export const make = (options: {
  readonly secret: string
  readonly webhooks: Map<string, Webhook>
  readonly retries: number
  readonly retryDelayMs: number
  readonly deactivateAfterFailures?: number | undefined
}) => {
  const { secret, webhooks } = options
  const deliveries: Array<Delivery> = []
  const sender = WebhookSender.make({ retries: options.retries, retryDelayMs: options.retryDelayMs })
  const sign = (body: string, callbackURL: string) => createHmac("sha1", secret).update(body + callbackURL, "utf8").digest("base64")

  const deliver = (webhook: Webhook, payload: object, actionId: string) => {
    const body = JSON.stringify(payload)
    void sender.deliver({
      url: webhook.callbackURL,
      headers: { "content-type": "application/json", "x-trello-webhook": sign(body, webhook.callbackURL) },
      body,
      stillWanted: () => webhooks.has(webhook.id),
      onAttempt: ({ attempt, status }) => {
        deliveries.push({ webhookId: webhook.id, actionId, attempt, status })
        // A 410 deletes the webhook; any other failure counts, and is retried.
        if (status === 410) {
          webhooks.delete(webhook.id)
          return false
        }
        const failed = status === "error" || status < 200 || status > 299
        webhook.consecutiveFailures = failed ? webhook.consecutiveFailures + 1 : 0
        // Trello turns off a webhook whose deliveries keep failing: nothing more is sent to it.
        if (options.deactivateAfterFailures !== undefined && webhook.consecutiveFailures >= options.deactivateAfterFailures) {
          webhook.active = false
          return false
        }
        return failed
      }
    })
  }

  return { deliveries, deliver, idle: sender.idle, close: sender.close }
}
