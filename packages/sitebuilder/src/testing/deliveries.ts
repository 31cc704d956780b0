/**
 * Webhook deliveries as Webflow makes them: every event a change emits is POSTed to each of the
 * site's webhooks of its `triggerType` (a `form_submission` one with a filter only for the form
 * of that name) as `{"triggerType": …, "payload": …}`, with `x-webflow-timestamp` (ms since
 * the epoch) and `x-webflow-signature` (hex HMAC-SHA256 of `"<timestamp>:<raw body>"`, keyed
 * with the OAuth app's client secret). Webflow counts any answer but a 200 as a failure (a
 * redirect too) and tries again 3 more times, 10 minutes apart ("Limits and retries" of its
 * webhook docs); the wait is shorter in tests. The signature is made once per delivery, as a
 * retry resends the same request.
 */
import { WebhookSender } from "@x/core/testing"
import { createHmac } from "node:crypto"
import type { Event, Store, Webhook } from "./store.js"

export interface Delivery {
  readonly webhookId: string
  readonly triggerType: string
  readonly attempt: number
  /** The callback's answer, or "error" when it could not be reached. */
  readonly status: number | "error"
}

/** Whether the webhook is told about the event: its site and type, and a form submission's filter. */
const wants = (webhook: Webhook, event: Event) =>
  webhook.siteId === event.siteId && webhook.triggerType === event.triggerType &&
  (webhook.filter === null || event.triggerType !== "form_submission" || webhook.filter.name === event.payload["name"])

export const make = (options: { readonly secret: string; readonly store: Store; readonly retries: number; readonly retryDelayMs: number }) => {
  const { secret, store } = options
  const deliveries: Array<Delivery> = []
  const sender = WebhookSender.make({ retries: options.retries, retryDelayMs: options.retryDelayMs })

  const deliver = (webhook: Webhook, event: Event) => {
    const body = JSON.stringify({ triggerType: event.triggerType, payload: event.payload })
    const timestamp = String(Date.now())
    void sender.deliver({
      url: webhook.url,
      headers: {
        "content-type": "application/json",
        "x-webflow-timestamp": timestamp,
        "x-webflow-signature": createHmac("sha256", secret).update(`${timestamp}:${body}`, "utf8").digest("hex")
      },
      body,
      stillWanted: () => store.webhooks.has(webhook.id),
      onAttempt: ({ attempt, status }) => {
        deliveries.push({ webhookId: webhook.id, triggerType: event.triggerType, attempt, status })
        webhook.lastTriggered = new Date().toISOString()
        return status !== 200
      }
    })
  }

  store.listeners.push((event) => {
    for (const webhook of store.webhooks.values()) if (wants(webhook, event)) deliver(webhook, event)
  })

  return { deliveries, idle: sender.idle, close: sender.close }
}
