/**
 * `x-runner sample`: its arguments, options and help; loading the samples
 * (`../handlers/sample.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Layers from "../internal/layers.js"
import { connectionsOption, inputOption, sandboxOption, workflowArg } from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = ["$ x-runner sample examples/card-due-soon.json --sandbox", "$ x-runner sample examples/weekly-schedule.json"] as const

/**
 * The `sample` command: its arguments and options, parsed, then its handler (`../handlers/sample.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("sample", {
  workflow: workflowArg,
  connections: connectionsOption,
  sandbox: sandboxOption,
  input: inputOption
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/sample.js")), (Handler) =>
  Handler.sample({
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: false }
  }).pipe(Effect.provide(Layer.merge(Layers.components(), Layers.http))))).pipe(
  Command.withDescription("Print sample events of the workflow's trigger (the most recent matching records; a schedule's next five ticks) as JSON, without serving it")
)
