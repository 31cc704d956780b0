/**
 * The command line: the root command `x-runner` and its commands, one module each under
 * `commands/` (its arguments, options, examples and help), and the help they make
 * (`x-runner --help`, `x-runner <command> --help`). A command's handler is a module of
 * `handlers/`, loaded (a dynamic import, a chunk of the bundle) only when that command runs:
 * parsing a command line and printing help load no engine, store, server or package.
 *
 * @since 0.2.0
 */
import { Command, HelpDoc } from "@effect/cli"
import * as Connect from "./commands/connect.js"
import * as Describe from "./commands/describe.js"
import * as Mcp from "./commands/mcp.js"
import * as Options from "./commands/options.js"
import * as Run from "./commands/run.js"
import * as Runs from "./commands/runs.js"
import * as Sample from "./commands/sample.js"
import * as Schema from "./commands/schema.js"
import * as Serve from "./commands/serve.js"
import * as Ui from "./commands/ui.js"
import * as Shared from "./internal/shared.js"

/**
 * The runner's version (its package.json's), printed by `--version` and atop every help.
 *
 * @since 0.2.0
 * @category constants
 */
export const version: string = Shared.version

/**
 * The example(s) of each command: the root `--help` shows them all, a command's `--help` its own.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = {
  run: Run.examples,
  serve: Serve.examples,
  sample: Sample.examples,
  describe: Describe.examples,
  options: Options.examples,
  runs: Runs.examples,
  ui: Ui.examples,
  connect: Connect.examples,
  mcp: Mcp.examples,
  schema: Schema.examples
} as const satisfies Record<string, ReadonlyArray<string>>

const footer = HelpDoc.blocks([HelpDoc.h1("EXAMPLES"), ...Object.values(examples).flat().map((example) => HelpDoc.p(example))])

/**
 * The command line, run on the process's arguments.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cli = Command.run(
  Command.make("x-runner").pipe(
    Command.withDescription("Runs workflow files on the connector packages. Exit codes: 0 ok, 1 a step failed, 2 invalid workflow or arguments."),
    Command.withSubcommands([Run.command, Serve.command, Runs.command, Ui.command, Sample.command, Describe.command, Options.command, Connect.command, Mcp.command, Schema.command])
  ),
  { name: "x-runner", version, footer }
)
