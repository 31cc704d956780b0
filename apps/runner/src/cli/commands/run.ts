/**
 * `x-runner run`: its arguments, options and help; running the workflow
 * (`../handlers/run.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Layers from "../internal/layers.js"
import {
  allowPrivateNetworksOption,
  connectionsOption,
  databaseOption,
  dataDirOption,
  filesDirOption,
  inputOption,
  sandboxFaultOption,
  sandboxOption,
  withoutRateLimitsOption,
  workflowArg
} from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner run examples/demo.json --sandbox",
  "$ x-runner run examples/board.json --sandbox --serve examples/card-moved.json",
  "$ x-runner run examples/two-trello-accounts.json --sandbox",
  "$ x-runner run examples/call-a-workflow.json --sandbox --no-history"
] as const

/**
 * The `run` command: its arguments and options, parsed, then its handler (`../handlers/run.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("run", {
  workflow: workflowArg,
  connections: connectionsOption,
  sandbox: sandboxOption,
  sandboxFault: sandboxFaultOption,
  withoutRateLimits: withoutRateLimitsOption,
  filesDir: filesDirOption("the current directory"),
  allowPrivateNetworks: allowPrivateNetworksOption,
  input: inputOption,
  output: Options.choice("output", ["pretty", "json"]).pipe(
    Options.withDescription("pretty: progress on stderr, outputs on stdout; json: one document {status, steps} on stdout"),
    Options.withDefault("pretty" as const)
  ),
  serve: Options.file("serve").pipe(
    Options.withPseudoName("TRIGGER-WORKFLOW.json"),
    Options.withDescription(
      "With --sandbox: also serve this workflow's trigger in the same process, on a local URL; the run waits for the first event it fires and that event's run"
    ),
    Options.optional
  ),
  noHistory: Options.boolean("no-history").pipe(
    Options.withDescription("Do not record the run (by default it is recorded where serve keeps its runs: --data-dir, or --database; x-runner runs shows it)")
  ),
  dataDir: dataDirOption,
  database: databaseOption,
  serveWait: Options.text("serve-wait").pipe(
    Options.withPseudoName("DURATION"),
    Options.withDescription("With --serve: how long the run waits, after its tasks, for the trigger's first event and its run, e.g. \"1 minute\" (default: 15 seconds)"),
    Options.optional
  )
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/run.js")), (Handler) =>
  Handler.run({
    history: args.noHistory ? undefined : { dataDir: args.dataDir, database: Option.getOrUndefined(args.database) },
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: args.withoutRateLimits, sandboxFaults: args.sandboxFault },
    files: { filesDir: args.filesDir, allowPrivateNetworks: args.allowPrivateNetworks },
    json: args.output === "json",
    serve: args.serve,
    serveWait: args.serveWait
  }).pipe(Effect.provide(Layer.merge(Layers.components({ rateLimits: !args.withoutRateLimits }), Layers.http))))).pipe(
  Command.withDescription("Run a workflow's tasks in order, stopping at the first failed step (exit 0, 1 a step failed, 2 invalid)")
)
