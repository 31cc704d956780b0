/**
 * `x-runner schema`: its arguments, options and help; printing the schema
 * (`../handlers/schema.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Layers from "../internal/layers.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = ["$ x-runner schema --output workflow.schema.json"] as const

/**
 * The `schema` command: its options, parsed, then its handler (`../handlers/schema.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("schema", {
  output: Options.file("output").pipe(
    Options.withPseudoName("FILE"),
    Options.withDescription("Write the schema to this file instead of stdout"),
    Options.optional
  )
}, ({ output }) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/schema.js")), (Handler) => Handler.schema(output)).pipe(Effect.provide(Layer.merge(Layers.components(), Layers.httpOnFirstRequest)))).pipe(
  Command.withDescription(
    "Print the JSON Schema (2020-12) of workflow files, with every action's and trigger's parameters: an editor validates and completes a file that names it in \"$schema\""
  )
)
