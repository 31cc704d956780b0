/**
 * `x-runner schema`: the JSON Schema of workflow files, with every action's and trigger's
 * parameters, for editors.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Component } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Components } from "../../components/Components.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import * as WorkflowSchema from "../../workflow/WorkflowSchema.js"

/**
 * The schema as the command prints it: pretty JSON, ending with a newline.
 *
 * @since 0.2.0
 * @category utils
 */
export const text = (schema: WorkflowSchema.JsonSchema): string => `${JSON.stringify(schema, null, 2)}\n`

/**
 * `schema`: prints the JSON Schema (draft 2020-12) of workflow files for this runner's catalog,
 * or writes it to a file.
 *
 * @since 0.2.0
 * @category commands
 */
export const schema = (output: Option.Option<string>): Effect.Effect<void, Errors.InvalidArguments, Components | Output | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const { entries } = yield* Components
    const printed = text(WorkflowSchema.make(entries.map((entry) => Component.describe(entry.component))))
    if (Option.isNone(output)) return yield* (yield* Output).out(printed)
    const fs = yield* FileSystem.FileSystem
    yield* fs.writeFileString(output.value, printed).pipe(
      Effect.mapError((error) => new Errors.InvalidArguments({ message: `cannot write ${output.value}: ${error.message}` }))
    )
    yield* (yield* Output).err(`wrote ${output.value}: name it in a workflow file as "$schema"`)
  })
