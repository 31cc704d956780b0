/**
 * Browser Use Cloud API v3's wire formats (`../shared/specs/browseragent`): the session as the
 * wire has it, the session as the component outputs it (neutral model names, `mailboxEmail`),
 * and the endpoints.
 *
 * A wire record requires only what identifies it (its `id`; a file's `path`) and what the seed
 * names (the session's `id`, `status`, `model`, `createdAt`, `updatedAt`: the fields its
 * output cannot do without); a write must not fail after Browser Use made it because its answer
 * left out a field we merely pass on. Anything else is optional on the wire, and the output
 * takes the default stated where it is built (`toSession`, `toProfile`, …: `null` for a
 * nullable field, `[]` for a list, `0` for a count, `"0"` for a cost) or leaves it absent.
 */
import { Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Record from "effect/Record"
import * as Schema from "effect/Schema"

/** The neutral model names users see, and the provider's. */
export const models = {
  "modelfamilyA-sonnet-4.6": "claude-sonnet-4.6",
  "modelfamilyA-opus-4.6": "claude-opus-4.6",
  "modelfamilyB-5.4-mini": "gpt-5.4-mini"
} as const
export type Model = keyof typeof models
/** The neutral model names, as the property's choices. */
export const modelNames: ReadonlyArray<Model> = Record.keys(models)
const neutralOf = Object.fromEntries(Object.entries(models).map(([neutral, wire]) => [wire, neutral])) as Record<string, string>

export const statuses = ["created", "idle", "running", "stopped", "timed_out", "error"] as const
/**
 * Whether the session's task has ended: stopped, timed out or failed, or idle with a result
 * (a new session is idle for a moment before its first task runs, with no result yet).
 */
export const taskEnded = (session: { status: string; isTaskSuccessful: boolean | null }): boolean =>
  session.status === "stopped" || session.status === "timed_out" || session.status === "error" ||
  (session.status === "idle" && session.isTaskSuccessful !== null)

// Fields the wire may leave out are plain optionals, their defaults filled in by `toSession`
// (which renames and maps fields anyway): the wire Schema stays exactly the wire's.
const nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optional(Schema.NullOr(schema))
const optional = Schema.optional

/** The session as the wire has it (SessionResponse): absent nullable fields are null, never invented. */
export const WireSession = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  model: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  title: nullable(Schema.String),
  output: optional(Schema.Unknown),
  outputSchema: nullable(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  stepCount: optional(Schema.Number),
  lastStepSummary: nullable(Schema.String),
  isTaskSuccessful: nullable(Schema.Boolean),
  liveUrl: nullable(Schema.String),
  recordingUrls: optional(Schema.Array(Schema.String)),
  profileId: nullable(Schema.String),
  workspaceId: nullable(Schema.String),
  proxyCountryCode: nullable(Schema.String),
  maxCostUsd: nullable(Schema.String),
  totalInputTokens: optional(Schema.Number),
  totalOutputTokens: optional(Schema.Number),
  proxyUsedMb: optional(Schema.String),
  llmCostUsd: optional(Schema.String),
  proxyCostUsd: optional(Schema.String),
  browserCostUsd: optional(Schema.String),
  totalCostUsd: optional(Schema.String),
  screenshotUrl: nullable(Schema.String),
  agentmailEmail: nullable(Schema.String)
})

/** The Session the actions output: the wire's fields, `mailboxEmail` for `agentmailEmail`, the neutral model. */
export const Session = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  model: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  title: Schema.NullOr(Schema.String),
  output: Schema.Unknown,
  outputSchema: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  stepCount: Schema.Number,
  lastStepSummary: Schema.NullOr(Schema.String),
  isTaskSuccessful: Schema.NullOr(Schema.Boolean),
  liveUrl: Schema.NullOr(Schema.String),
  recordingUrls: Schema.Array(Schema.String),
  profileId: Schema.NullOr(Schema.String),
  workspaceId: Schema.NullOr(Schema.String),
  proxyCountryCode: Schema.NullOr(Schema.String),
  maxCostUsd: Schema.NullOr(Schema.String),
  totalInputTokens: Schema.Number,
  totalOutputTokens: Schema.Number,
  proxyUsedMb: Schema.String,
  llmCostUsd: Schema.String,
  proxyCostUsd: Schema.String,
  browserCostUsd: Schema.String,
  totalCostUsd: Schema.String,
  screenshotUrl: Schema.NullOr(Schema.String),
  mailboxEmail: Schema.NullOr(Schema.String)
})
export type Session = typeof Session.Type

export const toSession = (wire: typeof WireSession.Type): Session => ({
  id: wire.id,
  status: wire.status,
  // A model without a neutral name (a newer one) is shown as the provider names it.
  model: neutralOf[wire.model] ?? wire.model,
  createdAt: wire.createdAt,
  updatedAt: wire.updatedAt,
  title: wire.title ?? null,
  output: wire.output ?? null,
  outputSchema: wire.outputSchema ?? null,
  stepCount: wire.stepCount ?? 0,
  lastStepSummary: wire.lastStepSummary ?? null,
  isTaskSuccessful: wire.isTaskSuccessful ?? null,
  liveUrl: wire.liveUrl ?? null,
  recordingUrls: wire.recordingUrls ?? [],
  profileId: wire.profileId ?? null,
  workspaceId: wire.workspaceId ?? null,
  proxyCountryCode: wire.proxyCountryCode ?? null,
  maxCostUsd: wire.maxCostUsd ?? null,
  totalInputTokens: wire.totalInputTokens ?? 0,
  totalOutputTokens: wire.totalOutputTokens ?? 0,
  // Decimal strings, as the wire has them.
  proxyUsedMb: wire.proxyUsedMb ?? "0",
  llmCostUsd: wire.llmCostUsd ?? "0",
  proxyCostUsd: wire.proxyCostUsd ?? "0",
  browserCostUsd: wire.browserCostUsd ?? "0",
  totalCostUsd: wire.totalCostUsd ?? "0",
  screenshotUrl: wire.screenshotUrl ?? null,
  mailboxEmail: wire.agentmailEmail ?? null
})

const { path } = ProviderRequest

export interface CreateSession {
  readonly task: string
  readonly model: Model
  /** The JSON Schema the output must follow; none for text. */
  readonly outputSchema?: Readonly<Record<string, unknown>> | undefined
  readonly sessionId?: string | undefined
  readonly keepAlive?: boolean | undefined
  readonly enableScheduledTasks?: boolean | undefined
  readonly skills?: boolean | undefined
}

export const createSession = (client: ProviderClient.ProviderClient, request: CreateSession) =>
  Effect.map(
    client.json({
      method: "POST",
      path: "/sessions",
      body: ProviderRequest.jsonBody({
        task: request.task,
        model: models[request.model],
        ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
        ...(request.outputSchema !== undefined ? { outputSchema: request.outputSchema } : {}),
        ...(request.keepAlive !== undefined ? { keepAlive: request.keepAlive } : {}),
        ...(request.enableScheduledTasks !== undefined ? { enableScheduledTasks: request.enableScheduledTasks } : {}),
        ...(request.skills !== undefined ? { skills: request.skills } : {})
      })
    }, WireSession),
    toSession
  )

export const getSession = (client: ProviderClient.ProviderClient, sessionId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/sessions/${sessionId}` }, WireSession), toSession)

const SessionPage = Schema.Struct({
  sessions: Schema.Array(WireSession),
  total: Schema.Number,
  page: Schema.Number,
  pageSize: Schema.Number
})

/** The sessions, newest first, as a stream: Browser Use pages by number, 100 at most. */
export const sessions = (client: ProviderClient.ProviderClient, maxItems?: number) =>
  Pagination.pageNumber({ pageSize: 100, maxItems }, (page, pageSize) =>
    Effect.map(
      client.json({ method: "GET", path: "/sessions", query: { page, page_size: pageSize } }, SessionPage),
      (r) => ({ items: r.sessions.map(toSession), total: r.total })
    ))

/** FastAPI's error body: `{"detail": "…"}` or `{"detail": [{loc, msg, type}]}`. */
export const errorMessage = (body: unknown): string | undefined => {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (typeof detail === "string") return detail
  if (Array.isArray(detail)) {
    return detail.map((d: { loc?: ReadonlyArray<unknown>; msg?: unknown }) =>
      `${(d.loc ?? []).filter((l) => l !== "body").join(".")}: ${String(d.msg)}`.replace(/^: /, "")
    ).join("; ")
  }
  return undefined
}

/** The task statuses a webhook delivery reports (Browser Use's webhook guide). */
export const webhookStatuses = ["running", "idle", "stopped"] as const

/** Where the user registers the webhook URL, in Browser Use's dashboard. */
export const webhookSettingsUrl = "https://cloud.browser-use.com/settings?tab=webhooks"

/**
 * A webhook delivery as the wire has it: `{type, timestamp, payload}`. Only
 * `agent.task.status_update` carries a task; `test` (the dashboard's ping) and any other type
 * are acknowledged and ignored.
 */
export const WebhookDelivery = Schema.Struct({
  type: Schema.String,
  timestamp: Schema.String,
  payload: Schema.Unknown
})

/** The payload of `agent.task.status_update` on the wire (snake_case). */
export const WireTaskStatus = Schema.Struct({
  task_id: Schema.String,
  session_id: Schema.String,
  status: Schema.String,
  metadata: optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})

/** A task's status change, as the trigger emits it. */
export const TaskStatusUpdate = Schema.Struct({
  taskId: Schema.String,
  sessionId: Schema.String,
  /** `running`, `idle` or `stopped` (kept as sent, should the service add one). */
  status: Schema.String,
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** When the status changed (RFC 3339, as sent). */
  timestamp: Schema.String
})
export type TaskStatusUpdate = typeof TaskStatusUpdate.Type

// Workspaces and their files: ./api/workspaces.ts.
export * from "./api/workspaces.js"
