/**
 * Running a workflow's tasks in order, stopping at the first failed step. Each step's
 * parameters are resolved against the outputs before it (a reference without a value fails
 * the step with an `InvalidInput`), then the step the check prepared is run by the executor
 * (with its component's connection from the `Connections` service).
 *
 * @since 0.2.0
 */
import { type Connections, ConnectorError, type Executor, RateLimiter } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as References from "../workflow/References.js"
import type * as Workflow from "../workflow/Workflow.js"

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
 * The outcome of a run.
 *
 * @since 0.2.0
 * @category models
 */
export interface RunResult {
  readonly status: "succeeded" | "failed"
  readonly steps: ReadonlyArray<StepResult>
}

/**
 * What a run reports as it goes.
 *
 * @since 0.2.0
 * @category models
 */
export interface Reporter {
  readonly started: (step: Workflow.CheckedTask) => Effect.Effect<void>
  readonly finished: (result: StepResult) => Effect.Effect<void>
}

/**
 * Runs the tasks, with `trigger` (the event's output) when a trigger fired the run.
 *
 * @since 0.2.0
 * @category constructors
 */
export const run = (
  executor: Executor.Executor,
  workflow: Workflow.Workflow,
  reporter: Reporter,
  trigger?: unknown
): Effect.Effect<RunResult, never, Connections.Connections> =>
  Effect.gen(function*() {
    const scope = new Map<string, unknown>([["inputs", workflow.inputs]])
    if (trigger !== undefined) scope.set("trigger", trigger)
    const steps: Array<StepResult> = []
    let failed = false
    for (const checked of workflow.tasks) {
      const { name, type } = checked.step
      if (failed) {
        const skipped: StepResult = { name, type, status: "skipped" }
        steps.push(skipped)
        yield* reporter.finished(skipped)
        continue
      }
      yield* reporter.started(checked)
      const result = yield* runStep(executor, checked, scope)
      if (result.status === "succeeded") scope.set(name, result.output)
      else failed = true
      steps.push(result)
      yield* reporter.finished(result)
    }
    return { status: failed ? "failed" : "succeeded", steps }
  })

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
  checked: Workflow.CheckedTask,
  scope: ReadonlyMap<string, unknown>
): Effect.Effect<StepResult, never, Connections.Connections> =>
  Effect.suspend(() => {
    const { name, type } = checked.step
    const started = Date.now()
    // The waits of its requests for their rate limits (none under `--without-rate-limits`).
    let rateLimitWaitMs = 0
    // Decoded by the check when every parameter was known then; else decoded now, with the
    // outputs it refers to put in.
    const outcome = checked.decoded !== undefined
      ? Effect.either(executor.runDecoded(checked.decoded))
      : Either.match(References.resolve(checked.parameters, scope), {
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
        ? { name, type, status: "succeeded", output: outcome.right, durationMs, ...waited }
        : { name, type, status: "failed", error: { tag: outcome.left._tag, message: outcome.left.message }, durationMs, ...waited }
    })
  })
