/**
 * The runs page's JSON: a listed run, a step, a run's whole view, and the list's cursor (opaque
 * to the page: base64url of its keyset position). Absent values are null, times epoch ms.
 *
 * @internal
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as RunActions from "../../runs/RunActions.js"
import * as RunStore from "../../store/RunStore.js"

/** A run as the list shows it. */
export const listedJson = (run: RunStore.ListedRun) => ({
  id: run.id,
  workflow: run.workflow,
  eventId: run.eventId,
  status: run.status,
  // A running run whose waits last shows as waiting.
  displayStatus: run.status === "running" && run.waitingUntil !== undefined ? "waiting" as const : run.status,
  attempt: run.attempt,
  acceptedAt: run.acceptedAt,
  startedAt: run.startedAt ?? null,
  finishedAt: run.finishedAt ?? null,
  durationMs: RunStore.durationMs(run) ?? null,
  failedStep: run.failedStep ?? null,
  waitingUntil: run.waitingUntil ?? null,
  skipped: run.skipped,
  origin: run.origin,
  runner: run.runner ?? null
})

/** A step of a run, every field present (null when absent). */
export const stepJson = (step: RunStore.Step) => ({
  path: step.path,
  name: step.name,
  kind: step.kind,
  type: step.type,
  status: step.status,
  input: step.input ?? null,
  output: step.output ?? null,
  error: step.error ?? null,
  startedAt: step.startedAt ?? null,
  durationMs: step.durationMs ?? null,
  attempts: step.attempts ?? null,
  rateLimitWaitMs: step.rateLimitWaitMs ?? null,
  writeSentAt: step.writeSentAt ?? null,
  writeAttempt: step.writeAttempt ?? null
})

/** A run's view: the run, its trigger event, every step, and what can be done to it. */
export const runJson = (run: RunStore.ListedRun, event: unknown, steps: ReadonlyArray<RunStore.Step>, possible: RunActions.Possible) => ({
  run: listedJson(run),
  trigger: event ?? null,
  steps: steps.map(stepJson),
  actions: { retry: possible.retry, done: possible.done, why: possible.why ?? null }
})

const CursorJson = Schema.parseJson(Schema.Tuple(Schema.Int, Schema.String))

/** The cursor as the page carries it. */
export const encodeCursor = (cursor: RunStore.Cursor): string =>
  Buffer.from(JSON.stringify([cursor.acceptedAt, cursor.id])).toString("base64url")

/** A cursor the page gave back, or none when it is not one this server made. */
export const decodeCursor = (text: string): RunStore.Cursor | undefined => {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return undefined
  return Either.match(Schema.decodeUnknownEither(CursorJson)(Buffer.from(text, "base64url").toString("utf8")), {
    onLeft: () => undefined,
    onRight: ([acceptedAt, id]) => ({ acceptedAt, id })
  })
}
