/**
 * What each command does, once its arguments are parsed (`Cli` defines them). Each ends with
 * success or one of the runner's tagged errors; `main` turns those into exit codes.
 *
 * @since 0.2.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as Path from "@effect/platform/Path"
import { Component, Connections, type ConnectorError, FilePolicy, PropertyGroup, RateLimiter } from "@x/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Components } from "../components/Components.js"
import * as EngineGates from "../engine/EngineGates.js"
import * as FileAccess from "../components/FileAccess.js"
import type { ConnectionValues } from "../components/ConnectionValues.js"
import * as Errors from "../Errors.js"
import { Output } from "../Output.js"
import * as Run from "../engine/Run.js"
import * as ConnectionSource from "../components/ConnectionSource.js"
import * as RunnerAddress from "../engine/RunnerAddress.js"
import * as WorkflowFiles from "../workflow/WorkflowFiles.js"
import * as Workflow from "../workflow/Workflow.js"

type Needs = Components | Output | FileSystem.FileSystem | HttpClient.HttpClient

const mark = (status: Run.StepResult["status"]) => status === "succeeded" ? "✔" : status === "failed" ? "✘" : "–"

/** A workflow that passed both checks (the second one needs the connections). */
const checkWithConnections = (file: string, workflow: Workflow.Workflow, connections: ConnectionValues) => {
  const issues = Workflow.checkWithConnections(workflow, connections)
  return issues.length === 0 ? Effect.void : Effect.fail(new Errors.InvalidWorkflow({ file, issues }))
}

/**
 * `run`: runs the tasks in order, stopping at the first failed step. With `--serve` (on the
 * sandbox), a trigger workflow is served in the same process meanwhile (`ServeAlongside`),
 * and the run waits for the first event it fires and that event's run.
 *
 * @since 0.2.0
 * @category commands
 */
export const run = (args: {
  readonly workflow: string
  readonly inputs: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
  readonly json: boolean
  readonly serve?: Option.Option<string>
  readonly files?: FileAccess.Flags | undefined
}): Effect.Effect<void, Errors.RunnerError, Needs | Path.Path> =>
  Effect.gen(function*() {
    const output = yield* Output
    const { executor } = yield* Components
    const workflow = yield* WorkflowFiles.loadWorkflow(args.workflow, args.inputs)
    const serveFile = Option.getOrUndefined(args.serve ?? Option.none())
    const triggered = serveFile === undefined ? undefined : yield* loadTriggerWorkflow(serveFile, args.source)
    const { connections } = yield* ConnectionSource.connect(args.source, [
      ...new Set([...Workflow.componentsOf(workflow), ...(triggered === undefined ? [] : Workflow.componentsOf(triggered))])
    ])
    yield* checkWithConnections(args.workflow, workflow, connections)
    if (triggered !== undefined) yield* checkWithConnections(serveFile!, triggered, connections)
    const filePolicy = yield* FileAccess.policy("run", args.files ?? noFlags, connections)
    const pretty = (text: string) => args.json ? Effect.void : output.err(text)
    // One set of opened connections (one rate limiter per token) for the run and the trigger.
    const opened = yield* Layer.build(Connections.layer(connections))
    const served = triggered === undefined
      ? undefined
      : yield* Effect.flatMap(Effect.promise(() => import("../serve/ServeAlongside.js")), (ServeAlongside) =>
        ServeAlongside.start({ workflow: triggered, file: serveFile!, connections, rateLimits: !args.source.withoutRateLimits, opened }).pipe(
          Effect.provideService(FilePolicy.FilePolicy, filePolicy)
        ))
    // A deprecated action still runs; each run says so once, on stderr (never in the outputs).
    for (const warning of new Set([...Workflow.deprecations(workflow), ...(triggered === undefined ? [] : Workflow.deprecations(triggered))])) {
      yield* output.err(warning)
    }
    yield* pretty(`▶ ${workflow.label}${args.source.sandbox ? " (sandbox)" : ""}`)
    const result = yield* Run.run(executor, workflow, {
      started: (checked) => pretty(`  … ${checked.step.name} (${checked.step.type})`),
      finished: (step) =>
        pretty(`  ${mark(step.status)} ${step.name} ${step.status}${step.durationMs === undefined ? "" : ` in ${step.durationMs} ms`}${
          step.error === undefined ? "" : `: ${step.error.tag}: ${step.error.message}`
        }`)
    }).pipe(Effect.provide(opened), Effect.provideService(FilePolicy.FilePolicy, filePolicy))
    // The first event the trigger fired (during the run, or just after it), and its run.
    const fired = served === undefined ? undefined : yield* served.next(firedWithin)
    if (served !== undefined) yield* served.stop
    const trigger = served === undefined || fired === undefined ? undefined : Option.match(fired, {
      onNone: () => ({ type: served.type, event: null, status: "failed" as const, steps: [] }),
      onSome: ({ event, result }) => ({ type: served.type, event: event.id, status: result.status, steps: result.steps })
    })
    const status = result.status === "failed" || trigger?.status === "failed" ? "failed" : "succeeded"
    const withoutDurations = (steps: ReadonlyArray<Run.StepResult>) => steps.map(({ durationMs: _, ...step }) => step)
    if (args.json) {
      yield* output.out(JSON.stringify({
        status,
        steps: withoutDurations(result.steps),
        ...(trigger === undefined ? {} : { trigger: { ...trigger, steps: withoutDurations(trigger.steps) } })
      }))
    } else {
      const print = (steps: ReadonlyArray<Run.StepResult>) =>
        Effect.forEach(steps, (step) =>
          Effect.gen(function*() {
            yield* output.out(`\n${step.name} (${step.type}): ${step.status}`)
            if (step.output !== undefined) yield* output.out(JSON.stringify(step.output, null, 2))
            if (step.error !== undefined) yield* output.out(`${step.error.tag}: ${step.error.message}`)
          }), { discard: true })
      yield* output.out(`${workflow.label}: ${result.status}`)
      yield* print(result.steps)
      if (trigger !== undefined) {
        yield* output.out(
          trigger.event === null
            ? `\n${triggered!.label}: ${trigger.type} fired no event within ${Duration.format(firedWithin)}`
            : `\n${triggered!.label}: ${trigger.type} fired (event ${trigger.event}), its run ${trigger.status}`
        )
        yield* print(trigger.steps)
      }
    }
    if (status === "failed") return yield* new Errors.StepFailed({ message: "" })
  }).pipe(
    // With --output json, a refusal is one JSON document on stdout too.
    Effect.tapError((error) =>
      args.json && Errors.exitCode(error) === 2
        ? Effect.flatMap(Output, (output) => output.out(JSON.stringify({ status: "invalid", issues: Errors.issuesOf(error) })))
        : Effect.void
    ),
    Effect.scoped
  )

/** `run`'s flags when a caller gives none: the current directory, private networks refused. */
const noFlags: FileAccess.Flags = { filesDir: Option.none(), allowPrivateNetworks: false }

/** How long `run --serve` waits, after its tasks, for the trigger's first event to have run. */
const firedWithin = Duration.seconds(15)

/** `run --serve`'s workflow: on the sandbox, with a trigger that registers its own webhook. */
const loadTriggerWorkflow = (file: string, source: ConnectionSource.ConnectionSource) =>
  Effect.gen(function*() {
    if (!source.sandbox) {
      return yield* new Errors.InvalidArguments({
        message: "--serve needs --sandbox: the trigger's deliveries come from the simulators this process runs"
      })
    }
    const triggered = yield* WorkflowFiles.loadWorkflow(file, new Map())
    const kind = triggered.trigger?.prepared.trigger.kind
    if (kind === undefined) return yield* new Errors.InvalidArguments({ message: `--serve ${file}: the workflow has no trigger to serve` })
    if (kind !== "DYNAMIC_WEBHOOK") {
      return yield* new Errors.InvalidArguments({
        message: `--serve ${file}: ${triggered.trigger!.step.type} is not a webhook the runner registers (serve it with x-runner serve)`
      })
    }
    return triggered
  })

/**
 * `describe`: prints the definitions of every component, or of one (by type or name), or of one
 * action or trigger (by step type). A property group's fields come from the provider: stderr
 * says how to see them (`options`).
 *
 * @since 0.2.0
 * @category commands
 */
export const describe = (wanted: Option.Option<string>): Effect.Effect<void, Errors.InvalidArguments, Components | Output> =>
  Effect.gen(function*() {
    const { entries, executor } = yield* Components
    const output = yield* Output
    const all = entries.map((entry) => Component.describe(entry.component))
    const type = Option.getOrUndefined(wanted)
    const action = type === undefined ? undefined : Either.getOrUndefined(executor.registry.action(type))
    const trigger = type === undefined || action !== undefined ? undefined : Either.getOrUndefined(executor.registry.trigger(type))
    const chosen = type === undefined
      ? all
      : action !== undefined
      ? Component.describeAction(action.definition)
      : trigger !== undefined
      ? Component.describeTrigger(trigger.definition)
      : all.find((c) => c.type === type || c.name === type)
    if (chosen === undefined) {
      return yield* new Errors.InvalidArguments({ message: `unknown component or step type "${type}"; available: ${all.map((c) => c.type).join(", ")}` })
    }
    yield* output.out(JSON.stringify(chosen, null, 2))
    // The actions described, by step type: where one has a property group, say how to see its fields.
    const actions = action !== undefined
      ? [[type!, action.definition] as const]
      : trigger !== undefined
      ? []
      : entries.filter((e) => type === undefined || Component.typeOf(e.component) === type || e.component.name === type)
        .flatMap((e) => Object.values(e.component.actions).map((a) => [`${Component.typeOf(e.component)}/${a.name}`, a] as const))
    for (const [stepType, definition] of actions) {
      for (const [name, group] of PropertyGroup.groupsOf(definition.props) ?? []) {
        const params = group.fields.dependsOn.map((dependency) => ` --param ${dependency}=…`).join("")
        yield* output.err(`${stepType}: ${name} holds fields loaded from ${group.fields.dependsOn.join(", ")}; see them with: x-runner options ${stepType} ${name}${params}`)
      }
    }
  })

/**
 * `options`: loads the dynamic option list of one property, or the fields of a property group
 * (their definitions by key: title, kind, required, choices, rules).
 *
 * @since 0.2.0
 * @category commands
 */
export const options = (args: {
  readonly type: string
  readonly property: string
  readonly params: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
}): Effect.Effect<void, Errors.RunnerError, Needs> =>
  Effect.gen(function*() {
    const { executor } = yield* Components
    const resolved = Either.orElse(executor.registry.action(args.type), () => executor.registry.trigger(args.type))
    if (Either.isLeft(resolved)) return yield* new Errors.InvalidArguments({ message: `InvalidInput: ${resolved.left.message}` })
    const { component, definition } = resolved.right
    const { connections } = yield* ConnectionSource.connect(args.source, [component])
    const params = Object.fromEntries(args.params)
    const props = definition.props as Record<string, PropertyGroup.PropertyGroup | { readonly kind: string }>
    const group = Object.hasOwn(props, args.property) && props[args.property]!.kind === "GROUP"
    const load: Effect.Effect<unknown, ConnectorError.ConnectorError, Connections.Connections> = group
      ? executor.fields(args.type, args.property, params)
      : executor.options(args.type, args.property, params)
    const loaded = yield* Effect.either(load.pipe(Effect.provide(Connections.layer(connections))))
    if (Either.isLeft(loaded)) {
      const message = `${loaded.left._tag}: ${loaded.left.message}`
      return yield* loaded.left._tag === "InvalidInput" ? new Errors.InvalidArguments({ message }) : new Errors.StepFailed({ message })
    }
    yield* Effect.flatMap(Output, (output) => output.out(JSON.stringify(loaded.right, null, 2)))
  }).pipe(Effect.scoped)

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
    const polling = loaded.every(({ workflow }) => workflow.trigger!.prepared.trigger.kind === "POLLING")
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
      (yield* Effect.promise(() => import("../store/Database.js"))).locateDatabase(args.database ?? process.env["XRUNNER_DATABASE"], args.dataDir),
      (problem) => new Errors.InvalidArguments({ message: problem.message })
    )
    const cluster = yield* RunnerAddress.runnerAddress(Option.getOrUndefined(args.runnerAddress ?? Option.none()))
    const { connections, notes } = yield* ConnectionSource.connect(args.source, [...new Set(loaded.flatMap(({ workflow }) => Workflow.componentsOf(workflow)))])
    for (const { workflow } of loaded) yield* checkWithConnections(args.workflow, workflow, connections)
    const filePolicy = yield* FileAccess.policy("serve", args.files ?? noFlags, connections)
    for (const note of notes) yield* Effect.flatMap(Output, (output) => output.err(`sandbox: ${note}`))
    const [Serve, Tracing] = yield* Effect.promise(() => Promise.all([import("../serve/Serve.js"), import("../serve/Tracing.js")]))
    // Several runners on one credential keep to its limit together: their pacing is in the database.
    const output = yield* Output
    // On the embedded database, the serving thread's requests are paced by the engine thread's limiter.
    const gates = database._tag === "Embedded" ? EngineGates.make() : undefined
    const limiters = gates !== undefined
      ? Layer.succeed(RateLimiter.RateLimiters, gates.limiter)
      : database._tag === "Postgres"
      ? (yield* Effect.promise(() => import("../store/SharedRateLimiter.js"))).layer(database.url, output.err)
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
      resetCursors: args.resetCursors
    }).pipe(
      // The serving thread's spans are not exported (the runs' and steps' are, from the engine's thread): none is made.
      Effect.withTracerEnabled(false),
      // Serve hands it to the engine's thread, where the steps run.
      Effect.provideService(FilePolicy.FilePolicy, filePolicy),
      Effect.provide(Connections.layer(connections).pipe(Layer.provide(limiters)))
    )
  }).pipe(Effect.scoped)

/**
 * `sample`: prints sample events of the workflow's trigger, read now from the provider (its
 * most recent matching records), as a JSON array of `{id, output}`; nothing is enabled or run.
 *
 * @since 0.2.0
 * @category commands
 */
export const sample = (args: {
  readonly workflow: string
  readonly inputs: ReadonlyMap<string, string>
  readonly source: ConnectionSource.ConnectionSource
}): Effect.Effect<void, Errors.RunnerError, Needs> =>
  Effect.gen(function*() {
    const output = yield* Output
    const workflow = yield* WorkflowFiles.loadWorkflow(args.workflow, args.inputs)
    const trigger = workflow.trigger
    if (trigger === undefined) return yield* new Errors.InvalidArguments({ message: `${args.workflow} has no trigger to sample` })
    const { connections } = yield* ConnectionSource.connect(args.source, [trigger.component])
    const { executor } = yield* Components
    const events = yield* Effect.either(executor.sample(trigger.prepared).pipe(Effect.provide(Connections.layer(connections))))
    if (Either.isLeft(events)) {
      const message = `${events.left._tag}: ${events.left.message}`
      return yield* events.left._tag === "InvalidInput" ? new Errors.InvalidArguments({ message }) : new Errors.StepFailed({ message })
    }
    yield* output.err(`${events.right.length} sample event${events.right.length === 1 ? "" : "s"} of ${trigger.step.type}`)
    yield* output.out(JSON.stringify(events.right, null, 2))
  }).pipe(Effect.scoped)

/**
 * `connect`: the OAuth2 flow of a component, storing the token in the connections file, then
 * testing it; with `test`, the test of the connection as configured, writing nothing.
 *
 * @since 0.2.0
 * @category commands
 */
export const connect = (args: {
  readonly component: string
  readonly connections: Option.Option<string>
  readonly appUrl: string
  readonly test?: boolean
  readonly sandbox?: boolean
}) =>
  args.sandbox === true && args.test !== true
    ? Effect.fail(new Errors.InvalidArguments({ message: "connect --sandbox tests the simulators' connection: add --test (there is nothing to connect)" }))
    : Effect.flatMap(Effect.promise(() => import("./Connect.js")), (Connect) =>
      args.test === true
        ? Connect.test(args.component, { sandbox: args.sandbox === true, file: args.connections })
        : Connect.connect(args.component, Option.getOrElse(args.connections, () => "connections.json"), args.appUrl))

/**
 * `runs`, `runs show`, `runs retry`: the history `serve` keeps (loaded with the database).
 *
 * @since 0.3.0
 * @category commands
 */
export const runsList = (args: Parameters<typeof import("./Runs.js").list>[0]) =>
  Effect.flatMap(Effect.promise(() => import("./Runs.js")), (Runs) => Runs.list(args))

/**
 * @since 0.3.0
 * @category commands
 */
export const runsShow = (args: Parameters<typeof import("./Runs.js").show>[0]) =>
  Effect.flatMap(Effect.promise(() => import("./Runs.js")), (Runs) => Runs.show(args))

/**
 * @since 0.3.0
 * @category commands
 */
export const runsRetry = (args: Parameters<typeof import("./Runs.js").retry>[0]) =>
  Effect.flatMap(Effect.promise(() => import("./Runs.js")), (Runs) => Runs.retry(args))
