import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Executor } from "@x/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { browseragent } from "../src/index.js"

export const API_KEY = "bu_0123456789abcdef0123456789abcdef0123456789abcdef"
export const API = "https://api.browser-use.com"
export const connection = { key: "X-Browser-Use-API-Key", value: API_KEY }
export const SESSION = "5b0f3c2a-9d8e-4f7a-b6c5-d4e3f2a1b0c9"

export const executor = Executor.make([browseragent])
export const step = (action: string, parameters: Record<string, unknown>) => ({
  label: action,
  name: action,
  type: `browseragent/v1/${action}`,
  parameters
})
export const withFetch = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
  Effect.provide(effect, FetchHttpClient.layer)

/** A session as the API returns it (SessionResponse). */
export const wireSession = (overrides: Record<string, unknown> = {}) => ({
  id: SESSION,
  status: "running",
  model: "claude-sonnet-4.6",
  title: "Find the best-rated mouse",
  output: null,
  outputSchema: null,
  stepCount: 2,
  lastStepSummary: "Opened amazon.com",
  isTaskSuccessful: null,
  liveUrl: `https://live.browser-use.com/${SESSION}`,
  recordingUrls: [],
  profileId: null,
  workspaceId: null,
  proxyCountryCode: "us",
  maxCostUsd: null,
  totalInputTokens: 3040,
  totalOutputTokens: 420,
  proxyUsedMb: "2.5",
  llmCostUsd: "0.0246",
  proxyCostUsd: "0.002",
  browserCostUsd: "0.004",
  totalCostUsd: "0.0306",
  screenshotUrl: null,
  agentmailEmail: "agent-1a2b@agentmail.to",
  integrationsUsed: [],
  createdAt: "2026-11-21T10:00:00Z",
  updatedAt: "2026-11-21T10:00:05Z",
  ...overrides
})

/**
 * An HttpClient answering from `handler` synchronously (a web Response's body would wait on a
 * Promise), so that polling runs entirely on TestClock. It records when each request came.
 */
export const fakeHttp = (handler: (request: { method: string; url: string }, index: number) => { status: number; body: unknown }) => {
  const sent: Array<{ at: number; method: string; url: string }> = []
  const respond = (request: HttpClientRequest.HttpClientRequest, status: number, text: string) => {
    const response = HttpClientResponse.fromWeb(request, new Response(null, { status }))
    Object.defineProperty(response, "text", { get: () => Effect.succeed(text) })
    Object.defineProperty(response, "arrayBuffer", { get: () => Effect.succeed(new TextEncoder().encode(text).buffer) })
    return response
  }
  const client = HttpClient.make((request, url) =>
    Effect.map(Clock.currentTimeMillis, (at) => {
      sent.push({ at, method: request.method, url: url.toString() })
      const reply = handler({ method: request.method, url: url.toString() }, sent.length - 1)
      return respond(request, reply.status, JSON.stringify(reply.body))
    })
  )
  return { sent, layer: Layer.succeed(HttpClient.HttpClient, client) }
}
