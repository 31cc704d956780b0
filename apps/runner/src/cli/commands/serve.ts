/**
 * `x-runner serve`: the triggers of one or more workflows served, their tasks run once per
 * event on the durable engine, until stopped.
 *
 * @since 0.2.0
 */
import { Args, Command, Options } from "@effect/cli"
import type * as Path from "@effect/platform/Path"
import { Connections, FilePolicy, RateLimiter } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { layer as components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as FileAccess from "../../components/FileAccess.js"
import * as EngineGates from "../../engine/EngineGates.js"
import * as RunnerAddress from "../../engine/RunnerAddress.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import * as WorkflowFiles from "../../workflow/WorkflowFiles.js"
import * as Workflow from "../../workflow/Workflow.js"
import {
  allowPrivateNetworksOption,
  checkWithConnections,
  connectionsOption,
  databaseOption,
  dataDirOption,
  filesDirOption,
  inputOption,
  type Needs,
  noFlags,
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
 * `serve`: serves the trigger of one workflow, or of every workflow in a directory (each at its
 * own path under the public URL), and runs their tasks for every event on the durable engine,
 * until stopped.
 *
 * @since 0.2.0
 * @category commands
 */
export const serve = (args: {
  readonly workflow: string
  readonly inputs: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
  readonly publicUrl: Option.Option<string>
  readonly pollInterval?: Option.Option<string>
  readonly port: Option.Option<number>
  readonly host?: string | undefined
  readonly dataDir: string
  readonly database?: string | undefined
  readonly concurrency?: number | undefined
  readonly runnerAddress?: Option.Option<string>
  readonly otlpEndpoint?: string | undefined
  readonly version?: string | undefined
  readonly files?: FileAccess.Flags | undefined
  readonly allowUnsignedDeliveries?: boolean | undefined
  readonly resetCursors?: ReadonlyArray<string> | undefined
  /** `--ui-token-file`: the runs page's token (else `XRUNNER_UI_TOKEN`). */
  readonly uiTokenFile?: string | undefined
}): Effect.Effect<void, Errors.RunnerError, Needs | Path.Path> =>
  Effect.gen(function*() {
    const files = yield* WorkflowFiles.workflowFiles(args.workflow)
    const loaded: Array<{ readonly name: string; readonly file: string; readonly workflow: Workflow.Workflow }> = []
    for (const file of files) {
      const workflow = yield* WorkflowFiles.loadWorkflow(file.path, args.inputs)
      if (workflow.trigger !== undefined) loaded.push({ name: file.name, file: file.path, workflow })
      else if (files.length > 1) yield* Effect.flatMap(Output, (output) => output.err(`○ ${file.path} has no trigger: not served`))
    }
    if (loaded.length === 0) return yield* new Errors.InvalidArguments({ message: `${args.workflow}: no workflow with a trigger to serve` })
    // Served runs are many: a deprecated action or trigger is said once, when serving starts.
    for (const warning of new Set(loaded.flatMap(({ workflow }) => Workflow.deprecations(workflow)))) {
      yield* Effect.flatMap(Output, (output) => output.err(warning))
    }
    for (const name of args.resetCursors ?? []) {
      const polled = loaded.find((served) => served.name === name && served.workflow.trigger!.prepared.trigger.kind === "POLLING")
      if (polled === undefined) {
        const names = loaded.filter((served) => served.workflow.trigger!.prepared.trigger.kind === "POLLING").map((served) => served.name)
        return yield* new Errors.InvalidArguments({
          message: `--reset-cursor ${name}: not a polling workflow served here (${names.length === 0 ? "there is none" : `those are: ${names.join(", ")}`})`
        })
      }
    }
    // Polled and scheduled triggers receive no deliveries: no public URL needed.
    const polling = loaded.every(({ workflow }) => ["POLLING", "SCHEDULE"].includes(workflow.trigger!.prepared.trigger.kind))
    if (Option.isNone(args.publicUrl) && !polling) {
      return yield* new Errors.InvalidArguments({ message: "--public-url is needed: the provider sends the trigger's deliveries there" })
    }
    const publicUrl = Option.isNone(args.publicUrl) ? undefined : yield* Effect.try({
      try: () => new URL(args.publicUrl.pipe(Option.getOrThrow)),
      catch: () => new Errors.InvalidArguments({ message: `--public-url ${Option.getOrThrow(args.publicUrl)}: not a URL` })
    })
    const given = Option.getOrUndefined(args.pollInterval ?? Option.none())
    const pollInterval = given === undefined ? undefined : Option.getOrUndefined(Duration.decodeUnknown(given))
    if (given !== undefined && (pollInterval === undefined || !Duration.greaterThan(pollInterval, Duration.zero))) {
      return yield* new Errors.InvalidArguments({ message: `--poll-interval ${given}: not a positive duration such as "30 seconds"` })
    }
    if (args.concurrency !== undefined && !(Number.isInteger(args.concurrency) && args.concurrency >= 1)) {
      return yield* new Errors.InvalidArguments({ message: `--concurrency ${args.concurrency}: not a whole number of runs, at least 1` })
    }
    const database = yield* Effect.mapError(
      (yield* Effect.promise(() => import("../../store/Database.js"))).locateDatabase(args.database ?? process.env["XRUNNER_DATABASE"], args.dataDir),
      (problem) => new Errors.InvalidArguments({ message: problem.message })
    )
    const RunsPage = yield* Effect.promise(() => import("../../page/RunsPage.js"))
    const uiToken = yield* RunsPage.readToken(args.uiTokenFile)
    const cluster = yield* RunnerAddress.runnerAddress(Option.getOrUndefined(args.runnerAddress ?? Option.none()))
    const { connections, notes } = yield* ConnectionSource.connect(args.source, loaded.flatMap(({ workflow }) => Workflow.connectionsOf(workflow)))
    for (const { workflow } of loaded) yield* checkWithConnections(args.workflow, workflow, connections)
    const filePolicy = yield* FileAccess.policy("serve", args.files ?? noFlags, connections)
    for (const note of notes) yield* Effect.flatMap(Output, (output) => output.err(`sandbox: ${note}`))
    const [Serve, Tracing] = yield* Effect.promise(() => Promise.all([import("../../serve/Serve.js"), import("../../serve/Tracing.js")]))
    // Several runners on one credential keep to its limit together: their pacing is in the database.
    const output = yield* Output
    // On the embedded database, the serving thread's requests are paced by the engine thread's limiter.
    const gates = database._tag === "Embedded" ? EngineGates.make() : undefined
    const limiters = gates !== undefined
      ? Layer.succeed(RateLimiter.RateLimiters, gates.limiter)
      : database._tag === "Postgres"
      ? (yield* Effect.promise(() => import("../../store/SharedRateLimiter.js"))).layer(database.url, output.err)
      : Layer.empty
    const directory = files.length > 1 || files[0]!.path !== args.workflow
    return yield* Serve.serve({
      // One workflow is served at the public URL itself; a directory's each at <public URL>/<name>.
      workflows: loaded.map(({ file, name, workflow }) => ({
        name,
        file,
        workflow,
        publicUrl: publicUrl === undefined ? undefined : directory ? new URL(`${publicUrl.pathname.replace(/\/$/, "")}/${encodeURIComponent(name)}`, publicUrl) : publicUrl
      })),
      pollInterval,
      port: Option.getOrElse(args.port, () => publicUrl?.port ? Number(publicUrl.port) : undefined),
      host: args.host,
      dataDir: args.dataDir,
      database,
      concurrency: args.concurrency,
      cluster,
      inputs: args.inputs,
      connections,
      rateLimits: !args.source.withoutRateLimits,
      otlpEndpoint: Tracing.endpointOf(args.otlpEndpoint),
      version: args.version ?? "0.0.0",
      gates,
      allowUnsignedDeliveries: args.allowUnsignedDeliveries,
      resetCursors: args.resetCursors,
      uiToken
    }).pipe(
      // The serving thread's spans are not exported (the runs' and steps' are, from the engine's thread): none is made.
      Effect.withTracerEnabled(false),
      // Serve hands it to the engine's thread, where the steps run.
      Effect.provideService(FilePolicy.FilePolicy, filePolicy),
      Effect.provide(Connections.layer(connections).pipe(Layer.provide(limiters)))
    )
  }).pipe(Effect.scoped)

/**
 * The `serve` command: its arguments and options, parsed, then the handler above.
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
  serve({
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
  }).pipe(Effect.provide(components({ rateLimits: !args.withoutRateLimits })))).pipe(
  Command.withDescription(
    "Enable the triggers of a workflow (or of a directory's workflows) and run their tasks once per event on the durable engine, until stopped (SIGINT/SIGTERM)"
  )
)
