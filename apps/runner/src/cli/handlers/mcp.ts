/**
 * `x-runner mcp`: every action of the catalog as a tool for AI agents, over MCP (stdio, or
 * Streamable HTTP with `--port`), on the connections file or the sandbox; workflows as tools too.
 *
 * @since 0.12.0
 */
import * as Path from "@effect/platform/Path"
import { Connections, FilePolicy } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as ConnectionValues from "../../components/ConnectionValues.js"
import * as FileAccess from "../../components/FileAccess.js"
import * as Errors from "../../Errors.js"
import * as ListenerSecurity from "../../internal/listenerSecurity.js"
// The server (and the MCP library) is loaded only when the command runs: a type here.
import type { Offered } from "../../mcp/McpServer.js"
import * as McpTools from "../../mcp/McpTools.js"
import * as WorkflowTools from "../../mcp/WorkflowTools.js"
import { Output } from "../../Output.js"
import {
  type Needs,
  mcpTokenVariable as tokenVariable,
  version,
} from "../internal/shared.js"
import * as Run from "./run.js"

/**
 * `mcp`'s arguments, parsed.
 *
 * @since 0.12.0
 * @category models
 */
export interface Args {
  readonly source: ConnectionSource.ConnectionSource
  /** The components whose actions are offered (all that have a connection when empty). */
  readonly components: ReadonlyArray<string>
  /** Tool name patterns (`*` any run of characters): only the tools matching one (all when empty). */
  readonly tools: ReadonlyArray<string>
  readonly allowDestructive: boolean
  readonly workflows: string | undefined
  readonly files: FileAccess.Flags
  /** Where the workflow tools' runs are recorded; none with `--no-history`. */
  readonly history: { readonly dataDir: string; readonly database: string | undefined } | undefined
  /** Streamable HTTP on this port (0: any free one); stdio when left out. */
  readonly port: number | undefined
  readonly host: string
  readonly tokenFile: string | undefined
}

/**
 * `mcp`: checks everything it is given (components, patterns, workflows, connections, the
 * token beyond loopback) before it serves anything, says on stderr what it offers, then serves
 * until stdin closes (stdio) or it is stopped (HTTP). Each call is logged on stderr.
 *
 * @since 0.12.0
 * @category commands
 */
export const mcp = (args: Args): Effect.Effect<void, Errors.RunnerError, Needs | Path.Path> =>
  Effect.gen(function*() {
    const output = yield* Output
    const { entries, executor } = yield* Components
    const known = entries.map((entry) => entry.component.name)
    const unknown = args.components.filter((name) => !known.includes(name))
    if (unknown.length > 0) {
      return yield* new Errors.InvalidArguments({ message: `--components ${unknown.join(", ")}: no such component (there are ${known.join(", ")})` })
    }
    const unmatched = McpTools.unmatched(entries, args.tools)
    if (unmatched.length > 0) {
      return yield* new Errors.InvalidArguments({ message: `--tools ${unmatched.join(", ")}: matches no tool (x-runner describe lists the actions; a tool is <component>_<action>)` })
    }
    if (args.port !== undefined && !(Number.isInteger(args.port) && args.port >= 0 && args.port <= 65535)) {
      return yield* new Errors.InvalidArguments({ message: `--port ${args.port}: a port from 0 (any free one) to 65535` })
    }
    if (args.port === undefined && (args.tokenFile !== undefined || args.host !== "127.0.0.1")) {
      return yield* new Errors.InvalidArguments({ message: "--host and --token-file are for the HTTP transport: give --port too (without it the server speaks over stdio)" })
    }
    const token = args.port === undefined
      ? undefined
      : yield* ListenerSecurity.readToken({ file: args.tokenFile, option: "--token-file", variable: tokenVariable, whose: "the MCP server's token" })
    if (args.port !== undefined && token === undefined && !ListenerSecurity.isLoopbackAddress(args.host)) {
      return yield* new Errors.InvalidArguments({
        message: `--host ${args.host}: beyond loopback the MCP server needs a bearer token: set ${tokenVariable} or --token-file <file> (at least ${ListenerSecurity.tokenMinLength} characters)`
      })
    }
    const loaded = args.workflows === undefined ? { tools: [], triggered: [], uses: [] } : yield* WorkflowTools.load(args.workflows)
    // A workflow that destroys is withheld as a destroying action is, unless the operator allows it.
    const workflows = { ...loaded, tools: loaded.tools.filter((tool) => args.allowDestructive || !tool.annotations.destructiveHint) }

    // The components offered: those named, else (on the connections file) each one with a connection: its
    // default, or named ones only (each call then names one).
    const wanted = entries.filter((entry) => args.components.length === 0 || args.components.includes(entry.component.name))
    const fromFile = args.source.sandbox ? undefined : yield* ConnectionValues.load(entries.map((entry) => entry.component), args.source.file, process.env)
    // Each component's named connections (the file's entries that say it is theirs), and whether its default is complete: once each.
    const namedConnections = new Map(entries.map((entry) => [
      entry.component.name,
      fromFile === undefined ? [] : [...fromFile].filter(([name, values]) => name !== entry.component.name && values["component"] === entry.component.name).map(([name]) => name).sort()
    ]))
    const defaults = new Map(entries.map((entry) => [entry.component.name, fromFile === undefined || Either.isRight(ConnectionValues.check(fromFile, [entry.component]))]))
    const namedOf = (component: string): ReadonlyArray<string> => namedConnections.get(component) ?? []
    const hasDefault = (component: string): boolean => defaults.get(component) ?? false
    const offered = args.components.length > 0 ? wanted : wanted.filter((entry) => hasDefault(entry.component.name) || namedOf(entry.component.name).length > 0)
    for (const entry of wanted.filter((entry) => !offered.includes(entry))) {
      yield* output.err(`○ ${entry.component.name}: no connection (${ConnectionValues.envName(entry.component.name, "…")} or the connections file): its tools are not offered`)
    }
    // Each connection a tool may use, checked now: a default (where there is one, or where nothing else is), each named one.
    const uses = offered.flatMap((entry): ReadonlyArray<ConnectionValues.Use> => {
      const named = namedOf(entry.component.name).map((connection) => ({ component: entry.component, connection }))
      return hasDefault(entry.component.name) || named.length === 0 ? [{ component: entry.component }, ...named] : named
    })
    const { connections, notes } = yield* ConnectionSource.connect(args.source, [...uses, ...workflows.uses])
    for (const note of notes) yield* output.err(`  sandbox: ${note}`)
    const actions = McpTools.actionTools(offered, { components: [], patterns: args.tools, allowDestructive: args.allowDestructive }, namedOf, hasDefault)
    // The runner's own components (schedule, http) have triggers only: named where a tool is theirs.
    const serving = offered.filter((entry) => actions.some((tool) => tool.component === entry.component))
    const filePolicy = yield* FileAccess.policy("serve", args.files, connections)
    // One set of opened connections, one rate limiter per credential, for every call of every session.
    const opened = yield* Layer.build(Connections.layer(connections))
    const context = yield* Effect.context<Needs | Path.Path>()

    const callWorkflow = (tool: WorkflowTools.WorkflowTool, given: Readonly<Record<string, unknown>>) =>
      Effect.gen(function*() {
        const inputs = WorkflowTools.checkInputs(tool, given)
        if (Either.isLeft(inputs)) return inputs.left
        // What was offered is what was checked at the start (its marks, its inputs): a file changed since is not run.
        const changed = WorkflowTools.changedSince(tool)
        if (changed !== undefined) return changed
        let document: string | undefined
        // `run --output json` prints one document: the result; its other lines go to the log.
        const captured: Output = {
          out: (text) => Effect.sync(() => void (document = text)),
          err: (text) => output.err(`mcp   ${tool.name}: ${McpTools.oneLine(text)}`)
        }
        const ran = yield* Effect.either(
          Run.run({
            workflow: tool.file,
            inputs: inputs.right,
            source: args.source,
            json: true,
            files: args.files,
            history: args.history,
            connected: { connections, opened, filePolicy }
          }).pipe(Effect.provideService(Output, captured), Effect.provide(context))
        )
        return WorkflowTools.resultOf(document, Either.isLeft(ran) ? ran.left : undefined)
      })

    const McpServer = yield* Effect.promise(() => import("../../mcp/McpServer.js"))
    const server: Offered = {
      version,
      actions,
      workflows: workflows.tools,
      callAction: (tool, given) => McpTools.callAction(executor, tool, given).pipe(Effect.provide(opened), Effect.provideService(FilePolicy.FilePolicy, filePolicy)),
      callWorkflow,
      check: (tool, given) =>
        tool._tag === "ActionTool"
          ? Either.getLeft(McpTools.checkArguments(executor, tool, given)).pipe(Option.getOrUndefined)
          : Either.getLeft(WorkflowTools.checkInputs(tool, given)).pipe(Option.getOrUndefined) ?? WorkflowTools.changedSince(tool),
      options: (tool, property, values) => McpTools.optionsOf(executor, tool, property, values).pipe(Effect.provide(opened)),
      fields: (tool, property, values) => McpTools.fieldsOf(executor, tool, property, values).pipe(Effect.provide(opened)),
      log: (line) => output.err(line)
    }
    if (actions.length === 0 && workflows.tools.length === 0) {
      return yield* new Errors.InvalidArguments({
        message: "nothing to offer: no component has a connection (give --connections, set XRUNNER_<COMPONENT>_… variables, or use --sandbox), or --tools matches only withheld tools"
      })
    }
    const count = (impact: string) => actions.filter((tool) => tool.action.impact === impact).length
    const withheld = args.allowDestructive ? "" : " (destroying ones withheld: --allow-destructive offers them)"
    yield* output.err(
      `● mcp: ${actions.length} tools of ${serving.map((entry) => entry.component.name).join(", ") || "no component"}: ` +
        `${count("read")} read, ${count("write")} write, ${count("destroy")} destroy${withheld}` +
        (workflows.tools.length === 0 ? "" : `; ${workflows.tools.length} workflow${workflows.tools.length === 1 ? "" : "s"}`)
    )
    for (const file of workflows.triggered) yield* output.err(`○ ${file} has a trigger: not a tool (x-runner serve serves it)`)
    // A client starts the server in a directory of its choosing: say where the runs go.
    if (workflows.tools.length > 0 && args.history !== undefined) {
      yield* output.err(`● workflow runs recorded in ${args.history.database !== undefined || process.env["XRUNNER_DATABASE"] !== undefined ? "the database given" : (yield* Path.Path).resolve(args.history.dataDir)}`)
    }
    for (const tool of loaded.tools.filter((tool) => !workflows.tools.includes(tool))) {
      yield* output.err(`○ ${tool.name} runs an action that destroys: not offered without --allow-destructive`)
    }
    if (args.port === undefined) {
      yield* output.err("● mcp over stdio: waiting for a client on stdin")
      return yield* McpServer.stdio(server)
    }
    return yield* McpServer.http(server, {
      host: args.host,
      port: args.port,
      token: token === undefined ? undefined : Redacted.value(token),
      listening: (port) => output.err(`● mcp at http://${args.host.includes(":") ? `[${args.host}]` : args.host}:${port}/mcp${token === undefined ? "" : " (bearer token required)"}`)
    })
  }).pipe(Effect.scoped)

