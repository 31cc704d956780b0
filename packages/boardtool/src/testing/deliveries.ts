/**
 * Webhook deliveries as Trello makes them: a signed POST (`X-Trello-Webhook`, base64
 * HMAC-SHA1 of the body and the callback URL, keyed with the app secret) of `{action, model}`
 * to each active webhook watching a model the action is about, retried up to 3 times on a
 * failure, and the webhook deleted on a 410.
 */
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
}) => {
  const { retries, retryDelayMs, secret, webhooks } = options
  const deliveries: Array<Delivery> = []
  const pending = new Set<Promise<void>>()
  const abort = new AbortController()
  // Retries waiting for their turn: cleared and woken (to stop) on close.
  const waiting = new Map<NodeJS.Timeout, () => void>()
  let closed = false

  const sign = (body: string, callbackURL: string) => createHmac("sha1", secret).update(body + callbackURL, "utf8").digest("base64")

  const deliver = (webhook: Webhook, payload: object, actionId: string) => {
    const body = JSON.stringify(payload)
    const attempt = async (n: number): Promise<void> => {
      if (closed || !webhooks.has(webhook.id)) return
      let status: number | "error"
      try {
        const response = await fetch(webhook.callbackURL, {
          method: "POST",
          headers: { "content-type": "application/json", "x-trello-webhook": sign(body, webhook.callbackURL) },
          body,
          signal: AbortSignal.any([abort.signal, AbortSignal.timeout(10_000)])
        })
        status = response.status
        await response.arrayBuffer()
      } catch {
        status = "error"
      }
      deliveries.push({ webhookId: webhook.id, actionId, attempt: n, status })
      if (status === 410) return void webhooks.delete(webhook.id)
      if (status !== "error" && status >= 200 && status < 300) return void (webhook.consecutiveFailures = 0)
      webhook.consecutiveFailures++
      if (n <= retries && !closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            waiting.delete(timer)
            resolve()
          }, retryDelayMs)
          waiting.set(timer, resolve)
        })
        return attempt(n + 1)
      }
    }
    const task = attempt(1).finally(() => pending.delete(task))
    pending.add(task)
  }

  return {
    deliveries,
    deliver,
    idle: async () => {
      while (pending.size > 0) await Promise.all([...pending])
    },
    // Stops every delivery: in flight, or waiting to be retried.
    close: async () => {
      closed = true
      abort.abort()
      for (const [timer, wake] of waiting) {
        clearTimeout(timer)
        wake()
      }
      waiting.clear()
      await Promise.allSettled([...pending])
    }
  }
}
