import { ComponentTest, TestHttpClient } from "@x/core/testing"
import { browseragent } from "../src/index.js"
import type * as Simulator from "../src/testing/simulator.js"

export const API_KEY = "bu_0123456789abcdef0123456789abcdef0123456789abcdef"
export const API = "https://api.browser-use.com"
export const connection = { key: "X-Browser-Use-API-Key", value: API_KEY }
export const SESSION = "5b0f3c2a-9d8e-4f7a-b6c5-d4e3f2a1b0c9"

/** browseragent's test kit on the test connection: its executor, steps, connection and `run`. */
export const kit = ComponentTest.make(browseragent, { connection })
export const { connectedTo, executor, run, step, withFetch } = kit

/** The connection to a running simulator: its API key and address. */
export const simulatorConnection = (sim: Simulator.Simulator) => ({ key: "X-Browser-Use-API-Key", value: sim.apiKey, baseUrl: sim.baseUrl })

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
