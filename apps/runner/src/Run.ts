/** Running a workflow's tasks in order, stopping at the first failed step. */
import type * as HttpClient from "@effect/platform/HttpClient"
import type { ConnectorError, Executor } from "@x/core"
import * as Effect from "effect/Effect"
import type { Connections } from "./Connections.js"
import * as References from "./References.js"
import type { Workflow } from "./Workflow.js"

export interface StepResult {
  readonly name: string
  readonly type: string
  readonly status: "succeeded" | "failed" | "skipped"
  readonly output?: unknown
  readonly error?: { readonly tag: string; readonly message: string }
  readonly durationMs?: number
}

export interface RunResult {
  readonly status: "succeeded" | "failed"
  readonly steps: ReadonlyArray<StepResult>
}

export interface Reporter {
  readonly started: (step: { name: string; type: string; label: string }) => void
  readonly finished: (result: StepResult) => void
}

export const run = (
  executor: Executor.Executor,
  workflow: Workflow,
  connections: Connections,
  scope: Record<string, unknown>,
  reporter: Reporter
): Effect.Effect<RunResult, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const steps: Array<StepResult> = []
    let failed = false
    for (const step of workflow.tasks) {
      if (failed) {
        const skipped: StepResult = { name: step.name, type: step.type, status: "skipped" }
        steps.push(skipped)
        reporter.finished(skipped)
        continue
      }
      reporter.started(step)
      const started = Date.now()
      let parameters: unknown
      try {
        parameters = References.resolve(step.parameters, scope)
      } catch (error) {
        parameters = error
      }
      const outcome = parameters instanceof References.Unresolved
        ? { _tag: "Left" as const, left: { _tag: "InvalidInput", message: parameters.message } as ConnectorError.ConnectorError }
        : yield* Effect.either(executor.run({ ...step, parameters }, connections[step.type.split("/")[0]!]))
      const durationMs = Date.now() - started
      const result: StepResult = outcome._tag === "Right"
        ? { name: step.name, type: step.type, status: "succeeded", output: outcome.right, durationMs }
        : { name: step.name, type: step.type, status: "failed", error: { tag: outcome.left._tag, message: outcome.left.message }, durationMs }
      if (outcome._tag === "Right") scope[step.name] = outcome.right
      else failed = true
      steps.push(result)
      reporter.finished(result)
    }
    return { status: failed ? "failed" : "succeeded", steps }
  })
