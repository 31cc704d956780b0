/**
 * V4 sessions (Browser Use Cloud API V4, `/sessions`): a session is a conversation of runs. Its
 * message queue (send a message, which runs as the session's next turn, list the pending ones,
 * remove one still pending) and the sessions themselves (one row each, its latest run), keyset
 * paged. Every call goes to V4's base URL (`./v4.ts`).
 */
import { type ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { nullable } from "./shared.js"
import * as V4 from "./v4.js"

const { path } = ProviderRequest
const optional = Schema.optional

const onV4 = <A>(client: ProviderClient.ProviderClient, f: (v4: ProviderClient.ProviderClient) => Effect.Effect<A, ConnectorError.ConnectorError>) =>
  Effect.flatMap(V4.client(client), f)

/** A message on a session's queue (QueuedMessage): its run once it has been taken. */
export const QueuedMessage = Schema.Struct({
  id: Schema.Number,
  sessionId: Schema.String,
  /** The run the message became; null while it waits. */
  runId: Schema.NullOr(Schema.String),
  /** `pending`, `dispatching`, `consumed`, `cancelled`, `superseded` or `failed` (kept as sent). */
  status: Schema.String,
  text: Schema.String,
  attachedFileIds: Schema.Array(Schema.String),
  createdAt: Schema.optional(Schema.String)
})
export type QueuedMessage = typeof QueuedMessage.Type

const WireMessage = Schema.Struct({
  id: Schema.Number,
  sessionId: optional(Schema.String),
  runId: nullable(Schema.String),
  status: optional(Schema.String),
  text: optional(Schema.String),
  attachedFileIds: nullable(Schema.Array(Schema.String)),
  createdAt: optional(Schema.String)
})

const toMessage = (sessionId: string) => (wire: typeof WireMessage.Type): QueuedMessage => ({
  id: wire.id,
  sessionId: wire.sessionId ?? sessionId,
  runId: wire.runId ?? null,
  status: wire.status ?? "pending",
  text: wire.text ?? "",
  attachedFileIds: wire.attachedFileIds ?? [],
  createdAt: wire.createdAt
})

export interface SendMessage {
  readonly text: string
  /** Cancel the session's active run so that this message runs now (best effort). */
  readonly interrupt?: boolean | undefined
  readonly attachedFileIds?: ReadonlyArray<string> | undefined
}

/** Sends a message to a session: it runs now if the session is idle, else as its next turn. */
export const sendMessage = (client: ProviderClient.ProviderClient, sessionId: string, message: SendMessage) =>
  onV4(client, (v4) =>
    Effect.map(
      v4.json({
        method: "POST",
        path: path`/sessions/${sessionId}/queue`,
        body: ProviderRequest.jsonBody(Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined)))
      }, WireMessage),
      toMessage(sessionId)
    ))

/** A session's pending messages, oldest first (one answer, no paging). */
export const queue = (client: ProviderClient.ProviderClient, sessionId: string) =>
  onV4(client, (v4) =>
    Effect.map(
      v4.json({ method: "GET", path: path`/sessions/${sessionId}/queue` }, Schema.Struct({ queue: Schema.Array(WireMessage) })),
      (answer) => answer.queue.map(toMessage(sessionId))
    ))

/** Removes a pending message (a Conflict once the session has taken it); the message as it is after. */
export const removeMessage = (client: ProviderClient.ProviderClient, sessionId: string, messageId: number) =>
  onV4(client, (v4) =>
    Effect.map(v4.json({ method: "DELETE", path: path`/sessions/${sessionId}/queue/${messageId}` }, WireMessage), toMessage(sessionId)))

/** A V4 session (SessionInfo): its latest run's task, status and times. */
export const RunSession = Schema.Struct({
  sessionId: Schema.String,
  workspaceId: Schema.NullOr(Schema.String),
  latestRunId: Schema.String,
  task: Schema.String,
  title: Schema.NullOr(Schema.String),
  /** Its latest run's status. */
  status: Schema.String,
  createdAt: Schema.optional(Schema.String),
  updatedAt: Schema.optional(Schema.String)
})
export type RunSession = typeof RunSession.Type

const WireSession = Schema.Struct({
  sessionId: Schema.String,
  workspaceId: nullable(Schema.String),
  latestRunId: optional(Schema.String),
  task: optional(Schema.String),
  title: nullable(Schema.String),
  status: optional(Schema.String),
  createdAt: optional(Schema.String),
  updatedAt: optional(Schema.String)
})
const SessionPage = Schema.Struct({ sessions: Schema.Array(WireSession), nextCursor: nullable(Schema.String), hasMore: optional(Schema.Boolean) })

/** The V4 sessions, most recent first, as a stream: keyset cursor pages of 100 (V4's most). */
export const sessions = (client: ProviderClient.ProviderClient, maxItems?: number) =>
  Stream.unwrap(Effect.map(V4.client(client), (v4) =>
    Pagination.cursor({ pageSize: 100, maxItems }, (cursor, limit) =>
      Effect.map(
        v4.json({ method: "GET", path: "/sessions", query: { limit, cursor } }, SessionPage),
        (page) => ({
          items: page.sessions.map((wire): RunSession => ({
            sessionId: wire.sessionId,
            workspaceId: wire.workspaceId ?? null,
            latestRunId: wire.latestRunId ?? "",
            task: wire.task ?? "",
            title: wire.title ?? null,
            status: wire.status ?? "",
            createdAt: wire.createdAt,
            updatedAt: wire.updatedAt
          })),
          next: page.hasMore === false ? undefined : page.nextCursor
        })
      ))))
