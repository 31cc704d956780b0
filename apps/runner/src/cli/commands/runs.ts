/**
 * `x-runner runs`, `runs show`, `runs retry`: the history `serve` keeps (`../handlers/runs/history.ts`,
 * loaded with the database only when it runs).
 *
 * @since 0.2.0
 */
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { InvalidArguments } from "../../Errors.js"
import {
  allowPrivateNetworksOption,
  connectionsOption,
  databaseOption,
  dataDirOption,
  filesDirOption,
  inputOption,
  jsonOutput,
  locationOf,
  sandboxOption
} from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner runs --status failed",
  "$ x-runner runs show 3f2a9c41d0e8b7a6",
  "$ x-runner runs retry 3f2a9c41d0e8b7a6",
  "$ x-runner runs retry 5b0e1d7c2a9f8e34 workflows/triage.json --input card=5eed00000000000000000004",
  "$ x-runner runs retry 3f2a9c41d0e8b7a6 --done research --done-output '{\"id\":\"s-41\"}'"
] as const

/**
 * `runs`, `runs show`, `runs retry`: the history `serve` keeps (loaded with the database).
 *
 * @since 0.3.0
 * @category commands
 */
export const runsList = (args: Parameters<typeof import("../handlers/runs/history.js").list>[0]) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/runs/history.js")), (Runs) => Runs.list(args))

/**
 * @since 0.3.0
 * @category commands
 */
export const runsShow = (args: Parameters<typeof import("../handlers/runs/history.js").show>[0]) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/runs/history.js")), (Runs) => Runs.show(args))

/**
 * @since 0.3.0
 * @category commands
 */
export const runsRetry = (args: Parameters<typeof import("../handlers/runs/history.js").retry>[0]) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/runs/history.js")), (Runs) => Runs.retry(args))

const runIdArg = Args.text({ name: "run" }).pipe(Args.withDescription("The run's id, as x-runner runs lists it"))

const showCommand = Command.make("show", { run: runIdArg, dataDir: dataDirOption, database: databaseOption, output: jsonOutput }, (args) =>
  Effect.flatMap(locationOf(args.dataDir, args.database), (location) =>
    runsShow({ location, runId: args.run, json: args.output === "json" }))).pipe(
    Command.withDescription("Show a run: its trigger event, and each step's input, output and error (secret parameters are never stored)")
  )

const retryCommand = Command.make("retry", {
  run: runIdArg,
  workflow: Args.text({ name: "workflow" }).pipe(
    Args.withDescription(
      "A run of x-runner run: its workflow file, given again (the one that ran: its SHA-256 is checked, the workflows it calls are not; a retry never reads the file the store names)"
    ),
    Args.optional
  ),
  dataDir: dataDirOption,
  database: databaseOption,
  input: inputOption,
  done: Options.text("done").pipe(
    Options.withPseudoName("STEP"),
    Options.withDescription(
      "A run of serve: the path of a step whose outcome was unknown and that you found done at the provider: it is marked succeeded " +
        "(with --done-output), and the run goes on from there"
    ),
    Options.optional
  ),
  doneOutput: Options.text("done-output").pipe(
    Options.withPseudoName("JSON"),
    Options.withDescription("With --done: the step's output, as the provider answered it (JSON; default null)"),
    Options.optional
  ),
  allowPrivateNetworks: allowPrivateNetworksOption,
  connections: connectionsOption,
  filesDir: filesDirOption("the current directory; a run of x-runner run that had one needs it given again"),
  sandbox: sandboxOption
}, (args) =>
  Effect.gen(function*() {
    if (Option.isNone(args.done) && Option.isSome(args.doneOutput)) {
      return yield* new InvalidArguments({ message: "--done-output needs --done: the path of the step it is the output of" })
    }
    const location = yield* locationOf(args.dataDir, args.database)
    return yield* runsRetry({
      location,
      runId: args.run,
      workflow: Option.getOrUndefined(args.workflow),
      where: { dataDir: args.dataDir, database: Option.getOrUndefined(args.database) },
      inputs: args.input,
      done: Option.match(args.done, { onNone: () => undefined, onSome: (path) => ({ path, output: Option.getOrUndefined(args.doneOutput) }) }),
      allowPrivateNetworks: args.allowPrivateNetworks,
      connections: Option.getOrUndefined(args.connections),
      filesDir: Option.getOrUndefined(args.filesDir),
      sandbox: args.sandbox
    })
  })).pipe(
    Command.withDescription(
      "Run a failed run again: its tasks that succeeded keep their outputs, the others (failed, unknown, skipped) run again; " +
        "serve's on a serving runner, x-runner run's here as it was run (give its workflow file, its --input values, and its --sandbox, " +
        "--connections, --files-dir and --allow-private-networks, again: a retry takes none of them from the store). " +
        "--done marks a step whose outcome was unknown as done first"
    )
  )

/**
 * The `runs` command: its arguments and options, parsed, then its handler (`../handlers/runs/history.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("runs", {
  dataDir: dataDirOption,
  database: databaseOption,
  status: Options.choice("status", ["accepted", "running", "succeeded", "failed", "unknown"]).pipe(
    Options.withDescription("Only the runs with this status"),
    Options.optional
  ),
  workflow: Options.text("workflow").pipe(Options.withDescription("Only the runs of this workflow (its file name without .json)"), Options.optional),
  limit: Options.integer("limit").pipe(Options.withDescription("At most this many runs, newest first"), Options.withDefault(50)),
  output: jsonOutput
}, (args) =>
  Effect.flatMap(locationOf(args.dataDir, args.database), (location) =>
    runsList({
      location,
      status: Option.getOrUndefined(args.status),
      workflow: Option.getOrUndefined(args.workflow),
      limit: args.limit,
      json: args.output === "json"
    }))).pipe(
    Command.withDescription("List the runs serve keeps (status, trigger event, started, duration, failed step), newest first"),
    Command.withSubcommands([showCommand, retryCommand])
  )
