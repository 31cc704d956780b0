/**
 * The simulated Browser Use Cloud API V4 (`/api/v4`, `../shared/specs/browseragent/
 * browser-use-openapi-v4.json`): agent runs and sessions with their message queue.
 *
 * A run goes `queued → dispatching → running → completed` as time passes (a step every
 * `stepMs`, `stepsPerTask` steps), or `failed` (the simulator's `failures.endWith`), or
 * `cancelled` (`POST /runs/{id}/cancel`). Its result is text, or, when the task carries an
 * output schema after `outputSchemaInstruction` (as runAndWait sends it), a JSON text following
 * it. Its events (`run.created`, `run.started`, a `run.step` per step, then `run.completed`,
 * `run.failed` or `run.cancelled`) accumulate as they happen, numbered from 1 within the run,
 * paged `after` an id. A session is a conversation: a run without `sessionId` opens one (with
 * a workspace of its own unless given one); a follow-up run needs it idle (409 otherwise). A
 * message sent to a busy session waits on its queue (`pending`) and becomes its next run when
 * the active one ends; to an idle one it runs at once; `interrupt` cancels the active run
 * first. The lists are keyset paged with an opaque cursor (400 when malformed). Errors are
 * FastAPI's `{"detail": …}` (422 a list of `{loc, msg, type}`); 403 for every call when
 * `failures.zeroDataRetention` (V4 refuses Zero Data Retention projects).
 *
 * Attached files come from uploads no call of this document makes: `upload` registers one.
 * State is computed from the clock (the simulator's `now`) on each request.
 */
import { randomUUID } from "node:crypto"
import { outputSchemaInstruction } from "../api/outputSchema.js"
import { Detail, type Issue, integerQuery, invalid, jsonObject, uuidPath } from "./fastapi.js"
import { proxyCountryCodes } from "./sessions.js"
import type { SimulatedWorkspace } from "./workspaces.js"

/** RunCreateRequest's model enum. */
export const wireModels = [
  "glm-5.2", "grok-4.5", "kimi-k3", "minimax-m3", "claude-opus-4.7", "claude-opus-4.8", "claude-opus-5", "claude-fable-5",
  "claude-sonnet-5", "gpt-5.5", "gpt-5.6", "gemini-3.5-flash", "gemini-3.1-pro", "gemini-3-flash"
]

export interface SimulatedRun {
  readonly id: string
  readonly sessionId: string
  readonly task: string
  readonly model: string
  readonly createdAt: number
  /** When it began (after the session's run before it ended, for a queued message). */
  readonly startedAt: number
  readonly attachedFileIds: ReadonlyArray<string>
  readonly judge: boolean
  readonly fails: boolean
  cancelledAt: number | undefined
}

export interface SimulatedQueuedMessage {
  readonly id: number
  readonly sessionId: string
  runId: string | null
  status: "pending" | "consumed" | "cancelled"
  readonly text: string
  readonly attachedFileIds: ReadonlyArray<string> | null
  readonly createdAt: number
}

export interface SimulatedRunSession {
  readonly id: string
  readonly workspaceId: string
  readonly createdAt: number
  /** Its runs, the latest last. */
  readonly runs: Array<SimulatedRun>
  readonly queue: Array<SimulatedQueuedMessage>
}

/** A file uploaded for attaching to runs. */
export interface SimulatedUpload {
  readonly id: string
  readonly name: string
  readonly contentType: string
  readonly sizeBytes: number
}

export interface Runs {
  readonly runs: Map<string, SimulatedRun>
  readonly sessions: Map<string, SimulatedRunSession>
  readonly uploads: Map<string, SimulatedUpload>
  /** Registers an uploaded file (what the dashboard's upload does), for `attachedFileIds`; its id. */
  readonly upload: (name: string, contentType: string, sizeBytes: number) => string
  /** Answers a V4 request to `/runs…` or `/sessions…` (the path below `/api/v4`); undefined for any other path. */
  readonly route: (method: string, path: string, query: URLSearchParams, raw: string) => unknown
}

export interface Settings {
  readonly stepMs: number
  readonly stepsPerTask: number
  readonly workspaces: Map<string, SimulatedWorkspace>
  readonly profileExists: (id: string) => boolean
  readonly failures: { readonly endWith: string | undefined; readonly zeroDataRetention: boolean }
  /** The clock runs progress by (the simulator's `now`). */
  readonly now: () => number
  /** A value following a JSON Schema (the simulator's `sample`). */
  readonly sample: (schema: Record<string, unknown>) => unknown
}

/** The pending messages a session keeps at most: past it, 429 (the document names no number). */
export const maxQueuedMessages = 10

const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const decimal = (value: number) => value.toFixed(4).replace(/0+$/, "").replace(/\.$/, "") || "0"
const iso = (at: number) => new Date(at).toISOString()

const encodeCursor = (createdAt: number, id: string) => Buffer.from(JSON.stringify([createdAt, id]), "utf8").toString("base64url")
const decodeCursor = (cursor: string): readonly [number, string] => {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown]
    if (typeof createdAt === "number" && typeof id === "string") return [createdAt, id]
  } catch {
    // Reported below.
  }
  throw new Detail(400, "Malformed pagination cursor.")
}

/** Newest first, by creation time then id: one keyset page `after` the cursor. */
const keysetPage = <A>(all: ReadonlyArray<A>, key: (a: A) => readonly [number, string], query: URLSearchParams, limit: number) => {
  const cursor = query.get("cursor")
  const sorted = [...all].sort((a, b) => key(b)[0] - key(a)[0] || (key(b)[1] < key(a)[1] ? -1 : key(b)[1] > key(a)[1] ? 1 : 0))
  let from = 0
  if (cursor !== null && cursor !== "") {
    const [at, id] = decodeCursor(cursor)
    from = sorted.findIndex((a) => key(a)[0] < at || (key(a)[0] === at && key(a)[1] < id))
    if (from < 0) from = sorted.length
  }
  const items = sorted.slice(from, from + limit)
  const hasMore = from + limit < sorted.length
  const last = items.at(-1)
  return { items, nextCursor: hasMore && last !== undefined ? encodeCursor(...key(last)) : null, hasMore }
}

/** The UUIDs of `attachedFileIds` (at most 20), or the issues with them. */
const fileIds = (value: unknown, issues: Array<Issue>): ReadonlyArray<string> | null => {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value)) {
    issues.push({ loc: ["body", "attachedFileIds"], msg: "Input should be a valid list", type: "list_type" })
    return null
  }
  if (value.length > 20) {
    issues.push({ loc: ["body", "attachedFileIds"], msg: `List should have at most 20 items after validation, not ${value.length}`, type: "too_long" })
  }
  value.forEach((id, index) => {
    if (typeof id !== "string" || !uuid.test(id)) issues.push({ loc: ["body", "attachedFileIds", index], msg: "Input should be a valid UUID", type: "uuid_parsing" })
  })
  return value.map((id) => String(id).toLowerCase())
}

/** Fields a model with `additionalProperties: false` does not know: pydantic's `extra_forbidden`. */
const extra = (body: Record<string, unknown>, known: ReadonlyArray<string>, at: ReadonlyArray<string>, issues: Array<Issue>) => {
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) issues.push({ loc: [...at, key], msg: "Extra inputs are not permitted", type: "extra_forbidden" })
  }
}

const uuidField = (body: Record<string, unknown>, field: string, at: ReadonlyArray<string>, issues: Array<Issue>): string | null => {
  const value = body[field]
  if (value === undefined || value === null) return null
  if (typeof value !== "string" || !uuid.test(value)) {
    issues.push({ loc: [...at, field], msg: "Input should be a valid UUID", type: "uuid_parsing" })
    return null
  }
  return value.toLowerCase()
}

export const make = (settings: Settings): Runs => {
  const { stepMs, stepsPerTask, failures } = settings
  const runs = new Map<string, SimulatedRun>()
  const sessions = new Map<string, SimulatedRunSession>()
  const uploads = new Map<string, SimulatedUpload>()
  let messageIds = 0
  const runMs = (stepsPerTask + 1) * stepMs

  /** When the run ended, or undefined while it goes on. */
  const endedAt = (run: SimulatedRun, now: number): number | undefined => {
    const finished = run.startedAt + runMs
    if (run.cancelledAt !== undefined && run.cancelledAt < finished && run.cancelledAt <= now) return run.cancelledAt
    return finished <= now ? finished : undefined
  }

  const statusOf = (run: SimulatedRun, now: number) => {
    const end = endedAt(run, now)
    if (end !== undefined) return end === run.cancelledAt ? "cancelled" : run.fails ? "failed" : "completed"
    const elapsed = now - run.startedAt
    return elapsed < stepMs / 2 ? "queued" : elapsed < stepMs ? "dispatching" : "running"
  }

  const stepsOf = (run: SimulatedRun, now: number) =>
    Math.max(0, Math.min(stepsPerTask, Math.floor(((endedAt(run, now) ?? now) - run.startedAt) / stepMs)))

  /** The result of a completed run: a JSON text following the schema the task carries, else text. */
  const resultOf = (run: SimulatedRun) => {
    const at = run.task.indexOf(outputSchemaInstruction)
    if (at < 0) return `Done: ${run.task}`
    try {
      return JSON.stringify(settings.sample(JSON.parse(run.task.slice(at + outputSchemaInstruction.length)) as Record<string, unknown>))
    } catch {
      return `Done: ${run.task}`
    }
  }

  /** Runs each idle session's oldest pending message, from when its last run ended, until none can run by `now`. */
  const drain = (session: SimulatedRunSession, now: number) => {
    for (;;) {
      const next = session.queue.find((m) => m.status === "pending")
      const last = session.runs.at(-1)
      const free = last === undefined ? session.createdAt : endedAt(last, now)
      if (next === undefined || free === undefined) return
      const run = newRun(session, { task: next.text, model: last?.model ?? "minimax-m3", attachedFileIds: next.attachedFileIds ?? [], judge: false }, free, now)
      next.status = "consumed"
      next.runId = run.id
    }
  }
  const settle = (now: number) => {
    for (const session of sessions.values()) drain(session, now)
  }

  const newRun = (
    session: SimulatedRunSession,
    fields: { task: string; model: string; attachedFileIds: ReadonlyArray<string>; judge: boolean },
    startedAt: number,
    now: number
  ) => {
    const run: SimulatedRun = { id: randomUUID(), sessionId: session.id, ...fields, createdAt: Math.min(startedAt, now), startedAt, fails: failures.endWith !== undefined, cancelledAt: undefined }
    runs.set(run.id, run)
    session.runs.push(run)
    return run
  }

  const summary = (run: SimulatedRun, now: number) => {
    const status = statusOf(run, now)
    const steps = stepsOf(run, now)
    return {
      id: run.id,
      task: run.task,
      title: run.task.slice(0, 40),
      model: run.model,
      contextLimit: 200_000,
      status,
      result: status === "completed" ? resultOf(run) : null,
      error: status === "failed" ? "The agent could not finish the task" : null,
      sessionId: run.sessionId,
      workspaceId: sessions.get(run.sessionId)?.workspaceId ?? null,
      attachedFileIds: run.attachedFileIds,
      judgement: run.judge && status === "completed" ? { verdict: "pass", reasoning: "The answer matches the task." } : null,
      totalInputTokens: steps * 1520,
      totalOutputTokens: steps * 210,
      totalCostUsd: decimal(steps * 0.0153),
      createdAt: iso(run.createdAt),
      updatedAt: iso(Math.min(now, endedAt(run, now) ?? now))
    }
  }

  /** The run's events up to `now`, numbered from 1. */
  const eventsOf = (run: SimulatedRun, now: number) => {
    const events: Array<{ ts: number; type: string; data: Record<string, unknown> }> = [{ ts: run.createdAt, type: "run.created", data: { task: run.task } }]
    const end = endedAt(run, now)
    const until = end ?? now
    if (run.startedAt + stepMs <= until) events.push({ ts: run.startedAt + stepMs, type: "run.started", data: {} })
    for (let step = 1; step <= stepsOf(run, now); step++) {
      if (run.startedAt + step * stepMs <= until) {
        events.push({ ts: run.startedAt + step * stepMs, type: "run.step", data: { step, summary: ["opened the page", "read the results", "wrote the answer"][(step - 1) % 3] } })
      }
    }
    const status = statusOf(run, now)
    if (end !== undefined) {
      events.push({
        ts: end,
        type: `run.${status}`,
        data: status === "completed" ? { result: resultOf(run) } : status === "failed" ? { error: "The agent could not finish the task" } : {}
      })
    }
    return events.map((event, index) => ({ runId: run.id, id: index + 1, ts: iso(event.ts), type: event.type, data: event.data }))
  }

  const sessionInfo = (session: SimulatedRunSession, now: number) => {
    const latest = session.runs.at(-1)!
    return {
      sessionId: session.id,
      workspaceId: session.workspaceId,
      latestRunId: latest.id,
      task: latest.task,
      title: latest.task.slice(0, 40),
      status: statusOf(latest, now),
      createdAt: iso(session.createdAt),
      updatedAt: iso(Math.min(now, endedAt(latest, now) ?? now))
    }
  }

  const messageView = (message: SimulatedQueuedMessage) => ({
    id: message.id,
    sessionId: message.sessionId,
    runId: message.runId,
    status: message.status,
    text: message.text,
    attachedFileIds: message.attachedFileIds,
    createdAt: iso(message.createdAt)
  })

  const findRun = (raw: string) => {
    const run = runs.get(uuidPath(decodeURIComponent(raw), "run_id"))
    if (run === undefined) throw new Detail(404, "Run not found")
    return run
  }
  const findSession = (raw: string) => {
    const session = sessions.get(uuidPath(decodeURIComponent(raw), "session_id"))
    if (session === undefined) throw new Detail(404, "Session not found")
    return session
  }

  /** RunBrowserSettings, checked as its pydantic model is. */
  const browserIssues = (value: unknown, issues: Array<Issue>) => {
    if (value === undefined || value === null) return
    const at = ["body", "browserSettings"]
    if (typeof value !== "object" || Array.isArray(value)) {
      issues.push({ loc: at, msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" })
      return
    }
    const browser = value as Record<string, unknown>
    extra(browser, ["profileId", "proxyCountryCode", "customProxy", "screenWidth", "screenHeight", "record"], at, issues)
    const profileId = uuidField(browser, "profileId", at, issues)
    if (profileId !== null && !settings.profileExists(profileId)) throw new Detail(404, "Profile not found")
    const code = browser["proxyCountryCode"]
    if (code !== undefined && code !== null && (typeof code !== "string" || !proxyCountryCodes.has(code))) {
      issues.push({ loc: [...at, "proxyCountryCode"], msg: "Input should be a valid proxy country code", type: "enum" })
    }
    for (const [field, max] of [["screenWidth", 6144], ["screenHeight", 3456]] as const) {
      const size = browser[field]
      if (size === undefined || size === null) continue
      if (typeof size !== "number" || !Number.isInteger(size)) issues.push({ loc: [...at, field], msg: "Input should be a valid integer", type: "int_type" })
      else if (size < 320) issues.push({ loc: [...at, field], msg: "Input should be greater than or equal to 320", type: "greater_than_equal" })
      else if (size > max) issues.push({ loc: [...at, field], msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" })
    }
    if (browser["record"] !== undefined && browser["record"] !== null && typeof browser["record"] !== "boolean") {
      issues.push({ loc: [...at, "record"], msg: "Input should be a valid boolean", type: "bool_type" })
    }
    const proxy = browser["customProxy"]
    if (proxy !== undefined && proxy !== null) {
      const p = proxy as Record<string, unknown>
      if (typeof p["host"] !== "string" || p["host"].length < 1) issues.push({ loc: [...at, "customProxy", "host"], msg: "Field required", type: "missing" })
      if (typeof p["port"] !== "number" || p["port"] < 1 || p["port"] > 65_535) issues.push({ loc: [...at, "customProxy", "port"], msg: "Field required", type: "missing" })
    }
  }

  /** `POST /runs`: a run in a new session, or a follow-up turn in an idle one. */
  const create = (body: Record<string, unknown>, now: number) => {
    const issues: Array<Issue> = []
    extra(body, ["task", "model", "sessionId", "workspaceId", "browserSettings", "attachedFileIds", "judge", "maxCostUsd"], ["body"], issues)
    const task = body["task"]
    if (task === undefined) issues.push({ loc: ["body", "task"], msg: "Field required", type: "missing" })
    else if (typeof task !== "string") issues.push({ loc: ["body", "task"], msg: "Input should be a valid string", type: "string_type" })
    else if (task.length < 1) issues.push({ loc: ["body", "task"], msg: "String should have at least 1 character", type: "string_too_short" })
    const model = body["model"] ?? "minimax-m3"
    if (typeof model !== "string" || !wireModels.includes(model)) {
      issues.push({ loc: ["body", "model"], msg: `Input should be ${wireModels.map((m) => `'${m}'`).join(", ")}`, type: "enum" })
    }
    const sessionId = uuidField(body, "sessionId", ["body"], issues)
    const workspaceId = uuidField(body, "workspaceId", ["body"], issues)
    const attached = fileIds(body["attachedFileIds"], issues) ?? []
    const cost = body["maxCostUsd"]
    if (cost !== undefined && cost !== null && !(typeof cost === "number" && cost > 0) && !(typeof cost === "string" && Number(cost) > 0)) {
      issues.push({ loc: ["body", "maxCostUsd"], msg: "Input should be greater than 0", type: "greater_than" })
    }
    const judge = body["judge"]
    if (judge !== undefined && judge !== null) {
      if (typeof judge !== "object" || Array.isArray(judge)) issues.push({ loc: ["body", "judge"], msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" })
      else {
        extra(judge as Record<string, unknown>, ["context"], ["body", "judge"], issues)
        const context = (judge as Record<string, unknown>)["context"]
        if (typeof context === "string" && context.length > 10_000) {
          issues.push({ loc: ["body", "judge", "context"], msg: "String should have at most 10000 characters", type: "string_too_long" })
        }
      }
    }
    browserIssues(body["browserSettings"], issues)
    if (issues.length > 0) throw invalid(...issues)
    if (workspaceId !== null && !settings.workspaces.has(workspaceId)) throw new Detail(404, "Workspace not found")
    let session: SimulatedRunSession
    if (sessionId !== null) {
      const found = sessions.get(sessionId)
      if (found === undefined) throw new Detail(404, "Session not found")
      if (workspaceId !== null && workspaceId !== found.workspaceId) throw new Detail(400, "The workspace does not belong to the session")
      const last = found.runs.at(-1)
      if (last !== undefined && endedAt(last, now) === undefined) throw new Detail(409, "The session already has an active run")
      session = found
    } else {
      let workspace = workspaceId
      if (workspace === null) {
        // A new session without a workspace gets one of its own.
        workspace = randomUUID()
        settings.workspaces.set(workspace, { id: workspace, name: null, createdAt: now, updatedAt: now })
      }
      session = { id: randomUUID(), workspaceId: workspace, createdAt: now, runs: [], queue: [] }
      sessions.set(session.id, session)
    }
    const found = attached.filter((id) => uploads.has(id))
    const run = newRun(session, { task: task as string, model: model as string, attachedFileIds: found, judge: judge !== undefined && judge !== null }, now, now)
    return {
      id: run.id,
      status: statusOf(run, now),
      model: run.model,
      sessionId: session.id,
      workspaceId: session.workspaceId,
      eventsUrl: `/api/v4/runs/${run.id}/events`,
      missingFileIds: attached.filter((id) => !uploads.has(id))
    }
  }

  /** `POST /sessions/{id}/queue`: the message runs now on an idle session, else waits (an interrupt cancels the active run first). */
  const enqueue = (session: SimulatedRunSession, body: Record<string, unknown>, now: number) => {
    const issues: Array<Issue> = []
    extra(body, ["text", "interrupt", "attachedFileIds"], ["body"], issues)
    const text = body["text"]
    if (text === undefined) issues.push({ loc: ["body", "text"], msg: "Field required", type: "missing" })
    else if (typeof text !== "string") issues.push({ loc: ["body", "text"], msg: "Input should be a valid string", type: "string_type" })
    else if (text.length < 1) issues.push({ loc: ["body", "text"], msg: "String should have at least 1 character", type: "string_too_short" })
    if (body["interrupt"] !== undefined && typeof body["interrupt"] !== "boolean") issues.push({ loc: ["body", "interrupt"], msg: "Input should be a valid boolean", type: "bool_type" })
    const attached = fileIds(body["attachedFileIds"], issues)
    if (issues.length > 0) throw invalid(...issues)
    if (session.queue.filter((m) => m.status === "pending").length >= maxQueuedMessages) throw new Detail(429, "The session message queue is full")
    const message: SimulatedQueuedMessage = {
      id: ++messageIds, sessionId: session.id, runId: null, status: "pending", text: text as string, attachedFileIds: attached, createdAt: now
    }
    session.queue.push(message)
    const active = session.runs.at(-1)
    if (body["interrupt"] === true && active !== undefined && endedAt(active, now) === undefined) active.cancelledAt = now
    drain(session, now)
    return messageView(message)
  }

  const route = (method: string, path: string, query: URLSearchParams, raw: string): unknown => {
    if (!/^\/(runs|sessions)(\/|$)/.test(path)) return undefined
    if (failures.zeroDataRetention) throw new Detail(403, "Zero Data Retention is enabled on the project (V4 unsupported).")
    const now = settings.now()
    settle(now)
    if (path === "/runs") {
      if (method === "POST") return create(jsonObject(raw), now)
      if (method !== "GET") throw new Detail(405, "Method Not Allowed")
      const limit = integerQuery(query, "limit", 50, 1, Number.MAX_SAFE_INTEGER)
      const sessionId = query.get("sessionId")
      if (sessionId !== null && !uuid.test(sessionId)) throw invalid({ loc: ["query", "sessionId"], msg: "Input should be a valid UUID", type: "uuid_parsing" })
      const all = [...runs.values()].filter((run) => sessionId === null || run.sessionId === sessionId.toLowerCase())
      const page = keysetPage(all, (run) => [run.createdAt, run.id], query, limit)
      return { runs: page.items.map((run) => summary(run, now)), nextCursor: page.nextCursor, hasMore: page.hasMore }
    }
    const runPath = /^\/runs\/([^/]+)(?:\/(status|events|attachments|cancel))?$/.exec(path)
    if (runPath !== null) {
      const run = findRun(runPath[1]!)
      const part = runPath[2]
      if (part === "cancel") {
        if (method !== "POST") throw new Detail(405, "Method Not Allowed")
        // Idempotent: a run that has ended is answered as it is.
        if (endedAt(run, now) === undefined) run.cancelledAt = now
        drain(sessions.get(run.sessionId)!, now)
        return summary(run, now)
      }
      if (method !== "GET") throw new Detail(405, "Method Not Allowed")
      if (part === undefined) return summary(run, now)
      if (part === "status") return { status: statusOf(run, now) }
      if (part === "attachments") {
        return { attachments: run.attachedFileIds.map((id) => ({ ...uploads.get(id)!, status: "uploaded" })) }
      }
      const limit = integerQuery(query, "limit", 200, 1, Number.MAX_SAFE_INTEGER)
      const after = integerQuery(query, "after", 0, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
      const newer = eventsOf(run, now).filter((event) => event.id > after)
      const events = newer.slice(0, limit)
      return { events, nextAfter: events.at(-1)?.id ?? null, hasMore: newer.length > limit }
    }
    if (path === "/sessions") {
      if (method !== "GET") throw new Detail(405, "Method Not Allowed")
      const limit = integerQuery(query, "limit", 20, 1, 100)
      const page = keysetPage([...sessions.values()], (s) => [s.runs.at(-1)!.createdAt, s.id], query, limit)
      return { sessions: page.items.map((s) => sessionInfo(s, now)), nextCursor: page.nextCursor, hasMore: page.hasMore }
    }
    const sessionPath = /^\/sessions\/([^/]+)(?:\/queue(?:\/([^/]+))?)?$/.exec(path)
    if (sessionPath === null) return undefined
    const session = findSession(sessionPath[1]!)
    if (!path.includes("/queue")) {
      if (method !== "GET") throw new Detail(405, "Method Not Allowed")
      return sessionInfo(session, now)
    }
    if (sessionPath[2] === undefined) {
      if (method === "POST") return enqueue(session, jsonObject(raw), now)
      if (method !== "GET") throw new Detail(405, "Method Not Allowed")
      return { queue: session.queue.filter((m) => m.status === "pending").map(messageView) }
    }
    if (method !== "DELETE") throw new Detail(405, "Method Not Allowed")
    const messageId = Number(sessionPath[2])
    if (!/^-?\d+$/.test(sessionPath[2]) || !Number.isSafeInteger(messageId)) {
      throw invalid({ loc: ["path", "message_id"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" })
    }
    const message = session.queue.find((m) => m.id === messageId)
    if (message === undefined) throw new Detail(404, "Queued message not found")
    if (message.status !== "pending") throw new Detail(409, "The message is no longer pending and cannot be cancelled")
    message.status = "cancelled"
    return messageView(message)
  }

  return {
    runs,
    sessions,
    uploads,
    upload: (name, contentType, sizeBytes) => {
      const id = randomUUID()
      uploads.set(id, { id, name, contentType, sizeBytes })
      return id
    },
    route
  }
}
