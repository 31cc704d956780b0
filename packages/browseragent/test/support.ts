import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Connections, Executor } from "@x/core"
import { TestHttpClient } from "@x/core/testing"
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
/** The opened browseragent connection of these values, over this HttpClient: what a runner provides. */
export const connectedTo = (values: unknown, http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer) =>
  Connections.layer({ browseragent: values }).pipe(Layer.provide(http))

/** Provides the connection of these values (the test connection by default) over fetch. */
export const withFetch = <A, E>(effect: Effect.Effect<A, E, Connections.Connections>, values: unknown = connection) =>
  Effect.provide(effect, connectedTo(values))

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

/** An in-memory HttpClient answering JSON from `handler`, so that polling runs on TestClock. */
export const fakeHttp = (handler: (request: { method: string; url: string }, index: number) => { status: number; body: unknown }) =>
  TestHttpClient.make((request, index) => handler(request, index))
