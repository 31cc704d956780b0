/**
 * `x-runner ui`: its arguments, options and help; serving the runs page
 * (`../handlers/ui.ts`) is loaded when the command runs.
 *
 * @since 0.11.0
 */
import { Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { databaseOption, dataDirOption, uiTokenFileOption } from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.11.0
 * @category constants
 */
export const examples = ["$ x-runner ui --data-dir .x-runner --port 8790"] as const

/**
 * The `ui` command: its options, parsed, then its handler (`../handlers/ui.ts`, loaded when it runs).
 *
 * @since 0.11.0
 * @category commands
 */
export const command = Command.make("ui", {
  dataDir: dataDirOption,
  database: databaseOption,
  host: Options.text("host").pipe(
    Options.withDescription("The address to listen on (default: 127.0.0.1, this machine only; beyond it the page needs --ui-token-file or XRUNNER_UI_TOKEN)"),
    Options.withDefault("127.0.0.1")
  ),
  port: Options.integer("port").pipe(Options.withDescription("The port to listen on"), Options.withDefault(8790)),
  uiTokenFile: uiTokenFileOption
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/ui.js")), (Handler) => Handler.ui({ ...args, uiTokenFile: Option.getOrUndefined(args.uiTokenFile) }))).pipe(
  Command.withDescription(
    "Serve the runs page alone (the runs of serve and x-runner run in a data directory or database: list, timeline, retry), for a store whose runner is not running; serve shows the same page on its own port"
  )
)
