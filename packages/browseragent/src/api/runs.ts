/**
 * Agent runs, Browser Use Cloud API V4 (`/runs`): create one (a new session, or a follow-up turn
 * in a session), read it, its status (the cheap poll), its events (paged `after` the last event
 * id), its attachments, the list (keyset cursor), cancel it, and run one to its end on the same
 * wait as V3's runTask (`./run.ts`). Every call goes to V4's base URL (`./v4.ts`).
 *
 * As in `../api.ts`, a wire record requires only its id (and a run its status, which the wait
 * reads); anything else it leaves out takes the default stated where the output is built.
 */
import { ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type CustomProxy, customProxyBody } from "./browsers.js"
import { outputSchemaInstruction } from "./outputSchema.js"
import * as Wait from "./run.js"
import { nullable } from "./shared.js"
import * as V4 from "./v4.js"

const { path } = ProviderRequest
const optional = Schema.optional
const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A run's statuses (V4's closed enum); the last three are final. */
export const runStatuses = ["queued", "dispatching", "running", "completed", "failed", "cancelled"] as const
export const finalRunStatuses = ["completed", "failed", "cancelled"] as const
export const isFinal = (status: string) => (finalRunStatuses as ReadonlyArray<string>).includes(status)

/** RunSummary as the wire has it. */
const WireRun = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  task: optional(Schema.String),
  title: nullable(Schema.String),
  model: optional(Schema.String),
  contextLimit: optional(Schema.Number),
  result: nullable(Schema.String),
  error: nullable(Schema.String),
  sessionId: optional(Schema.String),
  workspaceId: nullable(Schema.String),
  attachedFileIds: nullable(Schema.Array(Schema.String)),
  judgement: nullable(JsonObject),
  totalInputTokens: optional(Schema.Number),
  totalOutputTokens: optional(Schema.Number),
  totalCostUsd: optional(Schema.String),
  createdAt: optional(Schema.String),
  updatedAt: optional(Schema.String)
})

/**
 * A run (RunSummary): its task, status, result (text) or error, what it cost, the neutral model.
 * Left out, a text is empty, a nullable null, a list empty, a count 0, the cost `"0"`; the
 * context limit and the dates are then absent.
 */
export const Run = Schema.Struct({
  id: Schema.String,
  /** `queued`, `dispatching`, `running`, `completed`, `failed` or `cancelled` (kept as sent). */
  status: Schema.String,
  task: Schema.String,
  title: Schema.NullOr(Schema.String),
  model: Schema.String,
  contextLimit: Schema.optional(Schema.Number),
  /** The agent's answer, as text; null until it has one. */
  result: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  sessionId: Schema.String,
  workspaceId: Schema.NullOr(Schema.String),
  attachedFileIds: Schema.Array(Schema.String),
  /** The judge's verdict, when one was asked for (null until it lands). */
  judgement: Schema.NullOr(JsonObject),
  totalInputTokens: Schema.Number,
  totalOutputTokens: Schema.Number,
  /** A decimal string, as the wire has it. */
  totalCostUsd: Schema.String,
  createdAt: Schema.optional(Schema.String),
  updatedAt: Schema.optional(Schema.String)
})
export type Run = typeof Run.Type

const toRun = (wire: typeof WireRun.Type): Run => ({
  id: wire.id,
  status: wire.status,
  task: wire.task ?? "",
  title: wire.title ?? null,
  model: V4.neutralModel(wire.model ?? ""),
  contextLimit: wire.contextLimit,
  result: wire.result ?? null,
  error: wire.error ?? null,
  sessionId: wire.sessionId ?? "",
  workspaceId: wire.workspaceId ?? null,
  attachedFileIds: wire.attachedFileIds ?? [],
  judgement: wire.judgement ?? null,
  totalInputTokens: wire.totalInputTokens ?? 0,
  totalOutputTokens: wire.totalOutputTokens ?? 0,
  totalCostUsd: wire.totalCostUsd ?? "0",
  createdAt: wire.createdAt,
  updatedAt: wire.updatedAt
})

const WireCreatedRun = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  model: optional(Schema.String),
  sessionId: optional(Schema.String),
  workspaceId: optional(Schema.String),
  eventsUrl: optional(Schema.String),
  missingFileIds: optional(Schema.Array(Schema.String))
})

/** A run as its creation answers (RunCreateResponse): where it runs, and the attached files that were not found. */
export const CreatedRun = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  model: Schema.String,
  sessionId: Schema.String,
  workspaceId: Schema.String,
  eventsUrl: Schema.String,
  /** Of `attachedFileIds`, those Browser Use did not find (not attached). */
  missingFileIds: Schema.Array(Schema.String)
})
export type CreatedRun = typeof CreatedRun.Type

/** The browser a run gets (RunBrowserSettings): applied when a new browser is provisioned. */
export interface BrowserSettings {
  readonly profileId?: string | undefined
  /** A country of `proxyCountryCodes`, or null for no proxy; Browser Use's default (us) when undefined. */
  readonly proxyCountryCode?: string | null | undefined
  readonly customProxy?: CustomProxy | undefined
  readonly screenWidth?: number | undefined
  readonly screenHeight?: number | undefined
  readonly record?: boolean | undefined
}

/** Everything `POST /runs` takes (RunCreateRequest), with the neutral model name. */
export interface CreateRun {
  readonly task: string
  /** Browser Use's default (`minimax-m3`) when undefined. */
  readonly model?: V4.Model | undefined
  /** A follow-up turn in this session; a new session when undefined. */
  readonly sessionId?: string | undefined
  readonly workspaceId?: string | undefined
  readonly browserSettings?: BrowserSettings | undefined
  readonly attachedFileIds?: ReadonlyArray<string> | undefined
  /** Judge the finished run (billed to it), with this context if given. */
  readonly judge?: { readonly context?: string | undefined } | undefined
  readonly maxCostUsd?: number | undefined
}

const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))

/** The request's body: only what is given, the model under its wire name. */
export const createRunBody = (request: CreateRun): Record<string, unknown> => {
  const browser = request.browserSettings
  return defined({
    task: request.task,
    model: request.model === undefined ? undefined : V4.models[request.model],
    sessionId: request.sessionId,
    workspaceId: request.workspaceId,
    browserSettings: browser === undefined ? undefined : defined({
      profileId: browser.profileId,
      proxyCountryCode: browser.proxyCountryCode,
      customProxy: browser.customProxy === undefined ? undefined : customProxyBody(browser.customProxy),
      screenWidth: browser.screenWidth,
      screenHeight: browser.screenHeight,
      record: browser.record
    }),
    attachedFileIds: request.attachedFileIds,
    judge: request.judge === undefined ? undefined : defined({ context: request.judge.context }),
    maxCostUsd: request.maxCostUsd
  })
}

/** Runs `f` with the connection's client at V4's base URL. */
const onV4 = <A>(client: ProviderClient.ProviderClient, f: (v4: ProviderClient.ProviderClient) => Effect.Effect<A, ConnectorError.ConnectorError>) =>
  Effect.flatMap(V4.client(client), f)

export const createRun = (client: ProviderClient.ProviderClient, request: CreateRun): Effect.Effect<CreatedRun, ConnectorError.ConnectorError> =>
  onV4(client, (v4) =>
    Effect.map(
      v4.json({ method: "POST", path: "/runs", body: ProviderRequest.jsonBody(createRunBody(request)) }, WireCreatedRun),
      (wire): CreatedRun => ({
        id: wire.id,
        status: wire.status,
        model: V4.neutralModel(wire.model ?? ""),
        sessionId: wire.sessionId ?? "",
        workspaceId: wire.workspaceId ?? "",
        eventsUrl: wire.eventsUrl ?? "",
        missingFileIds: wire.missingFileIds ?? []
      })
    ))

export const getRun = (client: ProviderClient.ProviderClient, runId: string) =>
  onV4(client, (v4) => Effect.map(v4.json({ method: "GET", path: path`/runs/${runId}` }, WireRun), toRun))

/** Just the run's status (RunStatusResponse): the poll Browser Use asks for while a run goes on. */
export const RunStatus = Schema.Struct({ status: Schema.String })
export type RunStatus = typeof RunStatus.Type

export const runStatus = (client: ProviderClient.ProviderClient, runId: string) =>
  onV4(client, (v4) => v4.json({ method: "GET", path: path`/runs/${runId}/status` }, RunStatus))

/** Cancels a run (idempotent: a finished run is answered as it is); the run as it is after. */
export const cancelRun = (client: ProviderClient.ProviderClient, runId: string) =>
  onV4(client, (v4) => Effect.map(v4.json({ method: "POST", path: path`/runs/${runId}/cancel` }, WireRun), toRun))

const RunPage = Schema.Struct({ runs: Schema.Array(WireRun), nextCursor: nullable(Schema.String), hasMore: optional(Schema.Boolean) })

/** The runs, newest first (of one session when given), as a stream: keyset cursor pages of 100. */
export const runs = (client: ProviderClient.ProviderClient, options: { readonly sessionId?: string | undefined; readonly maxItems?: number | undefined } = {}) =>
  Stream.unwrap(Effect.map(V4.client(client), (v4) =>
    Pagination.cursor({ pageSize: 100, maxItems: options.maxItems }, (cursor, limit) =>
      Effect.map(
        v4.json({ method: "GET", path: "/runs", query: { limit, cursor, sessionId: options.sessionId } }, RunPage),
        (page) => ({ items: page.runs.map(toRun), next: page.hasMore === false ? undefined : page.nextCursor })
      ))))

/** One event of a run (RunEvent): its id orders them; `data` depends on the type. */
export const RunEvent = Schema.Struct({
  id: Schema.Number,
  runId: Schema.String,
  ts: Schema.String,
  /** e.g. `run.started`, `run.completed` (kept as sent). */
  type: Schema.String,
  data: JsonObject
})
export type RunEvent = typeof RunEvent.Type

const WireEvent = Schema.Struct({
  id: Schema.Number,
  runId: optional(Schema.String),
  ts: optional(Schema.String),
  type: optional(Schema.String),
  data: optional(JsonObject)
})
const EventPage = Schema.Struct({ events: Schema.Array(WireEvent), nextAfter: nullable(Schema.Number), hasMore: optional(Schema.Boolean) })

/**
 * A run's events, oldest first, as a stream: pages of 200 (the document's default), each next
 * one `after` the page's `nextAfter` while `hasMore`.
 */
export const runEvents = (client: ProviderClient.ProviderClient, runId: string, maxItems?: number) =>
  Stream.unwrap(Effect.map(V4.client(client), (v4) =>
    Pagination.cursor({ pageSize: 200, maxItems }, (after, limit) =>
      Effect.map(
        v4.json({ method: "GET", path: path`/runs/${runId}/events`, query: { limit, after: after === undefined ? undefined : Number(after) } }, EventPage),
        (page) => ({
          items: page.events.map((wire): RunEvent => ({ id: wire.id, runId: wire.runId ?? runId, ts: wire.ts ?? "", type: wire.type ?? "", data: wire.data ?? {} })),
          next: page.hasMore === true && page.nextAfter !== undefined && page.nextAfter !== null ? String(page.nextAfter) : undefined
        })
      ))))

/** A file attached to a run (RunAttachment). */
export const RunAttachment = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  sizeBytes: Schema.Number,
  /** `pending` or `uploaded`. */
  status: Schema.String
})
export type RunAttachment = typeof RunAttachment.Type

const WireAttachment = Schema.Struct({
  id: Schema.String,
  name: optional(Schema.String),
  contentType: optional(Schema.String),
  sizeBytes: optional(Schema.Number),
  status: optional(Schema.String)
})

/** A run's attached files, in the order they were attached (one answer, no paging). */
export const runAttachments = (client: ProviderClient.ProviderClient, runId: string) =>
  onV4(client, (v4) =>
    Effect.map(
      v4.json({ method: "GET", path: path`/runs/${runId}/attachments` }, Schema.Struct({ attachments: Schema.Array(WireAttachment) })),
      (answer) =>
        answer.attachments.map((wire): RunAttachment => ({
          id: wire.id,
          name: wire.name ?? "",
          contentType: wire.contentType ?? "application/octet-stream",
          sizeBytes: wire.sizeBytes ?? 0,
          status: wire.status ?? "uploaded"
        }))
    ))

/**
 * The task with the output schema it must follow, as the agent reads it: V4 takes no output
 * schema, so the task carries it after `outputSchemaInstruction`; the answer is checked against
 * it as V3's is.
 */
export const taskWithSchema = (task: string, schema: Readonly<Record<string, unknown>> | undefined) =>
  schema === undefined ? task : `${task}\n\n${outputSchemaInstruction}\n${JSON.stringify(schema)}`

/** A run to its end: its output (checked against the output schema), error and cost. */
export const RunResult = Schema.Struct({
  runId: Schema.String,
  sessionId: Schema.String,
  /** How the run ended: `completed`, `failed` or `cancelled`. */
  status: Schema.String,
  /** The result text, or the structured output following the output schema; null unless completed. */
  output: Schema.Unknown,
  error: Schema.NullOr(Schema.String),
  cost: Schema.Struct({ totalUsd: Schema.String, inputTokens: Schema.Number, outputTokens: Schema.Number }),
  run: Run
})
export type RunResult = typeof RunResult.Type

export interface RunAndWait extends CreateRun {
  /** The JSON Schema the answer must follow (given to the agent with the task); none for text. */
  readonly outputSchema?: Readonly<Record<string, unknown>> | undefined
  readonly timeoutSeconds: number
  /** On timeout, leave the run going instead of cancelling it. */
  readonly keepRunning?: boolean | undefined
}

/**
 * Creates a run, polls its status on V3's backoff (`Wait.pollUntil`) until it is final, reads
 * it once, and returns its result; past the timeout a Timeout naming the run and its last
 * status, the run cancelled unless `keepRunning`.
 */
export const runAndWait = (client: ProviderClient.ProviderClient, request: RunAndWait): Effect.Effect<RunResult, ConnectorError.ConnectorError> =>
  Effect.gen(function*() {
    const { keepRunning, outputSchema, timeoutSeconds, ...create } = request
    const created = yield* createRun(client, { ...create, task: taskWithSchema(create.task, outputSchema) })
    yield* Wait.pollUntil<RunStatus>({
      initial: { status: created.status },
      poll: runStatus(client, created.id),
      done: (seen) => isFinal(seen.status),
      timeoutSeconds,
      onTimeout: (last) =>
        Effect.flatMap(
          keepRunning === true
            ? Effect.succeed("; it was left running (keepRunning)")
            : Effect.match(cancelRun(client, created.id), {
              onSuccess: () => "; it was cancelled",
              onFailure: (error) => `; cancelling it failed (${error._tag}: ${error.message})`
            }),
          (done) =>
            Effect.fail(new ConnectorError.Timeout({
              message: `run ${created.id} did not end within ${timeoutSeconds}s; it was last ${last.status}${done}`,
              body: { id: created.id, status: last.status }
            }))
        )
    })
    const run = yield* getRun(client, created.id)
    const completed = run.status === "completed"
    const output = !completed ? null : outputSchema === undefined ? run.result : yield* Wait.structuredOutput(`run ${run.id}`, run.result, outputSchema)
    return {
      runId: run.id,
      sessionId: run.sessionId,
      status: run.status,
      output,
      error: run.error,
      cost: { totalUsd: run.totalCostUsd, inputTokens: run.totalInputTokens, outputTokens: run.totalOutputTokens },
      run
    }
  })
