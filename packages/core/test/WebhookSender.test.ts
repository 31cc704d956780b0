import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import { Loopback, WebhookSender } from "../src/testing.js"

// Answers each POST with the next status of the queue (200 once it is empty), and keeps what it got.
let server: Server
let origin = ""
const answers: Array<number> = []
const received: Array<{ body: string; signature: string | undefined }> = []
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => body += chunk)
    req.on("end", () => {
      received.push({ body, signature: req.headers["x-signature"] as string | undefined })
      res.writeHead(answers.shift() ?? 200).end()
    })
  })
  origin = await Loopback.listen(server)
})
afterAll(() => Loopback.close(server))

const delivery = (attempts: Array<WebhookSender.Attempt>, extra: Partial<WebhookSender.Delivery> = {}): WebhookSender.Delivery => ({
  url: `${origin}/hook`,
  headers: { "content-type": "application/json", "x-signature": "sig" },
  body: "{\"n\":1}",
  onAttempt: (attempt) => {
    attempts.push(attempt)
    return attempt.status !== 200
  },
  ...extra
})

describe("WebhookSender", () => {
  it("retries a failed delivery while the policy says it failed, up to its retries; every attempt is reported", async () => {
    const sender = WebhookSender.make({ retries: 3, retryDelayMs: 5 })
    answers.push(500, 503)
    received.length = 0
    const attempts: Array<WebhookSender.Attempt> = []
    await sender.deliver(delivery(attempts))
    expect(attempts).toEqual([{ attempt: 1, status: 500 }, { attempt: 2, status: 503 }, { attempt: 3, status: 200 }])
    expect(received).toEqual(Array(3).fill({ body: "{\"n\":1}", signature: "sig" }))
    // No more than 1 + retries attempts.
    answers.push(500, 500, 500, 500, 500)
    const exhausted: Array<WebhookSender.Attempt> = []
    await sender.deliver(delivery(exhausted))
    expect(exhausted.map((a) => a.attempt)).toEqual([1, 2, 3, 4])
    answers.length = 0
  })

  it("an unreachable URL is an error attempt; a delivery no longer wanted is dropped before its next attempt", async () => {
    const sender = WebhookSender.make({ retries: 2, retryDelayMs: 5 })
    const attempts: Array<WebhookSender.Attempt> = []
    let wanted = true
    await sender.deliver(delivery(attempts, {
      url: "http://127.0.0.1:1/closed",
      stillWanted: () => wanted,
      onAttempt: (attempt) => {
        attempts.push(attempt)
        wanted = false
        return true
      }
    }))
    expect(attempts).toEqual([{ attempt: 1, status: "error" }])
  })

  it("close stops the retries waiting for their turn, and idle resolves once nothing is under way", async () => {
    const sender = WebhookSender.make({ retries: 5, retryDelayMs: 60_000 })
    answers.push(500)
    const attempts: Array<WebhookSender.Attempt> = []
    const done = sender.deliver(delivery(attempts))
    // The first attempt answered: the retry now waits its minute.
    while (attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(attempts).toEqual([{ attempt: 1, status: 500 }])
    // Settled by close, not by the retry's minute (longer than the test's time limit).
    await sender.close()
    await done
    await sender.idle()
    expect(attempts).toHaveLength(1)
    // Closed: nothing is sent any more.
    received.length = 0
    await sender.deliver(delivery(attempts))
    expect(received).toEqual([])
  })
})
