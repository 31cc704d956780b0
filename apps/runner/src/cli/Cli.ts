/**
 * The command line: every command, argument and option with its description, and the help
 * they make (`x-runner --help`, `x-runner <command> --help`).
 *
 * @since 0.2.0
 */
import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Commands from "./Commands.js"
import { layer as components } from "../components/Components.js"
import * as NameValues from "./internal/nameValues.js"
import * as Effect from "effect/Effect"
// esbuild inlines it in the bundle; from dist/ and src/ alike it is the runner's own package.json.
import packageJson from "../../package.json" with { type: "json" }

/**
 * The runner's version (its package.json's), printed by `--version` and atop every help.
 *
 * @since 0.2.0
 * @category constants
 */
export const version: string = packageJson.version

/**
 * The example(s) of each command: the root `--help` shows them all, a command's `--help` its own.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = {
  run: ["$ x-runner run examples/demo.json --sandbox", "$ x-runner run examples/board.json --sandbox --serve examples/card-moved.json"],
  serve: [
    "$ x-runner serve examples/new-card.json --sandbox --public-url http://127.0.0.1:8787/hooks/new-card",
    "$ x-runner serve examples/card-due-soon.json --sandbox --poll-interval \"30 seconds\""
  ],
  sample: ["$ x-runner sample examples/card-due-soon.json --sandbox"],
  describe: ["$ x-runner describe boardtool/v1", "$ x-runner describe sitebuilder/v1/createCollectionItem"],
  options: [
    "$ x-runner options boardtool/v1/createCard idList --param idBoard=5eed00000000000000000002 --sandbox",
    "$ x-runner options sitebuilder/v1/createCollectionItem fieldData --param collectionId=5eed00000000000000000003 --sandbox"
  ],
  runs: ["$ x-runner runs --status failed", "$ x-runner runs show 3f2a9c41d0e8b7a6", "$ x-runner runs retry 3f2a9c41d0e8b7a6"],
  connect: [
    "$ x-runner connect sitebuilder --connections connections.json --app-url http://127.0.0.1:3000",
    "$ x-runner connect boardtool --test --connections connections.json"
  ]
} as const satisfies Record<string, ReadonlyArray<string>>

const workflowArg = Args.text({ name: "workflow.json" }).pipe(
  Args.withDescription("The workflow file: {label, inputs?, triggers?, tasks} (see the README's \"Workflow files\")")
)
const connectionsOption = Options.file("connections").pipe(
  Options.withDescription("A JSON file of connections keyed by component name; XRUNNER_<COMPONENT>_<FIELD> variables add to it"),
  Options.optional
)
const sandboxOption = Options.boolean("sandbox").pipe(
  Options.withDescription("Run against the embedded simulators, seeded: no account or credential needed")
)
const filesDirOption = (whenLeftOut: string) =>
  Options.text("files-dir").pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription(
      `The directory path inputs are read from and downloads written to (relative paths are taken from it; symlinks resolved; nothing outside it) (default: ${whenLeftOut})`
    ),
    Options.optional
  )
const allowPrivateNetworksOption = Options.boolean("allow-private-networks").pipe(
  Options.withDescription(
    "Let url inputs and downloads reach loopback, private, link-local and other internal addresses (refused by default; the connections' own base URLs, such as the sandbox's simulators, stay reachable)"
  )
)
const withoutRateLimitsOption = Options.boolean("without-rate-limits").pipe(
  Options.withDescription("With --sandbox, or connections to simulators on this machine: the runner keeps to no rate limit (for load tests)")
)
const dataDirOption = Options.directory("data-dir").pipe(
  Options.withDescription("Where the embedded database and the triggers' state are kept (made 0700 if others could read it)"),
  Options.withDefault(".x-runner")
)
const databaseOption = Options.text("database").pipe(
  Options.withPseudoName("postgres://…"),
  Options.withDescription("A PostgreSQL shared by several runners, instead of the embedded database (also XRUNNER_DATABASE)"),
  Options.optional
)
/** A repeatable `--<name> name=value`, its values read as written (`internal/nameValues`). */
const nameValuesOption = (name: string, description: string) =>
  Options.text(name).pipe(
    Options.withPseudoName("name=value"),
    Options.withDescription(description),
    Options.repeated,
    Options.optional,
    Options.mapEffect((given) =>
      Either.match(NameValues.parse(name, Option.getOrElse(given, () => [])), {
        onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
        onRight: Effect.succeed
      })
    )
  )
const inputOption = nameValuesOption(
  "input",
  "A value for an input the workflow declares, as name=value (repeatable): taken as written, never as a ${…} reference; name= is the empty string"
)

const run = Command.make("run", {
  workflow: workflowArg,
  connections: connectionsOption,
  sandbox: sandboxOption,
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
  )
}, (args) =>
  Commands.run({
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: args.withoutRateLimits },
    files: { filesDir: args.filesDir, allowPrivateNetworks: args.allowPrivateNetworks },
    json: args.output === "json",
    serve: args.serve
  }).pipe(Effect.provide(components({ rateLimits: !args.withoutRateLimits })))).pipe(
  Command.withDescription("Run a workflow's tasks in order, stopping at the first failed step (exit 0, 1 a step failed, 2 invalid)")
)

const serve = Command.make("serve", {
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
    Options.withDescription("A polling trigger's: how often to poll, e.g. \"30 seconds\" (default: the interval the trigger declares)"),
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
  connections: connectionsOption,
  sandbox: sandboxOption,
  withoutRateLimits: withoutRateLimitsOption,
  filesDir: filesDirOption("none: path inputs and downloads are refused"),
  allowPrivateNetworks: allowPrivateNetworksOption,
  input: inputOption
}, (args) =>
  Commands.serve({
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: args.withoutRateLimits },
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
    version
  }).pipe(Effect.provide(components({ rateLimits: !args.withoutRateLimits })))).pipe(
  Command.withDescription(
    "Enable the triggers of a workflow (or of a directory's workflows) and run their tasks once per event on the durable engine, until stopped (SIGINT/SIGTERM)"
  )
)

const sample = Command.make("sample", {
  workflow: workflowArg,
  connections: connectionsOption,
  sandbox: sandboxOption,
  input: inputOption
}, (args) =>
  Commands.sample({
    workflow: args.workflow,
    inputs: args.input,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: false }
  }).pipe(Effect.provide(components()))).pipe(
  Command.withDescription("Print sample events of the workflow's trigger (the most recent matching records) as JSON, without serving it")
)

const describe = Command.make("describe", {
  type: Args.text({ name: "type" }).pipe(
    Args.withDescription(
      "A component's type or name (e.g. boardtool/v1 or boardtool), or an action's or trigger's type; all components when left out"
    ),
    Args.optional
  )
}, ({ type }) => Commands.describe(type).pipe(Effect.provide(components()))).pipe(
  Command.withDescription("Print the components' definitions (actions, triggers, properties) as JSON, or one action's or trigger's")
)

const options = Command.make("options", {
  type: Args.text({ name: "type" }).pipe(Args.withDescription("The step type of an action or trigger, e.g. boardtool/v1/createCard")),
  property: Args.text({ name: "property" }).pipe(
    Args.withDescription("The property whose options to load (e.g. idList), or a property group whose fields to load (e.g. fieldData)")
  ),
  param: nameValuesOption("param", "A value of a property the list or the fields depend on, as name=value (repeatable)"),
  connections: connectionsOption,
  sandbox: sandboxOption
}, (args) =>
  Commands.options({
    type: args.type,
    property: args.property,
    params: args.param,
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: false }
  }).pipe(Effect.provide(components()))).pipe(
  Command.withDescription("Load the dynamic option list of a property (e.g. the lists of a board), or the fields of a property group (e.g. a collection's)")
)

const connect = Command.make("connect", {
  component: Args.text({ name: "component" }).pipe(
    Args.withDescription("The component to connect with OAuth2 (e.g. sitebuilder), or whose connection to test with --test (any)")
  ),
  connections: Options.file("connections").pipe(
    Options.withDescription(
      "The connections file holding the app's clientId and clientSecret; the token is written into it (0600). With --test, the values tested; XRUNNER_<COMPONENT>_<FIELD> variables add to it (default: connections.json)"
    ),
    Options.optional
  ),
  test: Options.boolean("test").pipe(
    Options.withDescription(
      "Test the connection as configured, writing nothing: send the component's one cheap authenticated request and say whose the credentials are, or why they were refused and what to do (exit 2; 1 when the provider could not be reached)"
    )
  ),
  sandbox: Options.boolean("sandbox").pipe(Options.withDescription("With --test: test the embedded simulators' connection")),
  appUrl: Options.text("app-url").pipe(
    Options.withPseudoName("URL"),
    Options.withDescription("Where this process serves {app-url}/callback: the app's redirect URI"),
    Options.withDefault("http://127.0.0.1:3000")
  )
}, (args) => Commands.connect(args).pipe(Effect.provide(components()))).pipe(
  Command.withDescription(
    "Connect an OAuth2 component: authorize in the browser, store the token in the connections file, and test it; or, with --test, test any component's connection as configured"
  )
)

const locationOf = (dataDir: string, database: Option.Option<string>) =>
  Effect.mapError(
    Effect.flatMap(Effect.promise(() => import("../store/Database.js")), (Database) =>
      Database.locateDatabase(Option.getOrUndefined(database) ?? process.env["XRUNNER_DATABASE"], dataDir)),
    (error) => error
  )
const jsonOutput = Options.choice("output", ["pretty", "json"]).pipe(
  Options.withDescription("pretty: a table (or text); json: one JSON document on stdout"),
  Options.withDefault("pretty" as const)
)
const runIdArg = Args.text({ name: "run" }).pipe(Args.withDescription("The run's id, as x-runner runs lists it"))

const runsShow = Command.make("show", { run: runIdArg, dataDir: dataDirOption, database: databaseOption, output: jsonOutput }, (args) =>
  Effect.flatMap(locationOf(args.dataDir, args.database), (location) =>
    Commands.runsShow({ location, runId: args.run, json: args.output === "json" }))).pipe(
    Command.withDescription("Show a run: its trigger event, and each step's input, output and error (secret parameters are never stored)")
  )

const runsRetry = Command.make("retry", { run: runIdArg, dataDir: dataDirOption, database: databaseOption }, (args) =>
  Effect.flatMap(locationOf(args.dataDir, args.database), (location) => Commands.runsRetry({ location, runId: args.run }))).pipe(
    Command.withDescription("Run a failed run again from its failed step (the steps before it keep their outputs), on a serving runner")
  )

const runs = Command.make("runs", {
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
    Commands.runsList({
      location,
      status: Option.getOrUndefined(args.status),
      workflow: Option.getOrUndefined(args.workflow),
      limit: args.limit,
      json: args.output === "json"
    }))).pipe(
    Command.withDescription("List the runs serve keeps (status, trigger event, started, duration, failed step), newest first"),
    Command.withSubcommands([runsShow, runsRetry])
  )

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
    Command.withSubcommands([run, serve, runs, sample, describe, options, connect])
  ),
  { name: "x-runner", version, footer }
)
