/**
 * Sessions and tasks on the wire beyond `../api.ts`: the whole `POST /sessions` body
 * (RunTaskRequest), the session list with a cap, deletion, a session's messages (cursor paging),
 * and the profiles a session can load (for the dropdown).
 */
import { Pagination, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { type Model, models, toSession, WireSession } from "../api.js"

const { path } = ProviderRequest

/** The proxy countries of the document's ProxyCountryCode (lower case, as the wire has them). */
export const proxyCountryCodes = [
  "ad", "ae", "af", "ag", "ai", "al", "am", "an", "ao", "aq", "ar", "as", "at", "au", "aw", "az", "ba", "bb",
  "bd", "be", "bf", "bg", "bh", "bi", "bj", "bl", "bm", "bn", "bo", "bq", "br", "bs", "bt", "bv", "bw", "by",
  "bz", "ca", "cc", "cd", "cf", "cg", "ch", "ck", "cl", "cm", "co", "cr", "cs", "cu", "cv", "cw", "cx", "cy",
  "cz", "de", "dj", "dk", "dm", "do", "dz", "ec", "ee", "eg", "eh", "er", "es", "et", "fi", "fj", "fk", "fm",
  "fo", "fr", "ga", "gd", "ge", "gf", "gg", "gh", "gi", "gl", "gm", "gn", "gp", "gq", "gr", "gs", "gt", "gu",
  "gw", "gy", "hk", "hm", "hn", "hr", "ht", "hu", "id", "ie", "il", "im", "in", "iq", "ir", "is", "it", "je",
  "jm", "jo", "jp", "ke", "kg", "kh", "ki", "km", "kn", "kp", "kr", "kw", "ky", "kz", "la", "lb", "lc", "li",
  "lk", "lr", "ls", "lt", "lu", "lv", "ly", "ma", "mc", "md", "me", "mf", "mg", "mh", "mk", "ml", "mm", "mn",
  "mo", "mp", "mq", "mr", "ms", "mt", "mu", "mv", "mw", "mx", "my", "mz", "na", "nc", "ne", "nf", "ng", "ni",
  "nl", "no", "np", "nr", "nu", "nz", "om", "pa", "pe", "pf", "pg", "ph", "pk", "pl", "pm", "pn", "pr", "ps",
  "pt", "pw", "py", "qa", "re", "ro", "rs", "ru", "rw", "sa", "sb", "sc", "sd", "se", "sg", "sh", "si", "sj",
  "sk", "sl", "sm", "sn", "so", "sr", "ss", "st", "sv", "sx", "sy", "sz", "tc", "td", "tf", "tg", "th", "tj",
  "tk", "tl", "tm", "tn", "to", "tr", "tt", "tv", "tw", "tz", "ua", "ug", "uk", "us", "uy", "uz", "va", "vc",
  "ve", "vg", "vi", "vn", "vu", "wf", "ws", "xk", "ye", "yt", "za", "zm", "zw"
] as const
export type ProxyCountryCode = typeof proxyCountryCodes[number]

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
