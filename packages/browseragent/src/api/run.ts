/**
 * Running a task and waiting for it (Browser Use v3 has no call that waits: the session is
 * polled), stopping a session or its task, and the sessions that have finished.
 */
import { ConnectorError, Pagination, type ProviderClient, ProviderRequest } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { mismatch } from "../jsonSchema.js"
import * as Sessions from "./sessions.js"
import * as Workspaces from "./workspaces.js"

const { path } = ProviderRequest

/** `task`: stop the running task, the session stays (idle); `session`: end the session and its sandbox. */
export const stopStrategies = ["task", "session"] as const
export type StopStrategy = typeof stopStrategies[number]

export const stopSession = (client: ProviderClient.ProviderClient, sessionId: string, strategy: StopStrategy) =>
  Effect.map(
    client.json({ method: "POST", path: path`/sessions/${sessionId}/stop`, body: ProviderRequest.jsonBody({ strategy }) }, Sessions.WireSession),
    Sessions.toSession
  )

/** How often a running task is looked at: from 1 s, doubling, at most every 10 s. */
export const polling = Schedule.exponential("1 second").pipe(
  Schedule.modifyDelay((_, delay) => Duration.min(delay, Duration.seconds(10)))
)

export interface Wait {
  readonly timeoutSeconds: number
  /** The task was sent to an existing session, which may still show its previous task's result. */
  readonly dispatched: boolean
  /** Run once the time is up, before the Timeout: what was done about the task, said in its message. */
  readonly onTimeout?: ((last: Sessions.Session) => Effect.Effect<string>) | undefined
}

const timeoutMessage = (last: Sessions.Session, seconds: number) =>
  `the task of session ${last.id} did not end within ${seconds}s; the session was last ${last.status} after ${last.stepCount} steps${
    last.lastStepSummary === null ? "" : ` (${last.lastStepSummary})`
  }`

/**
 * Polls `poll` on the `polling` backoff until what it sees is `done`, and returns that; past
 * `timeoutSeconds`, fails with what `onTimeout` makes of the last thing seen (`initial`, what
 * the create answered, before the first poll). Shared by V3's runTask and V4's runAndWait.
 */
export const pollUntil = <A>(options: {
  readonly initial: A
  readonly poll: Effect.Effect<A, ConnectorError.ConnectorError>
  readonly done: (seen: A) => boolean
  readonly timeoutSeconds: number
  readonly onTimeout: (last: A) => Effect.Effect<never, ConnectorError.ConnectorError>
}): Effect.Effect<A, ConnectorError.ConnectorError> => {
  let last = options.initial
  return options.poll.pipe(
    Effect.tap((seen) => Effect.sync(() => (last = seen))),
    Effect.repeat({ schedule: polling, until: options.done }),
    Effect.map(() => last),
    Effect.timeout(Duration.seconds(options.timeoutSeconds)),
    Effect.catchTag("TimeoutException", () => options.onTimeout(last))
  )
}

/**
 * Polls the session `session` (as the POST answered) on the `polling` backoff until its task
 * has ended (`Sessions.taskEnded`), and returns it as last seen; past the timeout, a Timeout naming
 * the session and its last status, with that session as its body.
 */
export const waitForTask = (
  client: ProviderClient.ProviderClient,
  session: Sessions.Session,
  wait: Wait
): Effect.Effect<Sessions.Session, ConnectorError.ConnectorError> => {
  if (!wait.dispatched && Sessions.taskEnded(session)) return Effect.succeed(session)
  // A session the task was dispatched to may still show its previous task's result: its idle
  // counts only once this task has been seen running or has taken steps.
  let started = !wait.dispatched || session.status === "running"
  return pollUntil({
    initial: session,
    poll: Effect.tap(Sessions.getSession(client, session.id), (seen) =>
      Effect.sync(() => {
        if (seen.status === "running") started = true
      })),
    done: (seen) => Sessions.taskEnded(seen) && (started || seen.status !== "idle" || seen.stepCount > session.stepCount),
    timeoutSeconds: wait.timeoutSeconds,
    onTimeout: (last) =>
      Effect.flatMap(wait.onTimeout?.(last) ?? Effect.succeed(""), (done) =>
        Effect.fail(new ConnectorError.Timeout({ message: timeoutMessage(last, wait.timeoutSeconds) + done, body: last })))
  })
}

/** What a task cost (decimal strings in USD, as the wire has them) and its tokens. */
export const Cost = Schema.Struct({
  totalUsd: Schema.String,
  llmUsd: Schema.String,
  proxyUsd: Schema.String,
  browserUsd: Schema.String,
  inputTokens: Schema.Number,
  outputTokens: Schema.Number
})

/** A task run to its end: its output (checked against the output schema), cost and files. */
export const TaskResult = Schema.Struct({
  sessionId: Schema.String,
  /** How the session ended: idle (kept alive), stopped, timed_out or error. */
  status: Schema.String,
  isTaskSuccessful: Schema.NullOr(Schema.Boolean),
  /** Text, or the structured output following the output schema; null when the task did not succeed. */
  output: Schema.Unknown,
  cost: Cost,
  /** The files of the session's workspace (none without a workspace). */
  files: Schema.Array(Workspaces.WorkspaceFile),
  session: Sessions.Session
})
export type TaskResult = typeof TaskResult.Type

/** A task to run: what `POST /sessions` takes for it, how long to wait, and what to do on timeout. */
export interface RunTask extends Pick<Sessions.CreateSessionRequest, "outputSchema" | "sessionId" | "keepAlive" | "enableScheduledTasks" | "skills"> {
  readonly task: string
  readonly model: Sessions.Model
  readonly timeoutSeconds: number
  /** On timeout, leave the task running instead of stopping it. */
  readonly keepRunning?: boolean | undefined
}

/** The most workspace files a result lists. */
export const maxFiles = 1000

/**
 * The structured output of a successful task or run (`subject` names it), checked against the
 * schema it was asked to follow (a JSON text is parsed first); an UnexpectedResponse names
 * where it does not.
 */
export const structuredOutput = (subject: string, answer: unknown, schema: Readonly<Record<string, unknown>>) => {
  let output = answer
  if (typeof output === "string") {
    try {
      output = JSON.parse(output)
    } catch {
      // Not JSON: reported below as what it is, a string.
    }
  }
  const problem = mismatch(schema, output)
  return problem === undefined
    ? Effect.succeed(output)
    : Effect.fail(new ConnectorError.UnexpectedResponse({ message: `the output of ${subject} does not follow the output schema: ${problem}`, body: output }))
}

/**
 * Creates a session with the task (or dispatches it to the idle `sessionId`), waits for it to
 * end, and returns its result. On timeout the task is stopped, unless `keepRunning`: the task
 * only in a session meant to outlive it (dispatched, or kept alive), else the whole session.
 */
export const runTask = (client: ProviderClient.ProviderClient, request: RunTask): Effect.Effect<TaskResult, ConnectorError.ConnectorError> =>
  Effect.gen(function*() {
    const { enableScheduledTasks, keepAlive, model, outputSchema, sessionId, skills, task } = request
    const created = yield* Sessions.createSession(client, { task, model, sessionId, outputSchema, keepAlive, enableScheduledTasks, skills })
    const strategy: StopStrategy = request.sessionId !== undefined || request.keepAlive === true ? "task" : "session"
    const session = yield* waitForTask(client, created, {
      timeoutSeconds: request.timeoutSeconds,
      dispatched: request.sessionId !== undefined,
      onTimeout: (last) =>
        request.keepRunning === true
          ? Effect.succeed("; it was left running (keepRunning)")
          : Effect.match(stopSession(client, last.id, strategy), {
            onSuccess: () => strategy === "task" ? "; its task was stopped" : "; the session was stopped",
            onFailure: (error) => `; stopping it failed (${error._tag}: ${error.message})`
          })
    })
    const succeeded = session.isTaskSuccessful === true
    const output = succeeded && request.outputSchema !== undefined ? yield* structuredOutput(`session ${session.id}`, session.output, request.outputSchema) : session.output
    const files = session.workspaceId === null ? [] : yield* Pagination.collect(Workspaces.workspaceFiles(client, session.workspaceId, { maxItems: maxFiles }))
    return {
      sessionId: session.id,
      status: session.status,
      isTaskSuccessful: session.isTaskSuccessful,
      output,
      cost: {
        totalUsd: session.totalCostUsd,
        llmUsd: session.llmCostUsd,
        proxyUsd: session.proxyCostUsd,
        browserUsd: session.browserCostUsd,
        inputTokens: session.totalInputTokens,
        outputTokens: session.totalOutputTokens
      },
      files,
      session
    }
  })

/** The statuses a session ends with: it takes no task after them. */
export const finalStatuses = ["stopped", "timed_out", "error"] as const
export const isFinished = (session: Sessions.Session) => (finalStatuses as ReadonlyArray<string>).includes(session.status)

/** The sessions created at or after `since` (epoch ms), newest first: the list is in that order. */
export const sessionsSince = (client: ProviderClient.ProviderClient, since: number) =>
  Pagination.collect(Sessions.sessions(client).pipe(Stream.takeWhile((session) => Date.parse(session.createdAt) >= since)))

/** The `count` newest sessions: one page. */
export const latestSessions = (client: ProviderClient.ProviderClient, count: number) =>
  Pagination.collect(Sessions.sessions(client).pipe(Stream.take(count)))
