/**
 * Webhook deliveries as a simulator makes them: a POST of a body with its (signed) headers to a
 * callback URL, retried after a delay while the caller's policy says so, every attempt reported,
 * and a way to wait for the deliveries under way (`idle`) or stop them all, retries waiting
 * included (`close`). The signature scheme, what counts as a failure and what a 410 means are the
 * provider's: each simulator says them in `deliver`'s callbacks.
 *
 * @since 0.2.0
 */

/**
 * What one attempt got: the callback's status, or `"error"` when it could not be reached (or
 * did not answer within the time limit).
 *
 * @since 0.2.0
 * @category models
 */
export interface Attempt {
  readonly attempt: number
  readonly status: number | "error"
}

/**
 * One delivery: where, what, and the provider's policy: whether to send (again) at all, and
 * after each attempt, whether it failed (and so is retried while retries remain).
 *
 * @since 0.2.0
 * @category models
 */
export interface Delivery {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** Checked before each attempt: false drops the delivery (its webhook was deleted, say). */
  readonly stillWanted?: (() => boolean) | undefined
  /** Told of each attempt; true means it failed and is retried while retries remain. */
  readonly onAttempt: (attempt: Attempt) => boolean
}

/**
 * A sender: `retries` after the first attempt (default 0), `retryDelayMs` between them (default
 * 1000), `timeoutMs` per attempt (default 10000).
 *
 * @since 0.2.0
 * @category models
 */
export interface WebhookSender {
  /** Starts a delivery; resolves once its last attempt is made (or it is dropped or stopped). */
  readonly deliver: (delivery: Delivery) => Promise<void>
  /** Resolves once no delivery is under way or waiting for a retry. */
  readonly idle: () => Promise<void>
  /** Stops every delivery (in flight, or waiting to be retried); nothing is sent afterwards. */
  readonly close: () => Promise<void>
}

/**
 * A webhook sender.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options: { readonly retries?: number; readonly retryDelayMs?: number; readonly timeoutMs?: number } = {}): WebhookSender => {
  const retries = options.retries ?? 0
  const retryDelayMs = options.retryDelayMs ?? 1000
  const timeoutMs = options.timeoutMs ?? 10_000
  const pending = new Set<Promise<void>>()
  const abort = new AbortController()
  // Retries waiting for their turn: cleared and woken (to stop) on close.
  const waiting = new Map<ReturnType<typeof setTimeout>, () => void>()
  let closed = false

  const attempt = async (delivery: Delivery, n: number): Promise<void> => {
    if (closed || delivery.stillWanted?.() === false) return
    let status: number | "error"
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: delivery.headers,
        body: delivery.body,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(timeoutMs)])
      })
      status = response.status
      await response.arrayBuffer()
    } catch {
      status = "error"
    }
    if (!delivery.onAttempt({ attempt: n, status }) || n > retries || closed) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(timer)
        resolve()
      }, retryDelayMs)
      waiting.set(timer, resolve)
    })
    return attempt(delivery, n + 1)
  }

  return {
    deliver: (delivery) => {
      const task: Promise<void> = attempt(delivery, 1).finally(() => pending.delete(task))
      pending.add(task)
      return task
    },
    idle: async () => {
      while (pending.size > 0) await Promise.all([...pending])
    },
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
