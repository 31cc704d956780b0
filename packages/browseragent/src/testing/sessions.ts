/**
 * The sessions' part of the simulator beyond creating and reading one: RunTaskRequest's options
 * validated as Browser Use's pydantic model does (a 422 list naming each field), and a session's
 * messages (`GET /sessions/{id}/messages`) with the document's cursor paging: per task, the user's
 * task, a message per step taken so far, and the answer once it has ended.
 */
import { createHash } from "node:crypto"
import { proxyCountryCodes as countryCodes } from "../api/proxyCountries.js"
import { Detail, type Issue, integerQuery, invalid, uuidPath } from "./fastapi.js"

const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
// The document's decimal pattern for `maxCostUsd` given as text.
const decimalText = /^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$/

export const proxyCountryCodes: ReadonlySet<string> = new Set(countryCodes)

const booleans = ["keepAlive", "enableScheduledTasks", "enableRecording", "skills", "agentmail", "codeMode", "useOwnKey", "autoHeal"]

/** The problems of RunTaskRequest's options besides task, model, sessionId and outputSchema, each named. */
export const optionIssues = (body: Record<string, unknown>): Array<Issue> => {
  const issues: Array<Issue> = []
  const at = (field: string, msg: string, type: string) => issues.push({ loc: ["body", field], msg, type })
  for (const flag of booleans) {
    if (body[flag] !== undefined && typeof body[flag] !== "boolean") at(flag, "Input should be a valid boolean", "bool_type")
  }
  if (body["cacheScript"] !== undefined && body["cacheScript"] !== null && typeof body["cacheScript"] !== "boolean") {
    at("cacheScript", "Input should be a valid boolean", "bool_type")
  }
  for (const id of ["profileId", "workspaceId"]) {
    const value = body[id]
    if (value !== undefined && value !== null && (typeof value !== "string" || !uuid.test(value))) at(id, "Input should be a valid UUID", "uuid_parsing")
  }
  const proxy = body["proxyCountryCode"]
  if (proxy !== undefined && proxy !== null && !proxyCountryCodes.has(String(proxy))) {
    at("proxyCountryCode", "Input should be 'ad', 'ae', 'af', … or 'zw'", "enum")
  }
  const cost = body["maxCostUsd"]
  if (cost !== undefined && cost !== null) {
    const number = typeof cost === "number" ? cost : typeof cost === "string" && decimalText.test(cost) ? Number(cost) : Number.NaN
    if (Number.isNaN(number)) at("maxCostUsd", "Input should be a valid decimal", "decimal_parsing")
    else if (number <= 0) at("maxCostUsd", "Input should be greater than 0", "greater_than")
  }
  const secrets = body["sensitiveData"]
  if (secrets !== undefined && secrets !== null) {
    if (typeof secrets !== "object" || Array.isArray(secrets)) at("sensitiveData", "Input should be a valid dictionary", "dict_type")
    else {
      for (const [name, value] of Object.entries(secrets)) {
        if (typeof value !== "string") issues.push({ loc: ["body", "sensitiveData", name], msg: "Input should be a valid string", type: "string_type" })
      }
    }
  }
  // Script caching keeps the script in a workspace: asked for without one, the request is refused.
  if (body["cacheScript"] === true && (body["workspaceId"] === undefined || body["workspaceId"] === null) && (body["sessionId"] === undefined || body["sessionId"] === null)) {
    at("cacheScript", "Value error, cache_script requires workspace_id", "value_error")
  }
  return issues
}

/** A stored message (MessageResponse). */
export interface SimulatedMessage {
  readonly id: string
  readonly sessionId: string
  readonly role: "human" | "ai"
  readonly data: string
  readonly type: string
  readonly summary: string
  readonly screenshotUrl: string | null
  readonly hidden: boolean
  readonly createdAt: string
}

/** Where one task of a session stands, as the simulator's clock has it. */
export interface TaskState {
  readonly text: string
  readonly startedAt: number
  /** Steps taken so far, and when each was. */
  readonly steps: number
  readonly stepMs: number
  /** The answer once the task has ended (text, or the structured output as JSON), else undefined. */
  readonly answer: string | undefined
  /** When it ended, if it has. */
  readonly endedAt: number | undefined
}

/** A stable UUID for a message: the same on every request, so that it works as a cursor. */
const messageId = (sessionId: string, task: number, n: number) => {
  const hex = createHash("sha256").update(`${sessionId}/${task}/${n}`).digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const stepSummaries = ["Navigating to the site", "Reading the results", "Writing the answer"]

/** The messages of a session's tasks so far, in order. */
export const messagesOf = (sessionId: string, tasks: ReadonlyArray<TaskState>): Array<SimulatedMessage> =>
  tasks.flatMap((task, t) => {
    const make = (n: number, role: "human" | "ai", type: string, summary: string, data: string, at: number, screenshot = false): SimulatedMessage => ({
      id: messageId(sessionId, t, n),
      sessionId,
      role,
      data,
      type,
      summary,
      screenshotUrl: screenshot ? `https://screenshots.browser-use.com/${sessionId}/${t + 1}-${n}.png` : null,
      hidden: false,
      createdAt: new Date(at).toISOString()
    })
    const steps = Array.from({ length: task.steps }, (_, i) => {
      const summary = stepSummaries[i % stepSummaries.length]!
      return make(i + 1, "ai", "browser_action", summary, JSON.stringify({ action: summary, step: i + 1 }), task.startedAt + (i + 1) * task.stepMs, true)
    })
    return [
      make(0, "human", "user_message", task.text.slice(0, 80), task.text, task.startedAt),
      ...steps,
      ...(task.answer !== undefined && task.endedAt !== undefined
        ? [make(task.steps + 1, "ai", "assistant_message", "Task completed", task.answer, task.endedAt)]
        : [])
    ]
  })

/**
 * A page of messages (MessageListResponse): the first `limit` without a cursor, the `limit`
 * after `after`, or the `limit` right before `before`; `hasMore` when more lie that way.
 */
export const messagePage = (all: ReadonlyArray<SimulatedMessage>, query: URLSearchParams) => {
  const limit = integerQuery(query, "limit", 10, 1, 100)
  const cursor = (name: "after" | "before") => {
    const given = query.get(name)
    if (given === null || given === "") return undefined
    if (!uuid.test(given)) throw invalid({ loc: ["query", name], msg: "Input should be a valid UUID", type: "uuid_parsing" })
    const index = all.findIndex((m) => m.id === given.toLowerCase())
    if (index < 0) throw new Detail(404, "Message not found")
    return index
  }
  const after = cursor("after")
  const before = cursor("before")
  if (before !== undefined && after === undefined) {
    const start = Math.max(0, before - limit)
    return { messages: all.slice(start, before), hasMore: start > 0 }
  }
  const start = after === undefined ? 0 : after + 1
  const end = Math.min(before ?? all.length, start + limit)
  return { messages: all.slice(start, end), hasMore: end < (before ?? all.length) }
}

/** The session id of a messages path, checked as FastAPI checks it. */
export const sessionIdOf = (raw: string) => uuidPath(decodeURIComponent(raw), "session_id")
