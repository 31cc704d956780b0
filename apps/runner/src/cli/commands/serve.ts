/**
 * `x-runner serve`: its arguments, options and help; serving the triggers
 * (`../handlers/serve.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Args, Command, Options } from "@effect/cli"
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
  uiTokenFileOption,
  version,
  withoutRateLimitsOption
} from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner serve examples/new-card.json --sandbox --public-url http://127.0.0.1:8787/hooks/new-card",
  "$ x-runner serve examples/card-due-soon.json --sandbox --poll-interval \"30 seconds\"",
  "$ x-runner serve examples/weekly-schedule.json --sandbox",
  "$ x-runner serve examples/http-request.json --sandbox --public-url http://127.0.0.1:8787/hooks/http-request"
] as const

/**
 * The `serve` command: its arguments and options, parsed, then its handler (`../handlers/serve.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("serve", {
  workflow: Args.text({ name: "workflow.json|directory" }).pipe(
    Args.withDescription("A workflow file with a trigger, or a directory: every workflow in it with a trigger is served, each at <public-url>/<file name>")
  ),
  publicUrl: Options.text("public-url").pipe(
    Options.withPseudoName("URL"),
    Options.withDescription("A webhook trigger's: the URL the provider sends deliveries to (it reaches this process, e.g. through a tunnel)"),
    Options.optional
  ),
  pollInterval: Options.text("poll-interval").pipe(
    Options.withPseudoName("DURATION"),
    Options.withDescription("A polling trigger's: how often to poll, e.g. \"30 seconds\" (default: the interval the trigger declares); a registered webhook's: how often it is checked with the provider (default: 5 minutes)"),
    Options.optional
  ),
  port: Options.integer("port").pipe(Options.withDescription("The port to listen on (default: the public URL's, else 8080)"), Options.optional),
  host: Options.text("host").pipe(
    Options.withDescription("The address to listen on, e.g. 0.0.0.0 behind a load balancer (default: 127.0.0.1, this machine only)"),
    Options.withDefault("127.0.0.1")
  ),
  dataDir: dataDirOption,
  database: databaseOption,
  concurrency: Options.integer("concurrency").pipe(
    Options.withDescription("How many runs this runner runs at once (default 32)"),
    Options.optional
  ),
  otlpEndpoint: Options.text("otlp-endpoint").pipe(
    Options.withPseudoName("URL"),
    Options.withDescription("Export traces of runs and steps over OTLP/HTTP to this endpoint (also OTEL_EXPORTER_OTLP_ENDPOINT)"),
    Options.optional
  ),
  runnerAddress: Options.text("runner-address").pipe(
    Options.withPseudoName("HOST:PORT"),
    Options.withDescription("With --database: how the other runners reach this one (default: 127.0.0.1 on a free port, runners on one machine)"),
    Options.optional
  ),
  allowUnsignedDeliveries: Options.boolean("allow-unsigned-deliveries").pipe(
    Options.withDescription(
      "Start a trigger whose provider signs deliveries even though its connection lacks the signing secret, and accept its deliveries unsigned (anyone who reaches the URL can run the workflow; a warning at every start)"
    )
  ),
  resetCursor: Options.text("reset-cursor").pipe(
    Options.withPseudoName("WORKFLOW"),
    Options.withDescription(
      "Drop this polling workflow's stored cursor (repeatable): its first poll sets a new baseline, so what changed since its last poll is not an event. The way out of a cursor that does not decode"
    ),
    Options.repeated
  ),
  uiTokenFile: uiTokenFileOption,
  connections: connectionsOption,
  sandbox: sandboxOption,
  sandboxFault: sandboxFaultOption,
  withoutRateLimits: withoutRateLimitsOption,
  filesDir: filesDirOption("none: path inputs and downloads are refused"),
  allowPrivateNetworks: allowPrivateNetworksOption,
  input: inputOption
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/serve.js")), (Handler) =>
  Handler.serve({
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: args.withoutRateLimits, sandboxFaults: args.sandboxFault },
    files: { filesDir: args.filesDir, allowPrivateNetworks: args.allowPrivateNetworks },
    publicUrl: args.publicUrl,
    pollInterval: args.pollInterval,
    port: args.port,
    host: args.host,
    dataDir: args.dataDir,
    database: Option.getOrUndefined(args.database),
    concurrency: Option.getOrUndefined(args.concurrency),
    runnerAddress: args.runnerAddress,
    otlpEndpoint: Option.getOrUndefined(args.otlpEndpoint),
    allowUnsignedDeliveries: args.allowUnsignedDeliveries,
    resetCursors: args.resetCursor,
    uiTokenFile: Option.getOrUndefined(args.uiTokenFile),
    version
  }).pipe(Effect.provide(Layer.merge(Layers.components({ rateLimits: !args.withoutRateLimits }), Layers.http))))).pipe(
  Command.withDescription(
    "Enable the triggers of a workflow (or of a directory's workflows) and run their tasks once per event on the durable engine, until stopped (SIGINT/SIGTERM)"
  )
)
