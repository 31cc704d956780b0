/**
 * `x-runner options`: its arguments, options and help; loading the options
 * (`../handlers/options.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Layers from "../internal/layers.js"
import { connectionOption, connectionsOption, nameValuesOption, sandboxOption } from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner options boardtool/v1/createCard idList --param idBoard=5eed00000000000000000002 --sandbox",
  "$ x-runner options sitebuilder/v1/createCollectionItem fieldData --param collectionId=5eed00000000000000000003 --sandbox",
  "$ x-runner options boardtool/v1/createCard idBoard --connection work --connections connections.json"
] as const

/**
 * The `options` command: its arguments and options, parsed, then its handler (`../handlers/options.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("options", {
  type: Args.text({ name: "type" }).pipe(Args.withDescription("The step type of an action or trigger, e.g. boardtool/v1/createCard")),
  property: Args.text({ name: "property" }).pipe(
    Args.withDescription("The property whose options to load (e.g. idList), or a property group whose fields to load (e.g. fieldData)")
  ),
  param: nameValuesOption("param", "A value of a property the list or the fields depend on, as name=value (repeatable)"),
  connections: connectionsOption,
  connection: connectionOption,
  sandbox: sandboxOption
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/options.js")), (Handler) =>
  Handler.options({
    type: args.type,
    property: args.property,
    params: args.param,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: false },
    connection: Option.getOrUndefined(args.connection)
  }).pipe(Effect.provide(Layer.merge(Layers.components(), Layers.http))))).pipe(
  Command.withDescription("Load the dynamic option list of a property (e.g. the lists of a board), or the fields of a property group (e.g. a collection's)")
)
