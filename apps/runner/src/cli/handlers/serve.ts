/**
 * `x-runner serve`: the triggers of one or more workflows served, their tasks run once per
 * event on the durable engine, until stopped.
 *
 * @since 0.2.0
 */
import type * as Path from "@effect/platform/Path"
import { Connections, FilePolicy, RateLimiter } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import * as FileAccess from "../../components/FileAccess.js"
import * as EngineGates from "../../engine/EngineGates.js"
import * as RunnerAddress from "../../engine/RunnerAddress.js"
import * as Errors from "../../Errors.js"
import { Output } from "../../Output.js"
import * as WorkflowFiles from "../../workflow/WorkflowFiles.js"
import * as Workflow from "../../workflow/Workflow.js"
import {
  type Needs,
} from "../internal/shared.js"
import { checkWithConnections, noFlags } from "../internal/checks.js"

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
