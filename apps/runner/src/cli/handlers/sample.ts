/**
 * `x-runner sample`: sample events of a workflow's trigger, read now from the provider.
 *
 * @since 0.2.0
 */
import { Connections } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import * as WorkflowFiles from "../../workflow/WorkflowFiles.js"
import { type Needs } from "../internal/shared.js"

/**
 * `sample`: prints sample events of the workflow's trigger, read now from the provider (its
 * most recent matching records; a schedule's next five ticks), as a JSON array of `{id, output}`;
 * nothing is enabled or run.
 *
 * @since 0.2.0
 * @category commands
 */
export const sample = (args: {
  readonly workflow: string
  readonly inputs: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
}): Effect.Effect<void, Errors.RunnerError, Needs> =>
  Effect.gen(function*() {
    const output = yield* Output
    const workflow = yield* WorkflowFiles.loadWorkflow(args.workflow, args.inputs)
    const trigger = workflow.trigger
    if (trigger === undefined) return yield* new Errors.InvalidArguments({ message: `${args.workflow} has no trigger to sample` })
    const { connections } = yield* ConnectionSource.connect(args.source, [{ component: trigger.component, connection: trigger.step.connection }])
    const { executor } = yield* Components
    const events = yield* Effect.either(executor.sample(trigger.prepared).pipe(Effect.provide(Connections.layer(connections))))
    if (Either.isLeft(events)) {
      const message = `${events.left._tag}: ${events.left.message}`
      return yield* events.left._tag === "InvalidInput" ? new Errors.InvalidArguments({ message }) : new Errors.StepFailed({ message })
    }
    yield* output.err(`${events.right.length} sample event${events.right.length === 1 ? "" : "s"} of ${trigger.step.type}`)
    yield* output.out(JSON.stringify(events.right, null, 2))
  }).pipe(Effect.scoped)
