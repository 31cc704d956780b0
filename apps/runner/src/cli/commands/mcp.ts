/**
 * `x-runner mcp`: its arguments, options and help; the MCP server
 * (`../handlers/mcp.ts`) is loaded when the command runs.
 *
 * @since 0.12.0
 */
import { Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ListenerSecurity from "../../internal/listenerSecurity.js"
import * as Layers from "../internal/layers.js"
import {
  allowPrivateNetworksOption,
  connectionsOption,
  databaseOption,
  dataDirOption,
  filesDirOption,
  mcpTokenVariable as tokenVariable,
  sandboxOption,
  withoutRateLimitsOption
} from "../internal/shared.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.12.0
 * @category constants
 */
export const examples = [
  "$ x-runner mcp --sandbox",
  "$ x-runner mcp --connections connections.json --components boardtool --tools 'boardtool_*Card*'",
  "$ x-runner mcp --sandbox --workflows examples/ --allow-destructive --port 8791"
] as const

/** A repeatable option of comma-separated names. */
const namesOption = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(
    Options.withPseudoName(pseudo),
    Options.withDescription(description),
    Options.repeated,
    Options.map((given) => given.flatMap((text) => text.split(",")).map((text) => text.trim()).filter((text) => text !== ""))
  )

/**
 * The `mcp` command: its options, parsed, then its handler (`../handlers/mcp.ts`, loaded when it runs).
 *
 * @since 0.12.0
 * @category commands
 */
export const command = Command.make("mcp", {
  connections: connectionsOption,
  sandbox: sandboxOption,
  withoutRateLimits: withoutRateLimitsOption,
  components: namesOption("components", "NAME[,NAME]", "Offer only these components' actions (default: every component with a connection)"),
  tools: namesOption("tools", "PATTERN[,PATTERN]", "Offer only the tools whose names match one of these patterns (* is any run of characters), e.g. 'boardtool_*Card*'"),
  allowDestructive: Options.boolean("allow-destructive").pipe(
    Options.withDescription("Offer the actions that delete or cannot be taken back too (a client that can ask its user is asked to confirm each call)")
  ),
  workflows: Options.directory("workflows").pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription("Offer each workflow file of this directory without a trigger as a tool workflow_<name>, its inputs as its arguments; its runs are recorded"),
    Options.optional
  ),
  filesDir: filesDirOption("none: a path input is refused"),
  allowPrivateNetworks: allowPrivateNetworksOption,
  noHistory: Options.boolean("no-history").pipe(Options.withDescription("Do not record the workflow tools' runs")),
  dataDir: dataDirOption,
  database: databaseOption,
  port: Options.integer("port").pipe(
    Options.withDescription("Serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (0: any free port, printed)"),
    Options.optional
  ),
  host: Options.text("host").pipe(
    Options.withDescription(`With --port: the address to listen on (default 127.0.0.1; beyond loopback a token is needed: ${tokenVariable} or --token-file)`),
    Options.withDefault("127.0.0.1")
  ),
  tokenFile: Options.text("token-file").pipe(
    Options.withPseudoName("FILE"),
    Options.withDescription(`With --port: a file whose first line is the bearer token every request must carry (at least ${ListenerSecurity.tokenMinLength} characters; also ${tokenVariable})`),
    Options.optional
  )
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/mcp.js")), (Handler) =>
  Handler.mcp({
    source: { sandbox: args.sandbox, file: args.connections, withoutRateLimits: args.withoutRateLimits },
    components: args.components,
    tools: args.tools,
    allowDestructive: args.allowDestructive,
    workflows: Option.getOrUndefined(args.workflows),
    files: { filesDir: args.filesDir, allowPrivateNetworks: args.allowPrivateNetworks },
    history: args.noHistory ? undefined : { dataDir: args.dataDir, database: Option.getOrUndefined(args.database) },
    port: Option.getOrUndefined(args.port),
    host: args.host,
    tokenFile: Option.getOrUndefined(args.tokenFile)
  }).pipe(Effect.provide(Layer.merge(Layers.components({ rateLimits: !args.withoutRateLimits }), Layers.http))))).pipe(
  Command.withDescription(
    "Serve every action as a tool for AI agents over MCP (stdio, or Streamable HTTP with --port): typed input and output schemas, safety annotations, options by completion, rate limits"
  )
)
