/**
 * Running a workflow in memory: its task tree by the `Interpreter`, each action's parameters
 * resolved against the values visible to it (a reference without a value fails the step with
 * an `InvalidInput`), then the step the check prepared run by the executor (with its
 * component's connection from the `Connections` service).
 *
 * @since 0.2.0
 */
import { type Connections, ConnectorError, type Executor, Property, RateLimiter } from "@x/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as RunStore from "../store/RunStore.js"
import * as References from "../workflow/References.js"
import type * as Workflow from "../workflow/Workflow.js"
import * as Interpreter from "./Interpreter.js"

/**
 * The outcome of one step.
 *
 * @since 0.2.0
 * @category models
 */
export interface StepResult {
  readonly name: string
  readonly type: string
  readonly status: "succeeded" | "failed" | "skipped"
  /** Its parameters as resolved (as written when they could not be), secret values replaced: what a record shows. */
  readonly input?: unknown
  readonly output?: unknown
  readonly error?: { readonly tag: string; readonly message: string }
  readonly durationMs?: number
  /** How long its requests waited for their rate limits in all (ms), when they waited. */
  readonly rateLimitWaitMs?: number
}

/**
 * How a step's wait for its rate limit reads: "waited 8.2 s for boardtool's rate limit" (or
 "waited 25 ms …" under a second; its component named by its type), or nothing when it did not wait.
 *
 * @since 0.6.0
 * @category formatting
 */
export const rateLimitWait = (step: { readonly type: string; readonly rateLimitWaitMs?: number | undefined }): string =>
  step.rateLimitWaitMs === undefined || step.rateLimitWaitMs <= 0
    ? ""
    : `waited ${step.rateLimitWaitMs < 1000 ? `${step.rateLimitWaitMs} ms` : `${(step.rateLimitWaitMs / 1000).toFixed(1)} s`} for ${step.type.split("/")[0]}'s rate limit`

/**
 * The line that says how a step ended: "✔ name succeeded in 12 ms (waited …): Tag: message"
 * (its duration when given). The one format of `run`'s progress and `serve`'s.
 *
 * @since 0.7.0
 * @category formatting
 */
export const stepLine = (step: {
  readonly name: string
  readonly type?: string | undefined
  readonly status: string
  readonly durationMs?: number | undefined
  readonly rateLimitWaitMs?: number | undefined
  readonly error?: { readonly tag: string; readonly message: string } | undefined
}): string => {
  const mark = step.status === "succeeded" ? "✔" : step.status === "skipped" ? "–" : "✘"
  const waited = step.type === undefined ? "" : rateLimitWait({ type: step.type, rateLimitWaitMs: step.rateLimitWaitMs })
  return `${mark} ${step.name} ${step.status}${step.durationMs === undefined ? "" : ` in ${step.durationMs} ms`}${waited === "" ? "" : ` (${waited})`}${
    step.error === undefined ? "" : `: ${step.error.tag}: ${step.error.message}`
  }`
}

/**
 * The secret parameters of a step are never stored: their values are replaced (a secret
 * object's keys kept, e.g. the names of `sensitiveData`), also inside declared fields. A run
 * taken up again resolves its parameters from the workflow, never from this.
 *
 * @since 0.7.0
 * @category utils
 */
export const scrubbed = (checked: Workflow.CheckedAction, input: unknown): unknown =>
  typeof input !== "object" || input === null ? input : Property.redact(checked.prepared.action.props, input as Record<string, unknown>)

/**
 * How a task's result is kept as its row of the run (`serve`'s, and a recorded `run`'s).
 *
 * @since 0.7.0
 * @category utils
 */
export const rowOf = (result: Interpreter.TaskResult, now: number): RunStore.Step => ({
  path: result.key,
  name: result.name,
  kind: result.kind,
  type: result.type ?? result.kind,
  status: result.status === "failed" && result.error?.tag === "OutcomeUnknown" ? "unknown" : result.status,
  ...(result.kind === "action" && result.input !== undefined ? { input: result.input } : {}),
  // A group's, loop's or call's output is its tasks' outputs, each in its own row.
  ...(result.kind === "action" || result.kind === "wait" ? { output: result.output } : {}),
  ...(result.error === undefined ? {} : { error: result.error }),
  startedAt: now - (result.durationMs ?? 0),
  ...(result.durationMs === undefined ? {} : { durationMs: result.durationMs }),
  ...(result.attempts === undefined ? {} : { attempts: result.attempts }),
  ...(result.rateLimitWaitMs === undefined ? {} : { rateLimitWaitMs: result.rateLimitWaitMs })
})

/**
 * Runs the workflow's task tree in memory (`Interpreter.run`), each action by the executor,
 * with `trigger` (the event's output) when a trigger fired the run.
 *
 * @since 0.2.0
 * @category constructors
 */
export const run = (
  executor: Executor.Executor,
  workflow: Workflow.Workflow,
  reporter: Interpreter.Reporter,
  trigger?: unknown,
  /** The tasks an earlier attempt of the run left succeeded, by path: they answer their recorded output, and do not run. */
  kept: ReadonlyMap<string, RunStore.Step> = new Map()
): Effect.Effect<Interpreter.RunResult, never, Connections.Connections> =>
  Interpreter.run(workflow, {
    attempt: (task, key, scope, deadline) => {
      const before = kept.get(Interpreter.attemptOf(key).path)
      if (before?.status === "succeeded") return Effect.succeed({ status: "succeeded", input: before.input, output: before.output })
      return Effect.map(
        untilDeadline(runStep(executor, task, scope), deadline),
        Option.match({
          onNone: (): Interpreter.Attempt => ({ status: "failed", error: deadline!.error }),
          onSome: (step): Interpreter.Attempt => ({ ...step, status: step.status === "succeeded" ? "succeeded" : "failed" })
        })
      )
    },
    waitUntil: (key, until) => {
      const before = kept.get(key)
      const waited = before?.status === "succeeded" ? Date.parse(String((before.output as { until?: unknown } | undefined)?.until)) : Number.NaN
      return Number.isNaN(waited) ? Effect.as(Interpreter.sleepUntil(until), until) : Effect.succeed(new Date(waited))
    }
  }, reporter, trigger)

/**
 * An attempt stopped at its deadline (none: it did not end before it); without one, as it ends.
 *
 * @since 0.10.0
 * @category utils
 */
export const untilDeadline = <A, E, R>(attempt: Effect.Effect<A, E, R>, deadline: Interpreter.Deadline | undefined): Effect.Effect<Option.Option<A>, E, R> =>
  deadline === undefined
    ? Effect.map(attempt, Option.some)
    : Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.timeoutOption(attempt, Duration.millis(Math.max(0, deadline.at - now))))

/**
 * A task's parameters with its `${= …}` values evaluated and its `${…}` references resolved,
 * in one pass (a value put in is never read again).
 *
 * @since 0.7.0
 * @category utils
 */
export const resolveParameters = (
  checked: Workflow.CheckedAction,
  scope: ReadonlyMap<string, unknown>
): Either.Either<unknown, References.Unresolved> => Interpreter.resolveValues(checked.parameters, checked.expressions, scope)

/**
 * Runs one task with the outputs before it (`scope`: the inputs, the trigger's event and each
 * earlier step's output by name): its parameters resolved, then run by the executor. A failure
 * is the result's error, never the Effect's.
 *
 * @since 0.3.0
 * @category constructors
 */
export const runStep = (
  executor: Executor.Executor,
  checked: Workflow.CheckedAction,
  scope: ReadonlyMap<string, unknown>
): Effect.Effect<StepResult, never, Connections.Connections> =>
  Effect.suspend(() => {
    const { name, type } = checked.step
    const started = Date.now()
    // The waits of its requests for their rate limits (none under `--without-rate-limits`).
    let rateLimitWaitMs = 0
    // Decoded by the check when every parameter was known then; else decoded now, with the
    // outputs it refers to put in (resolved once: what runs is what its record shows).
    const resolved = checked.decoded !== undefined ? Either.right(checked.parameters) : resolveParameters(checked, scope)
    const input = scrubbed(checked, Either.getOrElse(resolved, () => checked.parameters))
    const outcome = checked.decoded !== undefined
      ? Effect.either(executor.runDecoded(checked.decoded))
      : Either.match(resolved, {
        onLeft: (unresolved) =>
          Effect.succeed(Either.left<ConnectorError.ConnectorError>(
            ConnectorError.invalidInput([{ path: "parameters", message: unresolved.message }], `step "${name}" (${type})`)
          )),
        onRight: (parameters) => Effect.either(executor.runPrepared(checked.prepared, parameters))
      })
    const observed = RateLimiter.observingWaits((wait) => Effect.sync(() => void (rateLimitWaitMs += wait.millis)))(outcome)
    return Effect.map(observed, (outcome): StepResult => {
      const durationMs = Date.now() - started
      const waited = rateLimitWaitMs > 0 ? { rateLimitWaitMs } : {}
      return Either.isRight(outcome)
        ? { name, type, status: "succeeded", input, output: outcome.right, durationMs, ...waited }
        : { name, type, status: "failed", input, error: { tag: outcome.left._tag, message: outcome.left.message }, durationMs, ...waited }
    })
  })
