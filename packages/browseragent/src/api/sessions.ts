/**
 * Browser Use Cloud API v3's sessions on the wire: the session as the wire has it, the session as
 * the component outputs it (neutral model names, `mailboxEmail`), the whole `POST /sessions` body
 * (RunTaskRequest), reading one, the session list, deletion, and a session's messages (cursor
 * paging).
 */
import { Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { neutralNames } from "./models.js"
import type { ProxyCountryCode } from "./proxyCountries.js"
import { nullable } from "./shared.js"

const { path } = ProviderRequest

/** The neutral model names users see, and the provider's. */
export const models = {
  "modelfamilyA-sonnet-4.6": "claude-sonnet-4.6",
  "modelfamilyA-opus-4.6": "claude-opus-4.6",
  "modelfamilyB-5.4-mini": "gpt-5.4-mini"
} as const
export type Model = keyof typeof models
const neutral = neutralNames(models)
/** The neutral model names, as the property's choices. */
export const modelNames: ReadonlyArray<Model> = neutral.names

/**
 * Whether the session's task has ended: stopped, timed out or failed, or idle with a result
 * (a new session is idle for a moment before its first task runs, with no result yet).
 */
export const taskEnded = (session: { status: string; isTaskSuccessful: boolean | null }): boolean =>
  session.status === "stopped" || session.status === "timed_out" || session.status === "error" ||
  (session.status === "idle" && session.isTaskSuccessful !== null)

// Fields the wire may leave out are plain optionals, their defaults filled in by `toSession`
// (which renames and maps fields anyway): the wire Schema stays exactly the wire's.
const optional = Schema.optional

/**
 * The session as the wire has it (SessionResponse): absent nullable fields are null, never
 * invented. Its fields in the wire's order, so that an answer is read without a copy.
 */
export const WireSession = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  model: Schema.String,
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
  agentmailEmail: nullable(Schema.String),
  integrationsUsed: optional(Schema.Array(Schema.String)),
  createdAt: Schema.String,
  updatedAt: Schema.String
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
  mailboxEmail: Schema.NullOr(Schema.String),
  /** The integration providers the session used (e.g. "gmail", "slack"). */
  integrationsUsed: Schema.Array(Schema.String)
})
export type Session = typeof Session.Type

export const toSession = (wire: typeof WireSession.Type): Session => ({
  id: wire.id,
  status: wire.status,
  // A model without a neutral name (a newer one) is shown as the provider names it.
  model: neutral.neutralOf(wire.model),
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
  mailboxEmail: wire.agentmailEmail ?? null,
  integrationsUsed: wire.integrationsUsed ?? []
})

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

/** Everything `POST /sessions` takes (RunTaskRequest), with the neutral model name. */
export interface CreateSessionRequest {
  /** None: a new idle session (to upload files to first, say). */
  readonly task?: string | undefined
  readonly model?: Model | undefined
  readonly sessionId?: string | undefined
  readonly keepAlive?: boolean | undefined
  /** A decimal number of US dollars. */
  readonly maxCostUsd?: number | undefined
  readonly profileId?: string | undefined
  readonly workspaceId?: string | undefined
  /** `null` turns the proxy off; absent, Browser Use's default (`us`). */
  readonly proxyCountryCode?: ProxyCountryCode | null | undefined
  readonly outputSchema?: Readonly<Record<string, unknown>> | undefined
  readonly enableScheduledTasks?: boolean | undefined
  /** Values the agent types through `<secret>key</secret>` placeholders, never shown to the model. */
  readonly sensitiveData?: Readonly<Record<string, string>> | undefined
  readonly enableRecording?: boolean | undefined
  readonly skills?: boolean | undefined
  readonly agentmail?: boolean | undefined
  readonly codeMode?: boolean | undefined
  readonly cacheScript?: boolean | undefined
  readonly autoHeal?: boolean | undefined
  readonly useOwnKey?: boolean | undefined
}

/** The request's body: only what is given, the model under its wire name. */
export const createSessionBody = (request: CreateSessionRequest): Record<string, unknown> => {
  const { model, ...rest } = request
  const body: Record<string, unknown> = model === undefined ? {} : { model: models[model] }
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) body[key] = value
  return body
}

/** Creates a session and/or dispatches a task, with every option RunTaskRequest has. */
export const createSession = (client: ProviderClient.ProviderClient, request: CreateSessionRequest) =>
  Effect.map(
    client.json({ method: "POST", path: "/sessions", body: ProviderRequest.jsonBody(createSessionBody(request)) }, WireSession),
    toSession
  )

/** Soft-deletes a session (Browser Use stops its sandbox first if it is still running): 204. */
export const deleteSession = (client: ProviderClient.ProviderClient, sessionId: string) =>
  client.void({ method: "DELETE", path: path`/sessions/${sessionId}` })

/**
 * A message of a session's stream (MessageResponse): the user's task, the agent's steps and
 * answer. Left out, a role, type, summary or data is empty, a screenshot null, `hidden` false,
 * the date absent.
 */
export const Message = Schema.Struct({
  id: Schema.String,
  sessionId: Schema.String,
  /** `human` for a task the user sent, `ai` for the agent's actions and answers. */
  role: Schema.String,
  /** e.g. `user_message`, `browser_action`, `assistant_message`, `completion` (kept as sent). */
  type: Schema.String,
  summary: Schema.String,
  /** The raw content: text, JSON or action data, depending on the type. */
  data: Schema.String,
  screenshotUrl: Schema.NullOr(Schema.String),
  hidden: Schema.Boolean,
  createdAt: Schema.optional(Schema.String)
})
export type Message = typeof Message.Type

const WireMessage = Schema.Struct({
  id: Schema.String,
  sessionId: Schema.optional(Schema.String),
  role: Schema.optional(Schema.String),
  data: Schema.optional(Schema.String),
  type: Schema.optional(Schema.String),
  summary: Schema.optional(Schema.String),
  screenshotUrl: Schema.optional(Schema.NullOr(Schema.String)),
  hidden: Schema.optional(Schema.Boolean),
  createdAt: Schema.optional(Schema.String)
})
const MessagePage = Schema.Struct({ messages: Schema.Array(WireMessage), hasMore: Schema.Boolean })

const toMessage = (sessionId: string) => (wire: typeof WireMessage.Type): Message => ({
  id: wire.id,
  sessionId: wire.sessionId ?? sessionId,
  role: wire.role ?? "",
  type: wire.type ?? "",
  summary: wire.summary ?? "",
  data: wire.data ?? "",
  screenshotUrl: wire.screenshotUrl ?? null,
  hidden: wire.hidden ?? false,
  createdAt: wire.createdAt
})

/**
 * A session's messages in chronological order, as a stream: the first page, then each next one
 * `after` the last message seen while `hasMore`; 100 at most per page.
 */
export const messages = (client: ProviderClient.ProviderClient, sessionId: string, maxItems?: number) =>
  Pagination.cursor({ pageSize: 100, maxItems }, (after, limit) =>
    Effect.map(
      client.json({ method: "GET", path: path`/sessions/${sessionId}/messages`, query: { after, limit } }, MessagePage),
      (page) => ({ items: page.messages.map(toMessage(sessionId)), next: page.hasMore ? page.messages.at(-1)?.id : undefined })
    ))
