/**
 * The runs of `serve`, in its database (`Database.RunsSql`): each accepted trigger event is a
 * run (keyed by its workflow and event id: a redelivery is the same run), with its status and
 * each step's input, output and error. A delivery is acknowledged once its run is committed
 * (group commit: `internal/writeBatcher`); the engine then executes it. `x-runner runs` reads
 * the same tables.
 *
 * Each task of the run's tree has a row, keyed by its path in the run (`overdue[3].comment`):
 * actions, and the groups, loops and waits around them (`x-runner runs show` lists them).
 * Actions carry a write marker: before an attempt sends a request that creates or changes
 * something, the time and the attempt are committed on its row; an attempt found with its
 * marker and no result was cut short after it may have reached the provider, so it is not
 * blindly repeated.
 *
 * @since 0.3.0
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { createHash, randomUUID } from "node:crypto"
import { errorText, RunsSql, RunsWrites, wrongInItself } from "./Database.js"
import type * as WriteBatcher from "./internal/writeBatcher.js"

/**
 * A run's status: accepted (waiting for the engine), running, and its end.
 * `unknown`: a step may or may not have reached the provider before a stop; a person decides
 * (`x-runner runs retry`).
 *
 * @since 0.3.0
 * @category models
 */
export type RunStatus = "accepted" | "running" | "succeeded" | "failed" | "unknown"

/**
 * A step's status in a run.
 *
 * @since 0.3.0
 * @category models
 */
export type StepStatus = "running" | "succeeded" | "failed" | "skipped" | "unknown"

/**
 * A run as `x-runner runs` lists it.
 *
 * @since 0.3.0
 * @category models
 */
export interface Run {
  readonly id: string
  readonly workflow: string
  readonly eventId: string
  readonly status: RunStatus
  /** 0 for the first execution; one more for each `runs retry`. */
  readonly attempt: number
  readonly acceptedAt: number
  readonly startedAt: number | undefined
  readonly finishedAt: number | undefined
  readonly failedStep: string | undefined
  /** The runner that started it last (another one resumes the runs of a runner that died). */
  readonly runner: string | undefined
  /** Who made it: `serve` (an event accepted) or `run` (the command line, which ran it itself). */
  readonly origin: "serve" | "run"
  /** The workflow file a run of `x-runner run` ran. */
  readonly file: string | undefined
  /** How a run of `x-runner run` was run, to run it again the same way. */
  readonly rerun: Rerun | undefined
}

/**
 * How a run of `x-runner run` was run: its connection source and file settings, and of its
 * `--input` values only their names and a salted digest (they may be secret), so that a retry
 * is given the same ones again.
 *
 * @since 0.7.0
 * @category models
 */
export const Rerun = Schema.Struct({
  sandbox: Schema.Boolean,
  connections: Schema.optional(Schema.String),
  withoutRateLimits: Schema.Boolean,
  filesDir: Schema.optional(Schema.String),
  allowPrivateNetworks: Schema.Boolean,
  inputNames: Schema.Array(Schema.String),
  inputsSalt: Schema.String,
  inputsDigest: Schema.String,
  /** The workflow file's SHA-256 when it ran: a retry refuses a file changed since (absent in rows of before). */
  fileDigest: Schema.optional(Schema.String)
})

/**
 * @since 0.7.0
 * @category models
 */
export type Rerun = typeof Rerun.Type

/**
 * A task of a run: an action (its `type`), or a group, loop or wait around actions.
 *
 * @since 0.3.0
 * @category models
 */
export interface Step {
  /** Its name path with iteration indexes: `overdue[3].comment` (a top-level task's is its name). */
  readonly path: string
  readonly name: string
  readonly kind: "action" | "group" | "loop" | "wait" | "call"
  /** An action's type; a group's, loop's, wait's or call's kind. */
  readonly type: string
  readonly status: StepStatus
  readonly input?: unknown
  readonly output?: unknown
  readonly error?: { readonly tag: string; readonly message: string } | undefined
  readonly startedAt?: number | undefined
  readonly durationMs?: number | undefined
  /** An action's attempts, when it ran. */
  readonly attempts?: number | undefined
  /** How long an action's requests waited for their rate limits (ms), when they waited. */
  readonly rateLimitWaitMs?: number | undefined
  /** When a request that creates or changes something was about to be sent, if one was. */
  readonly writeSentAt?: number | undefined
  /** The attempt (1, 2, …) that was about to send it. */
  readonly writeAttempt?: number | undefined
}

/**
 * A run as the runs page lists it: a `Run`, with what the list shows beside it.
 *
 * @since 0.9.0
 * @category models
 */
export interface ListedRun extends Run {
  /** Set while the run waits (a `delay` or an `until`): the time it waits until. */
  readonly waitingUntil: number | undefined
  /** How many of its tasks were skipped. */
  readonly skipped: number
  /** When its row last changed (accepted, started, waiting, finished, retried), in ms. */
  readonly changedAt: number
}

/**
 * Where a page of runs ends: the next page starts after it (newest first: `accepted_at` DESC,
 * then `id` DESC, so that runs accepted in the same millisecond are neither repeated nor skipped).
 *
 * @since 0.9.0
 * @category models
 */
export interface Cursor {
  readonly acceptedAt: number
  readonly id: string
}

/**
 * A page of the runs page's list: its filters, and where it starts.
 *
 * @since 0.9.0
 * @category models
 */
export interface RunsQuery {
  /** 1..200 (a value beyond is brought within; one that is not a number is 50). */
  readonly limit: number
  readonly workflow?: string | undefined
  /** `running` is a run running and not waiting; `waiting` one whose waits last (`waiting_until` set). */
  readonly status?: RunStatus | "waiting" | undefined
  /** `accepted_at >= from` (ms). */
  readonly from?: number | undefined
  /** `accepted_at < to` (ms). */
  readonly to?: number | undefined
  /**
   * Case-insensitive substring of the trigger event's JSON or of any step's input, output or
   * error JSON, taken literally (`%`, `_` and `\` are no wildcards). Text inside a JSON string
   * is found as written (`say "hi"` finds `"say \"hi\""`). SQLite folds the case of ASCII
   * letters only; PostgreSQL of every letter.
   */
  readonly search?: string | undefined
  readonly after?: Cursor | undefined
}

/**
 * A run's status as the runs page shows it: `waiting` for a running run whose waits last.
 *
 * @since 0.9.0
 * @category models
 */
export type ListedStatus = RunStatus | "waiting"

/**
 * The store could not be read or written.
 *
 * @since 0.3.0
 * @category errors
 */
export class StoreFailed extends Data.TaggedError("StoreFailed")<{ readonly message: string }> {}

/**
 * The runs' store.
 *
 * @since 0.3.0
 * @category models
 */
export interface RunStore {
  /** Commits the event as a run (group-committed); `fresh` is false for an event accepted before. */
  readonly accept: (workflow: string, event: { readonly id: string; readonly output: unknown }) => Effect.Effect<{
    readonly runId: string
    readonly fresh: boolean
  }, StoreFailed>
  /**
   * Unfinished runs whose current attempt was not handed to the engine yet (oldest first, at
   * most `max`): the engine, not the store, decides which runner executes each.
   */
  readonly toHand: (max: number) => Effect.Effect<ReadonlyArray<{ readonly runId: string; readonly attempt: number }>, StoreFailed>
  /**
   * How many runs are in the engine and not waiting (handed, unfinished, none of their waits
   * under way): what the engine has still to run.
   */
  readonly inEngine: Effect.Effect<number, StoreFailed>
  /** The run waits (a `delay` or an `until`) until this time, or waits no more (none). */
  readonly waiting: (runId: string, until: number | undefined) => Effect.Effect<void, StoreFailed>
  /** The run's attempt is in the engine (its execution started or stored there). */
  readonly handed: (runId: string, attempt: number) => Effect.Effect<void, StoreFailed>
  /**
   * The run's attempt is to be handed to the engine again: its execution ended without
   * finishing the run, or (`runId` absent) every unfinished run, for an engine that keeps its
   * executions in memory (the embedded one, at its start).
   */
  readonly handAgain: (runId?: string) => Effect.Effect<void, StoreFailed>
  /**
   * A run `x-runner run` runs itself, recorded as it starts (`running`, this process's): no
   * serving runner hands it to its engine. Its tasks and end are written as a served run's are.
   */
  readonly recordStarted: (run: { readonly workflow: string; readonly file: string; readonly runner: string; readonly rerun: Rerun }) => Effect.Effect<string, StoreFailed>
  /**
   * A failed (or unknown) run of `x-runner run`, run again by this process: its next attempt,
   * `running` and this runner's, its tasks that did not succeed cleared; the run and the tasks
   * it keeps. None when there is no such run in that state.
   */
  readonly retryHere: (runId: string, runner: string) => Effect.Effect<Option.Option<{ readonly run: Run; readonly steps: ReadonlyMap<string, Step> }>, StoreFailed>
  /** How many runs were accepted and have not finished (waiting, or in the engine). */
  readonly unfinished: Effect.Effect<number, StoreFailed>
  /**
   * The run, its event's output, and the tasks recorded so far by path (a run resumed or
   * retried finds what its tasks did).
   */
  readonly load: (runId: string) => Effect.Effect<Option.Option<{
    readonly run: Run
    readonly event: unknown
    readonly steps: ReadonlyMap<string, Step>
  }>, StoreFailed>
  /** The run is started (or resumed) by this runner. */
  readonly runStarted: (runId: string, attempt: number, runner: string) => Effect.Effect<void, StoreFailed>
  readonly step: (runId: string, path: string) => Effect.Effect<Option.Option<Step>, StoreFailed>
  /**
   * Commits the write marker (its time, and the attempt's number); only then may the request
   * go. An attempt's marker is kept when it is committed again (a request after the first).
   * Which runner writes a run's progress is the engine's to decide (one execution of a run at
   * a time).
   */
  readonly writeSent: (
    runId: string,
    step: { readonly path: string; readonly name: string; readonly type: string; readonly attempt: number }
  ) => Effect.Effect<number, StoreFailed>
  readonly stepFinished: (runId: string, step: Step) => Effect.Effect<void, StoreFailed>
  /** The run's end, written only while `attempt` is its latest (false: a retry replaced it). */
  readonly runFinished: (runId: string, attempt: number, status: RunStatus, failedStep: string | undefined) => Effect.Effect<boolean, StoreFailed>
  readonly list: (options: {
    readonly limit: number
    readonly status?: RunStatus | undefined
    readonly workflow?: string | undefined
    /** Only `serve`'s runs, or only those `x-runner run` recorded. */
    readonly origin?: Run["origin"] | undefined
  }) => Effect.Effect<ReadonlyArray<Run>, StoreFailed>
  readonly show: (runId: string) => Effect.Effect<Option.Option<{ readonly run: Run; readonly event: unknown; readonly steps: ReadonlyArray<Step> }>, StoreFailed>
  /**
   * A failed (or unknown) run goes back to the engine: the tasks that succeeded keep their
   * outputs and do not run again; the others (failed, unknown, skipped, cut short) run again.
   * A run `x-runner run` made is not (answered as it is): `retryHere` runs it again.
   */
  readonly retry: (runId: string) => Effect.Effect<Option.Option<Run>, StoreFailed>
  /** A page of runs, newest first, and where the next one starts (none: this is the last). */
  readonly page: (query: RunsQuery) => Effect.Effect<{ readonly runs: ReadonlyArray<ListedRun>; readonly next: Cursor | undefined }, StoreFailed>
  /** One run as the page lists it (a run's own view, an action's answer). */
  readonly listed: (runId: string) => Effect.Effect<Option.Option<ListedRun>, StoreFailed>
  /** The distinct workflow names of the runs (for the filter), in order. */
  readonly workflowNames: Effect.Effect<ReadonlyArray<string>, StoreFailed>
  /**
   * Runs accepted in [since, until) counted by minute (its start, ms) and status (its current
   * one; `waiting` as in `RunsQuery`), in order of minute then status; minutes without runs absent.
   */
  readonly perMinute: (since: number, until: number) => Effect.Effect<ReadonlyArray<{ readonly minute: number; readonly status: ListedStatus; readonly count: number }>, StoreFailed>
  /** Runs whose `changed_at >= since`, newest change first, at most `limit` (the page's live updates). */
  readonly changedSince: (since: number, limit: number) => Effect.Effect<ReadonlyArray<ListedRun>, StoreFailed>
  /**
   * An `unknown` step of a failed or unknown run (origin serve) marked done: in one transaction
   * the step becomes `succeeded` with this output (error cleared), then the run goes back to the
   * engine as `retry` does. None when there is no such run, or the step is not `unknown`.
   */
  readonly markDone: (runId: string, path: string, output: unknown) => Effect.Effect<Option.Option<Run>, StoreFailed>
}

/**
 * The service.
 *
 * @since 0.3.0
 * @category tags
 */
export const RunStore = Context.GenericTag<RunStore>("x-runner/RunStore")

/**
 * How long a run ran, once it has started and finished; never negative (a run started by one
 * runner and finished by another may be stamped by clocks that disagree a little).
 *
 * @since 0.13.0
 * @category utils
 */
export const durationMs = (run: { readonly startedAt?: number | undefined; readonly finishedAt?: number | undefined }): number | undefined =>
  run.startedAt === undefined || run.finishedAt === undefined ? undefined : Math.max(0, run.finishedAt - run.startedAt)

/**
 * A run's id: the same for the same event of the same workflow (a redelivery is the same run).
 *
 * @since 0.3.0
 * @category constructors
 */
export const runIdOf = (workflow: string, eventId: string): string =>
  createHash("sha256").update(`${workflow}\n${eventId}`).digest("hex").slice(0, 16)

/**
 * What a stored row that does not decode says: its column and what was expected, in one line.
 *
 * @since 0.4.1
 * @category utils
 */
export const unreadableRow = (error: ParseResult.ParseError): string => {
  const [first, ...others] = ParseResult.ArrayFormatter.formatErrorSync(error)
  const column = first?.path.filter((key) => typeof key === "string").join(".") ?? ""
  return `a stored row is not as x-runner writes it (${column === "" ? "" : `${column}: `}${first?.message ?? error.message}${others.length > 0 ? "; …" : ""})`
}

const failed = (doing: string) => (error: SqlError | ParseResult.ParseError) =>
  new StoreFailed({ message: `the runs could not be ${doing}: ${error._tag === "ParseError" ? unreadableRow(error) : errorText(error)}` })

const json = (value: unknown): string | null => value === undefined ? null : JSON.stringify(value)

/** A column that may be NULL, read as absent. */
const Nullable = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.transform(Schema.NullOr(schema), Schema.UndefinedOr(Schema.typeSchema(schema)), {
    strict: true,
    decode: (value) => value ?? undefined,
    encode: (value) => value ?? null
  })
/** An integer column: PostgreSQL returns a BIGINT as a string. */
const Integer = Schema.Union(Schema.Number, Schema.NumberFromString)
/** A JSON column. */
const Json = Nullable(Schema.parseJson())

const RunRow = Schema.Struct({
  id: Schema.String,
  workflow: Schema.String,
  eventId: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("event_id")),
  status: Schema.Literal("accepted", "running", "succeeded", "failed", "unknown"),
  attempt: Integer,
  acceptedAt: Schema.propertySignature(Integer).pipe(Schema.fromKey("accepted_at")),
  startedAt: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("started_at")),
  finishedAt: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("finished_at")),
  failedStep: Schema.propertySignature(Nullable(Schema.String)).pipe(Schema.fromKey("failed_step")),
  runner: Nullable(Schema.String),
  origin: Schema.transform(Schema.NullOr(Schema.Literal("run")), Schema.Literal("serve", "run"), {
    strict: true,
    decode: (origin) => origin ?? "serve",
    encode: (origin) => origin === "run" ? "run" : null
  }),
  file: Nullable(Schema.String),
  rerun: Nullable(Schema.parseJson(Rerun))
})
/** A run with its event's output (`SELECT *`). */
const RunWithEvent = Schema.extend(RunRow, Schema.Struct({ event: Json }))

const StepRow = Schema.Struct({
  path: Schema.String,
  name: Schema.String,
  kind: Schema.Literal("action", "group", "loop", "wait", "call"),
  type: Schema.String,
  status: Schema.Literal("running", "succeeded", "failed", "skipped", "unknown"),
  input: Json,
  output: Json,
  error: Nullable(Schema.parseJson(Schema.Struct({ tag: Schema.String, message: Schema.String }))),
  startedAt: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("started_at")),
  durationMs: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("duration_ms")),
  attempts: Nullable(Integer),
  rateLimitWaitMs: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("rate_limit_wait_ms")),
  writeSentAt: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("write_sent_at")),
  writeAttempt: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("write_attempt"))
})

/** A run as the page lists it (`listedColumns`). */
const ListedRunRow = Schema.extend(
  RunRow,
  Schema.Struct({
    waitingUntil: Schema.propertySignature(Nullable(Integer)).pipe(Schema.fromKey("waiting_until")),
    skipped: Integer,
    changedAt: Schema.propertySignature(Integer).pipe(Schema.fromKey("changed_at"))
  })
)

const PerMinuteRow = Schema.Struct({
  minute: Integer,
  status: Schema.Literal("accepted", "running", "succeeded", "failed", "unknown", "waiting"),
  count: Integer
})

/** `%`, `_` and the escape character itself, taken literally by `LIKE … ESCAPE '!'`. */
const likeLiterally = (text: string) => text.replace(/[!%_]/g, (character) => `!${character}`)

/**
 * The `LIKE` patterns of a search: the text as typed (`"name":"Mice"` in the JSON's syntax)
 * and as it is written inside a JSON string (quotes and backslashes escaped).
 */
const searchPatterns = (text: string): ReadonlyArray<string> =>
  [...new Set([text, JSON.stringify(text).slice(1, -1)])].map((pattern) => `%${likeLiterally(pattern)}%`)

/** A run's attempt, as it is handed to the engine. */
const Handoff = Schema.Struct({ runId: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("id")), attempt: Integer })

const withoutEvent = ({ event: _, ...run }: typeof RunWithEvent.Type): Run => run

/**
 * What a group's write did: the ids it inserted (the others were accepted before) and, when its
 * INSERT failed and its rows were written one by one, each row refused and why.
 */
interface GroupOutcome {
  readonly inserted: ReadonlySet<string>
  readonly refused: ReadonlyMap<string, StoreFailed>
}

/** The rows of one INSERT of accepted events, and its outcome. */
interface AcceptGroup {
  readonly rows: Array<{
    readonly id: string
    readonly workflow: string
    readonly event_id: string
    readonly event: string
    readonly status: "accepted"
    readonly accepted_at: number
    readonly changed_at: number
  }>
  readonly runIds: Set<string>
  readonly outcome: Deferred.Deferred<GroupOutcome, StoreFailed>
}

/** An accept's answer from its group's outcome (`first`: its event was not already in the group). */
const acceptedFrom = (outcome: GroupOutcome, runId: string, first: boolean) => {
  const refused = outcome.refused.get(runId)
  return refused === undefined ? Effect.succeed({ runId, fresh: first && outcome.inserted.has(runId) }) : Effect.fail(refused)
}

/** The rows of one INSERT at most (7 parameters each: well under SQLite's and PostgreSQL's limits). */
const maxAcceptGroup = 512

/**
 * The store on a database client (its schema brought up to date: `Database.layer` does).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (sql: SqlClient.SqlClient, batcher: WriteBatcher.WriteBatcher) =>
  Effect.gen(function*() {
    const write = <A>(doing: string, effect: Effect.Effect<A, SqlError>) => Effect.mapError(batcher.write(effect), failed(doing))
    const read = <A>(doing: string, effect: Effect.Effect<A, SqlError | ParseResult.ParseError>) => Effect.mapError(effect, failed(doing))
    const runById = SqlSchema.findOne({ Request: Schema.String, Result: RunWithEvent, execute: (runId) => sql`SELECT * FROM xr_runs WHERE id = ${runId}` })
    const stepsOf = SqlSchema.findAll({
      Request: Schema.String,
      Result: StepRow,
      // In the order they started (a task without a start, skipped before there were paths, last).
      execute: (runId) => sql`SELECT * FROM xr_steps WHERE run_id = ${runId} ORDER BY COALESCE(started_at, 9007199254740991), path`
    })
    const stepAt = SqlSchema.findOne({
      Request: Schema.Struct({ runId: Schema.String, path: Schema.String }),
      Result: StepRow,
      execute: ({ path, runId }) => sql`SELECT * FROM xr_steps WHERE run_id = ${runId} AND path = ${path}`
    })
    const unhanded = SqlSchema.findAll({
      Request: Schema.Number,
      Result: Handoff,
      execute: (max) =>
        sql`SELECT id, attempt FROM xr_runs WHERE status IN ('accepted', 'running') AND origin IS NULL
          AND (handed_attempt IS NULL OR handed_attempt <> attempt) ORDER BY accepted_at LIMIT ${max}`
    })
    const countUnfinished = SqlSchema.single({
      Request: Schema.Void,
      Result: Schema.Struct({ n: Integer }),
      execute: () => sql`SELECT COUNT(*) AS n FROM xr_runs WHERE status IN ('accepted', 'running') AND origin IS NULL`
    })
    const countInEngine = SqlSchema.single({
      Request: Schema.Void,
      Result: Schema.Struct({ n: Integer }),
      execute: () =>
        sql`SELECT COUNT(*) AS n FROM xr_runs WHERE status IN ('accepted', 'running') AND origin IS NULL
          AND handed_attempt = attempt AND waiting_until IS NULL`
    })
    const listed = SqlSchema.findAll({
      Request: Schema.Struct({
        limit: Schema.Number,
        status: Schema.optional(Schema.String),
        workflow: Schema.optional(Schema.String),
        origin: Schema.optional(Schema.Literal("serve", "run"))
      }),
      Result: RunRow,
      execute: ({ limit, origin, status, workflow }) =>
        sql`SELECT id, workflow, event_id, status, attempt, accepted_at, started_at, finished_at, failed_step, runner, origin, file, rerun
          FROM xr_runs WHERE ${
          sql.and([
            ...(status === undefined ? [] : [sql`status = ${status}`]),
            ...(workflow === undefined ? [] : [sql`workflow = ${workflow}`]),
            ...(origin === undefined ? [] : [origin === "run" ? sql`origin = 'run'` : sql`origin IS NULL`])
          ])
        } ORDER BY accepted_at DESC, id DESC LIMIT ${limit}`
    })
    // A run as the page lists it; the skipped tasks are counted on the run's own rows (the key's prefix).
    const listedColumns = sql`r.id, r.workflow, r.event_id, r.status, r.attempt, r.accepted_at, r.started_at, r.finished_at,
      r.failed_step, r.runner, r.origin, r.file, r.rerun, r.waiting_until, COALESCE(r.changed_at, r.accepted_at) AS changed_at,
      (SELECT COUNT(*) FROM xr_steps s WHERE s.run_id = r.id AND s.status = 'skipped') AS skipped`
    // PostgreSQL's LIKE is case-sensitive; SQLite's folds ASCII letters.
    const likeInsensitive = sql.onDialectOrElse({ pg: () => sql.literal("ILIKE"), orElse: () => sql.literal("LIKE") })
    const statusIs = (status: ListedStatus) =>
      status === "waiting"
        ? sql`r.status = 'running' AND r.waiting_until IS NOT NULL`
        : status === "running"
        ? sql`r.status = 'running' AND r.waiting_until IS NULL`
        : sql`r.status = ${status}`
    const matches = (search: string) => {
      const patterns = searchPatterns(search)
      const anyOf = (column: string) => sql.or(patterns.map((pattern) => sql`${sql.literal(column)} ${likeInsensitive} ${pattern} ESCAPE '!'`))
      return sql`(${anyOf("r.event")} OR EXISTS (SELECT 1 FROM xr_steps s WHERE s.run_id = r.id
        AND (${anyOf("s.input")} OR ${anyOf("s.output")} OR ${anyOf("s.error")})))`
    }
    const decodeListed = Schema.decodeUnknown(Schema.Array(ListedRunRow))
    const paged = ({ after, from, limit, search, status, to, workflow }: RunsQuery) =>
      Effect.flatMap(
        sql`SELECT ${listedColumns} FROM xr_runs r WHERE ${
          sql.and([
            ...(workflow === undefined ? [] : [sql`r.workflow = ${workflow}`]),
            ...(status === undefined ? [] : [statusIs(status)]),
            ...(from === undefined ? [] : [sql`r.accepted_at >= ${from}`]),
            ...(to === undefined ? [] : [sql`r.accepted_at < ${to}`]),
            // The bound on accepted_at alone lets the index seek to the cursor instead of scanning to it.
            ...(after === undefined ? [] : [
              sql`r.accepted_at <= ${after.acceptedAt}`,
              sql`(r.accepted_at < ${after.acceptedAt} OR r.id < ${after.id})`
            ]),
            ...(search === undefined || search === "" ? [] : [matches(search)])
          ])
        } ORDER BY r.accepted_at DESC, r.id DESC LIMIT ${limit}`,
        decodeListed
      )
    const listedById = SqlSchema.findOne({
      Request: Schema.String,
      Result: ListedRunRow,
      execute: (runId) => sql`SELECT ${listedColumns} FROM xr_runs r WHERE r.id = ${runId}`
    })
    const changed = SqlSchema.findAll({
      Request: Schema.Struct({ since: Schema.Number, limit: Schema.Number }),
      Result: ListedRunRow,
      execute: ({ limit, since }) => sql`SELECT ${listedColumns} FROM xr_runs r WHERE r.changed_at >= ${since} ORDER BY r.changed_at DESC, r.id DESC LIMIT ${limit}`
    })
    const countedPerMinute = SqlSchema.findAll({
      Request: Schema.Struct({ since: Schema.Number, until: Schema.Number }),
      Result: PerMinuteRow,
      execute: ({ since, until }) =>
        sql`SELECT minute, status, COUNT(*) AS count FROM (
            SELECT (accepted_at / 60000) * 60000 AS minute,
              CASE WHEN status = 'running' AND waiting_until IS NOT NULL THEN 'waiting' ELSE status END AS status
            FROM xr_runs WHERE accepted_at >= ${since} AND accepted_at < ${until}
          ) counted GROUP BY minute, status ORDER BY minute, status`
    })
    // Each name found by a seek in the workflow's index from the one before, not by reading every run.
    const distinctWorkflows = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ workflow: Schema.String }),
      execute: () =>
        sql`WITH RECURSIVE names (workflow) AS (
            SELECT MIN(workflow) FROM xr_runs
            UNION ALL
            SELECT (SELECT MIN(r.workflow) FROM xr_runs r WHERE r.workflow > names.workflow) FROM names WHERE names.workflow IS NOT NULL
          ) SELECT workflow FROM names WHERE workflow IS NOT NULL`
    })
    /** A failed (or unknown) run of serve's back to the engine, inside the caller's transaction: true when it was. */
    const backToEngine = (runId: string) =>
      Effect.gen(function*() {
        const retried = yield* sql`UPDATE xr_runs SET status = 'accepted', attempt = attempt + 1,
          finished_at = NULL, failed_step = NULL, changed_at = ${Date.now()}
          WHERE id = ${runId} AND status IN ('failed', 'unknown') AND origin IS NULL RETURNING id`
        if (retried.length > 0) yield* sql`DELETE FROM xr_steps WHERE run_id = ${runId} AND status <> 'succeeded'`
        return retried.length > 0
      })
    // The events accepted while no commit took them yet: one multi-row INSERT, one write of the
    // group commit, for all of them (a statement, a write and its wait per delivery cost more
    // than the row). The group closes when its INSERT runs; an accept after that starts the next.
    let group: AcceptGroup | undefined
    const insertRows = (rows: AcceptGroup["rows"]) =>
      sql<{ id: string }>`INSERT INTO xr_runs ${sql.insert(rows)} ON CONFLICT (id) DO NOTHING RETURNING id`
    const insertGroup = (forming: AcceptGroup) =>
      Effect.suspend(() => {
        if (group === forming) group = undefined
        return insertRows(forming.rows)
      })
    // A group whose write failed is written again row by row, each its own write, so that a bad
    // row is refused alone rather than with every delivery that happened to share its INSERT (a
    // transaction the database refuses refuses each of them again, as it did the group).
    const writeGroup = (forming: AcceptGroup): Effect.Effect<GroupOutcome, StoreFailed> =>
      batcher.write(insertGroup(forming)).pipe(
        Effect.map((rows): GroupOutcome => ({ inserted: new Set(rows.map((r) => r.id)), refused: new Map() })),
        Effect.catchAll((error) =>
          Effect.suspend(() => {
            // Closed before its rows are read: an accept from now on starts a new group.
            if (group === forming) group = undefined
            // Only a row at fault is worth finding: storage that refuses writes refuses each alone too.
            if (forming.rows.length === 1 || !wrongInItself(error)) return Effect.fail(failed("written")(error))
            return Effect.forEach(forming.rows, (row) => Effect.either(write("written", insertRows([row]))), { concurrency: "unbounded" }).pipe(
              Effect.map((written): GroupOutcome => {
                const inserted = new Set<string>()
                const refused = new Map<string, StoreFailed>()
                written.forEach((result, i) => {
                  if (result._tag === "Left") refused.set(forming.rows[i]!.id, result.left)
                  else for (const { id } of result.right) inserted.add(id)
                })
                return { inserted, refused }
              })
            )
          })
        )
      )
    const store: RunStore = {
      accept: (workflow, event) =>
        Effect.suspend(() => {
          const runId = runIdOf(workflow, event.id)
          const now = Date.now()
          const row = { id: runId, workflow, event_id: event.id, event: JSON.stringify(event.output ?? null), status: "accepted" as const, accepted_at: now, changed_at: now }
          const joined = group !== undefined && group.rows.length < maxAcceptGroup ? group : undefined
          if (joined !== undefined) {
            // The same event twice in one group: the first one's run; the second is a redelivery.
            const again = joined.runIds.has(runId)
            if (!again) {
              joined.rows.push(row)
              joined.runIds.add(runId)
            }
            return Effect.flatMap(Deferred.await(joined.outcome), (outcome) => acceptedFrom(outcome, runId, !again))
          }
          // Whoever starts the group writes it and tells the others, even if it is interrupted
          // meanwhile: uninterruptible from before the group is formed, since a group formed and
          // never written would leave every accept that joined it waiting. A write refused before
          // its INSERT ran (its transaction could not begin) closes the group too: an accept after
          // it starts a new one, never joins a failed one.
          return Effect.uninterruptible(Effect.flatMap(Deferred.make<GroupOutcome, StoreFailed>(), (outcome) => {
            const forming: AcceptGroup = { rows: [row], runIds: new Set([runId]), outcome }
            group = forming
            return writeGroup(forming).pipe(
              Effect.exit,
              Effect.tap((exit) => {
                if (group === forming) group = undefined
                return Deferred.done(outcome, exit)
              }),
              Effect.flatten,
              Effect.flatMap((written) => acceptedFrom(written, runId, true))
            )
          }))
        }),
      toHand: (max) => read("read", unhanded(max)),
      // COUNT(*) answers one row.
      inEngine: read("read", countInEngine(undefined).pipe(Effect.catchTag("NoSuchElementException", Effect.die), Effect.map((row) => row.n))),
      waiting: (runId, until) => write("written", sql`UPDATE xr_runs SET waiting_until = ${until ?? null}, changed_at = ${Date.now()} WHERE id = ${runId}`).pipe(Effect.asVoid),
      handed: (runId, attempt) =>
        write("written", sql`UPDATE xr_runs SET handed_attempt = ${attempt} WHERE id = ${runId} AND attempt = ${attempt}`).pipe(Effect.asVoid),
      handAgain: (runId) =>
        write(
          "written",
          runId === undefined
            ? sql`UPDATE xr_runs SET handed_attempt = NULL WHERE status IN ('accepted', 'running') AND handed_attempt IS NOT NULL`
            : sql`UPDATE xr_runs SET handed_attempt = NULL WHERE id = ${runId}`
        ).pipe(Effect.asVoid),
      recordStarted: ({ file, rerun, runner, workflow }) =>
        Effect.suspend(() => {
          const runId = runIdOf(workflow, `run:${randomUUID()}`)
          const now = Date.now()
          return write(
            "written",
            sql`INSERT INTO xr_runs (id, workflow, event_id, event, status, accepted_at, started_at, runner, origin, file, rerun, changed_at)
              VALUES (${runId}, ${workflow}, ${`run:${runId}`}, 'null', 'running', ${now}, ${now}, ${runner}, 'run', ${file}, ${JSON.stringify(rerun)}, ${now})`
          ).pipe(Effect.as(runId))
        }),
      retryHere: (runId, runner) =>
        write(
          "retried",
          sql.withTransaction(Effect.gen(function*() {
            const retried = yield* sql`UPDATE xr_runs SET status = 'running', attempt = attempt + 1, runner = ${runner},
              finished_at = NULL, failed_step = NULL, changed_at = ${Date.now()}
              WHERE id = ${runId} AND origin = 'run' AND status IN ('failed', 'unknown') RETURNING id`
            if (retried.length > 0) yield* sql`DELETE FROM xr_steps WHERE run_id = ${runId} AND status <> 'succeeded'`
            return retried.length > 0
          }))
        ).pipe(
          Effect.flatMap((retried) => retried ? store.load(runId) : Effect.succeed(Option.none())),
          Effect.map(Option.map(({ run, steps }) => ({ run, steps })))
        ),
      // COUNT(*) answers one row.
      unfinished: read("read", countUnfinished(undefined).pipe(Effect.catchTag("NoSuchElementException", Effect.die), Effect.map((row) => row.n))),
      load: (runId) =>
        read(
          "read",
          Effect.gen(function*() {
            const found = yield* runById(runId)
            if (Option.isNone(found)) return Option.none()
            const run = withoutEvent(found.value)
            // A run never started has no steps yet.
            const steps = run.startedAt === undefined ? [] : yield* stepsOf(runId)
            return Option.some({ run, event: found.value.event, steps: new Map(steps.map((step) => [step.path, step])) })
          })
        ),
      runStarted: (runId, attempt, runner) =>
        write(
          "written",
          Effect.suspend(() => {
            const now = Date.now()
            return sql`UPDATE xr_runs SET status = 'running', started_at = COALESCE(started_at, ${now}), runner = ${runner}, changed_at = ${now}
            WHERE id = ${runId} AND attempt = ${attempt} AND status IN ('accepted', 'running')`
          })
        ).pipe(Effect.asVoid),
      step: (runId, path) => read("read", stepAt({ runId, path })),
      writeSent: (runId, step) =>
        Effect.suspend(() => {
          const at = Date.now()
          return write(
            "written",
            sql`INSERT INTO xr_steps (run_id, path, name, kind, type, status, started_at, write_sent_at, write_attempt)
              VALUES (${runId}, ${step.path}, ${step.name}, 'action', ${step.type}, 'running', ${at}, ${at}, ${step.attempt})
              ON CONFLICT (run_id, path) DO UPDATE SET status = 'running',
                write_sent_at = CASE WHEN xr_steps.write_attempt = ${step.attempt} THEN COALESCE(xr_steps.write_sent_at, ${at}) ELSE ${at} END,
                write_attempt = ${step.attempt}`
          ).pipe(Effect.as(at))
        }),
      stepFinished: (runId, step) =>
        write(
          "written",
          sql`INSERT INTO xr_steps (run_id, path, name, kind, type, status, input, output, error, started_at, duration_ms,
              attempts, rate_limit_wait_ms)
            VALUES (${runId}, ${step.path}, ${step.name}, ${step.kind}, ${step.type}, ${step.status}, ${json(step.input)}, ${json(step.output)},
              ${json(step.error)}, ${step.startedAt ?? null}, ${step.durationMs ?? null}, ${step.attempts ?? null}, ${step.rateLimitWaitMs ?? null})
            ON CONFLICT (run_id, path) DO UPDATE SET status = ${step.status}, input = ${json(step.input)}, output = ${json(step.output)},
              error = ${json(step.error)}, started_at = COALESCE(${step.startedAt ?? null}, xr_steps.started_at),
              duration_ms = ${step.durationMs ?? null}, attempts = ${step.attempts ?? null}, rate_limit_wait_ms = ${step.rateLimitWaitMs ?? null}`
        ).pipe(Effect.asVoid),
      runFinished: (runId, attempt, status, failedStep) =>
        write(
          "written",
          Effect.suspend(() => {
            const now = Date.now()
            return sql<{ id: string }>`UPDATE xr_runs SET status = ${status}, failed_step = ${failedStep ?? null}, finished_at = ${now}, waiting_until = NULL,
              changed_at = ${now}
            WHERE id = ${runId} AND attempt = ${attempt} AND status IN ('accepted', 'running') RETURNING id`
          })
        ).pipe(Effect.map((rows) => rows.length > 0)),
      list: ({ limit, origin, status, workflow }) => read("read", listed({ limit, status, workflow, origin })),
      show: (runId) =>
        read(
          "read",
          Effect.gen(function*() {
            const found = yield* runById(runId)
            if (Option.isNone(found)) return Option.none()
            return Option.some({ run: withoutEvent(found.value), event: found.value.event, steps: yield* stepsOf(runId) })
          })
        ),
      retry: (runId) =>
        // What succeeded stays; the rest runs again. Then read as it now is.
        write("retried", sql.withTransaction(backToEngine(runId))).pipe(Effect.zipRight(read("read", Effect.map(runById(runId), Option.map(withoutEvent))))),
      page: (query) =>
        Effect.gen(function*() {
          const limit = Number.isFinite(query.limit) ? Math.min(Math.max(Math.trunc(query.limit), 1), 200) : 50
          // One more than the page: whether there is a next one.
          const rows = yield* read("read", paged({ ...query, limit: limit + 1 }))
          const runs = rows.slice(0, limit)
          const last = runs[runs.length - 1]
          return { runs, next: rows.length > limit && last !== undefined ? { acceptedAt: last.acceptedAt, id: last.id } : undefined }
        }),
      listed: (runId) => read("read", listedById(runId)),
      workflowNames: read("read", Effect.map(distinctWorkflows(undefined), (rows) => rows.map((row) => row.workflow))),
      perMinute: (since, until) => read("read", countedPerMinute({ since, until })),
      changedSince: (since, limit) => read("read", changed({ since, limit })),
      markDone: (runId, path, output) =>
        write(
          "marked done",
          sql.withTransaction(Effect.gen(function*() {
            // Only a step whose outcome is unknown, of a run no runner executes (failed or unknown).
            const marked = yield* sql`UPDATE xr_steps SET status = 'succeeded', output = ${json(output)}, error = NULL
              WHERE run_id = ${runId} AND path = ${path} AND status = 'unknown'
                AND EXISTS (SELECT 1 FROM xr_runs WHERE id = ${runId} AND status IN ('failed', 'unknown') AND origin IS NULL)
              RETURNING path`
            if (marked.length === 0) return false
            return yield* backToEngine(runId)
          }))
        ).pipe(Effect.flatMap((done) => done ? read("read", Effect.map(runById(runId), Option.map(withoutEvent))) : Effect.succeed(Option.none())))
    }
    return store
  })

/**
 * The store on the runs' database.
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<RunStore, StoreFailed, RunsSql | RunsWrites> = Layer.effect(
  RunStore,
  Effect.flatMap(Effect.zip(RunsSql, RunsWrites), ([sql, writes]) => make(sql, writes))
)
