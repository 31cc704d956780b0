/**
 * What several commands share: their common options (`--connections`, `--sandbox`,
 * `--sandbox-fault`, `--data-dir`, …) and the runner's version. Light: the commands' declarations
 * import it, and parsing a command line must load no handler's machinery.
 *
 * @internal
 */
import { Args, HelpDoc, Options, ValidationError } from "@effect/cli"
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Components } from "../../components/Components.js"
import type { SandboxFault } from "../../components/ConnectionSource.js"
import type { Output } from "../../Output.js"
import * as NameValues from "./nameValues.js"
// esbuild inlines it in the bundle; from dist/ and src/ alike it is the runner's own package.json.
import packageJson from "../../../package.json" with { type: "json" }

/** The runner's version (its package.json's), printed by `--version` and atop every help. */
export const version: string = packageJson.version

/** The environment variable of `mcp`'s HTTP transport's token (else `--token-file`). */
export const mcpTokenVariable = "XRUNNER_MCP_TOKEN"

/** What the commands' handlers run with. */
export type Needs = Components | Output | FileSystem.FileSystem | HttpClient.HttpClient

export const workflowArg = Args.text({ name: "workflow.json" }).pipe(
  Args.withDescription("The workflow file: {label, inputs?, triggers?, tasks} (see the README's \"Workflow files\")")
)
export const connectionsOption = Options.file("connections").pipe(
  Options.withDescription(
    "A JSON file of connections keyed by component name (each component's default), and named ones ({\"work\": {\"component\": \"boardtool\", …}}) that steps pick with \"connection\"; XRUNNER_<COMPONENT>_<FIELD> variables add to the defaults"
  ),
  Options.optional
)
/** `--connection NAME`: a named connection of the connections file (or, with --sandbox, another account of the simulator). */
export const connectionOption = Options.text("connection").pipe(
  Options.withPseudoName("NAME"),
  Options.withDescription(
    "A named connection of the connections file to use instead of the component's default (with --sandbox: another account of its simulator)"
  ),
  Options.optional
)
export const sandboxOption = Options.boolean("sandbox").pipe(
  Options.withDescription("Run against the embedded simulators, seeded: no account or credential needed")
)
export const filesDirOption = (whenLeftOut: string) =>
  Options.text("files-dir").pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription(
      `The directory path inputs are read from and downloads written to (relative paths are taken from it; symlinks resolved; nothing outside it) (default: ${whenLeftOut})`
    ),
    Options.optional
  )
export const allowPrivateNetworksOption = Options.boolean("allow-private-networks").pipe(
  Options.withDescription(
    "Let url inputs and downloads reach loopback, private, link-local and other internal addresses (refused by default; the connections' own base URLs, such as the sandbox's simulators, stay reachable)"
  )
)
/**
 * A repeatable `--sandbox-fault "<component> <METHOD> <path> <status> x<times>"`: that component's
 * simulator answers the first <times> such requests with that error (`@x/core/testing`'s Faults).
 */
export const sandboxFaultOption = Options.text("sandbox-fault").pipe(
  Options.withPseudoName("\"COMPONENT METHOD PATH STATUS xTIMES\""),
  Options.withDescription(
    "With --sandbox: make a simulator fail on purpose, to try a retry policy (repeatable): its first TIMES requests of METHOD to PATH " +
      "(the provider's own path; {name} matches one segment) are answered STATUS (429, 500, 502, 503 or 504) with the provider's own error, " +
      "before they have any effect; e.g. \"boardtool POST /1/cards 503 x2\" (then retry-after=SECONDS: the Retry-After of a 429 or 503)"
  ),
  Options.repeated,
  Options.optional,
  Options.mapEffect((given) =>
    // The parser (on `@x/core/testing`) is loaded only when a fault is given.
    Option.isNone(given)
      ? Effect.succeed<ReadonlyArray<SandboxFault>>([])
      : Effect.flatMap(Effect.promise(() => import("./sandboxFaults.js")), (SandboxFaults) =>
        Either.match(SandboxFaults.parse(given.value), {
          onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
          onRight: Effect.succeed
        }))
  )
)
export const withoutRateLimitsOption = Options.boolean("without-rate-limits").pipe(
  Options.withDescription("With --sandbox, or connections to simulators on this machine: the runner keeps to no rate limit (for load tests)")
)
export const dataDirOption = Options.directory("data-dir").pipe(
  Options.withDescription("Where the embedded database and the triggers' state are kept (made 0700 if others could read it)"),
  Options.withDefault(".x-runner")
)
/** `--ui-token-file`: the runs page's token, for `serve` and `ui` (else `XRUNNER_UI_TOKEN`). */
export const uiTokenFileOption = Options.text("ui-token-file").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription(
    "A file whose first line is the runs page's token (at least 16 characters; also XRUNNER_UI_TOKEN): needed to serve the page beyond loopback, " +
      "sent as Authorization: Bearer or entered at /runs/login"
  ),
  Options.optional
)
export const databaseOption = Options.text("database").pipe(
  Options.withPseudoName("postgres://…"),
  Options.withDescription("A PostgreSQL shared by several runners, instead of the embedded database (also XRUNNER_DATABASE)"),
  Options.optional
)
/** A repeatable `--<name> name=value`, its values read as written (`internal/nameValues`). */
export const nameValuesOption = (name: string, description: string) =>
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
export const inputOption = nameValuesOption(
  "input",
  "A value for an input the workflow declares, as name=value (repeatable): taken as written, never as a ${…} reference; name= is the empty string"
)
export const locationOf = (dataDir: string, database: Option.Option<string>) =>
  Effect.mapError(
    Effect.flatMap(Effect.promise(() => import("../../store/Database.js")), (Database) =>
      Database.locateDatabase(Option.getOrUndefined(database) ?? process.env["XRUNNER_DATABASE"], dataDir)),
    (error) => error
  )
export const jsonOutput = Options.choice("output", ["pretty", "json"]).pipe(
  Options.withDescription("pretty: a table (or text); json: one JSON document on stdout"),
  Options.withDefault("pretty" as const)
)
