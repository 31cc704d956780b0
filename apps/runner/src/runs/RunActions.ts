/**
 * What a person does to a run that ended failed or `unknown`: send it back to the engine
 * (`retry`: its tasks that succeeded keep their outputs, the others run again), or first mark an
 * `unknown` step done with the output it had at the provider (`markDone`), then send it back.
 * One module for `x-runner runs retry` and the runs page, so both refuse the same runs the same way.
 *
 * @since 0.11.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as RunStore from "../store/RunStore.js"

/**
 * No run with this id in the store.
 *
 * @since 0.11.0
 * @category errors
 */
export class RunNotFound extends Data.TaggedError("RunNotFound")<{ readonly runId: string }> {
  override get message() {
    return `no run ${this.runId}`
  }
}

/**
 * The run is not one a person retries now: it succeeded, or it has not ended (a runner executes it, or will).
 *
 * @since 0.11.0
 * @category errors
 */
export class NotRetryable extends Data.TaggedError("NotRetryable")<{
  readonly runId: string
  readonly status: RunStore.RunStatus
  readonly why: string
}> {
  override get message() {
    return `run ${this.runId} is ${this.status}: only a failed or unknown run is retried (${this.why})`
  }
}

/**
 * A run of `x-runner run`: no serving runner runs it, `x-runner runs retry` runs it again in its
 * own process with its workflow file and the `--input` values it was given (which only that
 * command line has).
 *
 * @since 0.11.0
 * @category errors
 */
export class RetryHere extends Data.TaggedError("RetryHere")<{ readonly run: RunStore.Run }> {
  override get message() {
    return `run ${this.run.id} is ${retryHereWhy(this.run.id)}`
  }
}

/** How a run of `x-runner run` is retried: the page's reason and `RetryHere`'s message say it alike. */
const retryHereWhy = (runId: string) =>
  `a run of x-runner run: \`x-runner runs retry ${runId} <workflow file>\` runs it again in its own process, given its file, ` +
  "its --input values and the --sandbox, --connections, --files-dir or --allow-private-networks it had again"

/**
 * The step to mark done is not an `unknown` step of the run (none at that path, or another status).
 *
 * @since 0.11.0
 * @category errors
 */
export class StepNotUnknown extends Data.TaggedError("StepNotUnknown")<{
  readonly runId: string
  readonly path: string
  readonly status: RunStore.StepStatus | undefined
  /** The run's `unknown` steps, the ones that can be marked done. */
  readonly unknown: ReadonlyArray<string>
}> {
  override get message() {
    const which = this.unknown.length === 0 ? "it has none" : `those are: ${this.unknown.join(", ")}`
    return `run ${this.runId} has ${this.status === undefined ? "no step" : `a ${this.status} step`} at ${this.path}: ` +
      `only a step whose outcome is unknown is marked done (${which})`
  }
}

/**
 * Why an action on a run was refused.
 *
 * @since 0.11.0
 * @category models
 */
export type Refused = RunNotFound | NotRetryable | RetryHere | StepNotUnknown

/**
 * Whether an error is one of the refusals above (not the store's failure).
 *
 * @since 0.11.0
 * @category refinements
 */
export const isRefused = (error: unknown): error is Refused =>
  error instanceof RunNotFound || error instanceof NotRetryable || error instanceof RetryHere || error instanceof StepNotUnknown

/**
 * What can be done to a run as it is: whether it can be retried, which of its steps can be marked
 * done, and if nothing can, why (for the runs page's buttons).
 *
 * @since 0.11.0
 * @category models
 */
export interface Possible {
  readonly retry: boolean
  readonly done: ReadonlyArray<string>
  readonly why: string | undefined
}

const whyNot = (status: RunStore.RunStatus): string | undefined => {
  switch (status) {
    case "failed":
    case "unknown":
      return undefined
    case "succeeded":
      return "it succeeded"
    case "accepted":
      return "it waits for a runner to start it"
    case "running":
      return "a runner is executing it"
  }
}

/**
 * What can be done to this run (as `RunStore.show` reads it): the reason given is the one an
 * action on it is refused with (`refusal`, one order for both).
 *
 * @since 0.11.0
 * @category utils
 */
export const possible = (run: RunStore.Run, steps: ReadonlyArray<RunStore.Step>): Possible => {
  const refused = refusal(run)
  if (refused?._tag === "RetryHere") {
    return {
      retry: false,
      done: [],
      why: retryHereWhy(run.id)
    }
  }
  if (refused?._tag === "NotRetryable") return { retry: false, done: [], why: `${run.status}: ${refused.why}` }
  return { retry: true, done: steps.filter((step) => step.status === "unknown").map((step) => step.path), why: undefined }
}

/** Why this run is not one to retry now, if it is not: its status first (a run of `x-runner run` still running is not one to run again either). */
const refusal = (run: RunStore.Run): Refused | undefined => {
  const why = whyNot(run.status)
  if (why !== undefined) return new NotRetryable({ runId: run.id, status: run.status, why })
  return run.origin === "run" ? new RetryHere({ run }) : undefined
}

/**
 * A failed or unknown run of `serve` back to the engine, as `RunStore.retry` does; the run as it
 * now is (`accepted`, its next attempt). It is read first: the store's retry answers a run it
 * left as it was (one already back in the engine, say) the same as one it retried.
 *
 * @since 0.11.0
 * @category actions
 */
export const retry = (store: RunStore.RunStore, runId: string): Effect.Effect<RunStore.Run, Refused | RunStore.StoreFailed> =>
  Effect.gen(function*() {
    const shown = yield* store.show(runId)
    if (Option.isNone(shown)) return yield* new RunNotFound({ runId })
    const refused = refusal(shown.value.run)
    if (refused !== undefined) return yield* Effect.fail(refused)
    const retried = yield* store.retry(runId)
    if (Option.isNone(retried)) return yield* new RunNotFound({ runId })
    // Another retried or started it in between: as the store has it now.
    if (retried.value.status !== "accepted") return yield* Effect.fail(refusal(retried.value) ?? new NotRetryable({ runId, status: retried.value.status, why: "it changed meanwhile" }))
    return retried.value
  })

/**
 * An `unknown` step of a failed or unknown run of `serve` marked done with this output (it
 * reached the provider, whose answer this is), then the run back to the engine: its later tasks
 * run with that output. Refused, nothing written, for any other run or step (the reason read
 * only then).
 *
 * @since 0.11.0
 * @category actions
 */
export const markDone = (
  store: RunStore.RunStore,
  runId: string,
  path: string,
  output: unknown
): Effect.Effect<RunStore.Run, Refused | RunStore.StoreFailed> =>
  Effect.flatMap(store.markDone(runId, path, output), (marked) =>
    Option.match(marked, {
      onSome: Effect.succeed,
      onNone: () =>
        Effect.flatMap(store.show(runId), (shown): Effect.Effect<never, Refused> => {
          if (Option.isNone(shown)) return Effect.fail(new RunNotFound({ runId }))
          const { run, steps } = shown.value
          const refused = refusal(run)
          if (refused !== undefined) return Effect.fail(refused)
          return Effect.fail(
            new StepNotUnknown({
              runId,
              path,
              status: steps.find((step) => step.path === path)?.status,
              unknown: steps.filter((step) => step.status === "unknown").map((step) => step.path)
            })
          )
        })
    }))
