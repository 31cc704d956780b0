/**
 * `x-runner describe`: its arguments, options and help; printing the definitions
 * (`../handlers/describe.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Layers from "../internal/layers.js"
import { connectionOption, connectionsOption, sandboxOption } from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner describe boardtool/v1",
  "$ x-runner describe sitebuilder/v1/createCollectionItem",
  "$ x-runner describe --connection work --connections connections.json"
] as const

/**
 * The `describe` command: its arguments and options, parsed, then its handler (`../handlers/describe.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("describe", {
  type: Args.text({ name: "type" }).pipe(
    Args.withDescription(
      "A component's type or name (e.g. boardtool/v1 or boardtool), or an action's or trigger's type; all components when left out"
    ),
    Args.optional
  ),
  connection: connectionOption,
  connections: connectionsOption,
  sandbox: sandboxOption
}, ({ connection, connections, sandbox, type }) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/describe.js")), (Handler) =>
  Handler.describe(
    type,
    Option.match(connection, {
      onNone: () => undefined,
      onSome: (name) => ({ connection: name, source: { sandbox, file: connections, withoutRateLimits: false } })
    })
  ).pipe(
    // One type, without a connections file to check: its component's package alone is loaded.
    Effect.provide(Layer.merge(Option.isSome(connection) ? Layers.components() : Layers.componentsFor(Option.getOrUndefined(type)), Layers.httpOnFirstRequest))
  ))).pipe(
  Command.withDescription("Print the components' definitions (actions, triggers, properties) as JSON, or one action's or trigger's")
)
