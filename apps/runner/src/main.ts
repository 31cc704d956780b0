#!/usr/bin/env node
/**
 * x-runner: runs workflow files on the connector packages.
 *
 *   x-runner run <workflow.json> [--connections FILE] [--sandbox [--without-rate-limits]] [--input k=v]… [--output pretty|json]
 *   x-runner serve <workflow.json> --public-url URL [--port N] [--data-dir DIR] [--connections FILE] [--sandbox [--without-rate-limits]]
 *   x-runner describe [type]
 *   x-runner options <type> <property> [--param k=v]… [--connections FILE] [--sandbox]
 *   x-runner connect sitebuilder [--connections FILE] [--app-url URL]
 *
 * Exit codes: 0 every step succeeded, 1 a step failed, 2 an invalid workflow or arguments.
 */
import { Args, Command, Options } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Component } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { readFileSync } from "node:fs"
import { components, executor, executorWithoutRateLimits } from "./components.js"
import * as Connections from "./Connections.js"
import * as Run from "./Run.js"
import * as Workflow from "./Workflow.js"

/** A failure that ends the command with an exit code and a message for stderr. */
class Exit2 extends Error {}

const connectionsOption = Options.file("connections").pipe(
  Options.withDescription("A JSON file of connections, keyed by component name"),
  Options.optional
)
const sandboxOption = Options.boolean("sandbox").pipe(
  Options.withDescription("Run against the embedded simulators: no account or credential needed")
)

const withoutRateLimitsOption = Options.boolean("without-rate-limits").pipe(
  Options.withDescription("With --sandbox: neither the simulators nor the runner keep to the providers' rate limits (for load tests)")
)

/** The HttpClient the packages run on, without a tracer (nothing exports spans). */
const http = Layer.merge(UndiciHttpClient.layer, Layer.setTracerEnabled(false))

// Serving, connecting and the sandbox load HTTP servers and the simulators: imported when a
// command needs them, so that `describe`, `options` and `run` start fast.
const loadServe = Effect.promise(() => import("./Serve.js"))
const loadConnect = Effect.promise(() => import("./Connect.js"))
const loadSandbox = Effect.promise(() => import("./Sandbox.js"))

/**
 * The connections to use (the sandbox's, or the file's and the environment's) and the executor
 * to run steps with.
 */
const setupFor = (useSandbox: boolean, file: Option.Option<string>, withoutRateLimits = false) => {
  if (withoutRateLimits && !useSandbox) {
    return Effect.fail(new Exit2("--without-rate-limits needs --sandbox: a real provider's rate limits are its own"))
  }
  return useSandbox
    ? Effect.flatMap(loadSandbox, ({ sandbox }) =>
      Effect.map(sandbox({ rateLimits: !withoutRateLimits }), (s) => ({
        connections: s.connections,
        executor: withoutRateLimits ? executorWithoutRateLimits() : executor
      })))
    : Effect.try({
      try: () => ({ connections: Connections.load(Option.getOrUndefined(file), process.env), executor }),
      catch: (error) => new Exit2((error as Error).message)
    })
}

/** The `--input k=v` values. */
const inputsOf = (input: Option.Option<HashMap.HashMap<string, string>>): Record<string, unknown> =>
  Object.fromEntries(HashMap.toEntries(Option.getOrElse(input, () => HashMap.empty<string, string>())))

/**
 * Reads and checks a workflow. An invalid one is listed on stderr (and as one JSON document on
 * stdout with --output json) and gives undefined: exit 2, nothing run.
 */
const loadWorkflow = (file: string, given: Record<string, unknown>, json: boolean) =>
  Effect.gen(function*() {
    let text: string
    try {
      text = readFileSync(file, "utf8")
    } catch {
      return yield* Effect.fail(new Exit2(`the workflow ${file} cannot be read`))
    }
    const parsed = Workflow.parse(text, given)
    if (Either.isRight(parsed)) return parsed.right
    if (json) out(JSON.stringify({ status: "invalid", issues: parsed.left }))
    err(`${file} is not a valid workflow; nothing was run:`)
    for (const issue of parsed.left) err(`  ${issue.path === "" ? "(file)" : issue.path}: ${issue.message}`)
    return undefined
  })

const out = (text: string) => process.stdout.write(text.endsWith("\n") ? text : text + "\n")
const err = (text: string) => process.stderr.write(text.endsWith("\n") ? text : text + "\n")

// --- run -----------------------------------------------------------------------------------

const run = Command.make(
  "run",
  {
    workflow: Args.text({ name: "workflow.json" }),
    connections: connectionsOption,
    sandbox: sandboxOption,
    withoutRateLimits: withoutRateLimitsOption,
    input: Options.keyValueMap("input").pipe(Options.withDescription("An input of the workflow, k=v"), Options.optional),
    output: Options.choice("output", ["pretty", "json"]).pipe(Options.withDefault("pretty" as const))
  },
  (args) => {
    const json = args.output === "json"
    return Effect.gen(function*() {
      const given = inputsOf(args.input)
      const workflow = yield* loadWorkflow(args.workflow, given, json)
      if (workflow === undefined) return 2
      const inputs: Record<string, unknown> = { ...workflow.inputs, ...given }
      const { connections, executor } = yield* setupFor(args.sandbox, args.connections, args.withoutRateLimits)
      const problems = Connections.check(connections, Workflow.componentsOf(workflow))
      if (problems.length > 0) return yield* Effect.fail(new Exit2(problems.join("\n")))
      if (!json) err(`▶ ${workflow.label}${args.sandbox ? " (sandbox)" : ""}`)
      const result = yield* Run.run(executor, workflow, connections, { inputs }, {
        started: (step) => {
          if (!json) err(`  … ${step.name} (${step.type})`)
        },
        finished: (step) => {
          if (json) return
          const mark = step.status === "succeeded" ? "✔" : step.status === "failed" ? "✘" : "–"
          err(`  ${mark} ${step.name} ${step.status}${step.durationMs === undefined ? "" : ` in ${step.durationMs} ms`}${
            step.error === undefined ? "" : `: ${step.error.tag}: ${step.error.message}`
          }`)
        }
      })
      if (json) {
        out(JSON.stringify({
          status: result.status,
          steps: result.steps.map(({ durationMs: _, ...step }) => step)
        }))
      } else {
        out(`${workflow.label}: ${result.status}`)
        for (const step of result.steps) {
          out(`\n${step.name} (${step.type}): ${step.status}`)
          if (step.output !== undefined) out(JSON.stringify(step.output, null, 2))
          if (step.error !== undefined) out(`${step.error.tag}: ${step.error.message}`)
        }
      }
      return result.status === "succeeded" ? 0 : 1
    }).pipe(
      // With --output json, every refusal is one JSON document too.
      Effect.catchIf((error): error is Exit2 => error instanceof Exit2 && json, (error) =>
        Effect.sync(() => {
          out(JSON.stringify({ status: "invalid", issues: error.message.split("\n").map((message) => ({ path: "", message })) }))
          err(error.message)
          return 2
        })),
      Effect.scoped,
      Effect.provide(http)
    )
  }
).pipe(Command.withDescription("Run a workflow's tasks in order, stopping at the first failed step"))

// --- describe ----------------------------------------------------------------------------------

const describe = Command.make(
  "describe",
  { type: Args.text({ name: "type" }).pipe(Args.optional) },
  ({ type }) =>
    Effect.gen(function*() {
      const wanted = Option.getOrUndefined(type)
      const all = components.map(Component.describe)
      const chosen = wanted === undefined ? all : all.filter((c) => c.type === wanted || c.name === wanted)
      if (chosen.length === 0) {
        return yield* Effect.fail(new Exit2(`unknown component "${wanted}"; available: ${all.map((c) => c.type).join(", ")}`))
      }
      out(JSON.stringify(wanted === undefined ? chosen : chosen[0], null, 2))
      return 0
    })
).pipe(Command.withDescription("Print the components' definitions as JSON"))

// --- options -----------------------------------------------------------------------------------

const options = Command.make(
  "options",
  {
    type: Args.text({ name: "type" }),
    property: Args.text({ name: "property" }),
    param: Options.keyValueMap("param").pipe(Options.optional),
    connections: connectionsOption,
    sandbox: sandboxOption
  },
  (args) =>
    Effect.gen(function*() {
      const params = inputsOf(args.param)
      const { connections, executor } = yield* setupFor(args.sandbox, args.connections)
      const component = args.type.split("/")[0]!
      const problems = Connections.check(connections, [component])
      if (problems.length > 0) return yield* Effect.fail(new Exit2(problems.join("\n")))
      const choices = yield* Effect.either(executor.options(args.type, args.property, params, connections[component]))
      if (Either.isLeft(choices)) {
        err(`${choices.left._tag}: ${choices.left.message}`)
        return choices.left._tag === "InvalidInput" ? 2 : 1
      }
      out(JSON.stringify(choices.right, null, 2))
      return 0
    }).pipe(Effect.scoped, Effect.provide(http))
).pipe(Command.withDescription("Load a dynamic option list, e.g. the lists of a board"))

// --- serve -------------------------------------------------------------------------------------

const serve = Command.make(
  "serve",
  {
    workflow: Args.text({ name: "workflow.json" }),
    publicUrl: Options.text("public-url").pipe(Options.withDescription("Where the provider sends deliveries")),
    port: Options.integer("port").pipe(Options.optional),
    dataDir: Options.directory("data-dir").pipe(Options.withDefault(".x-runner")),
    connections: connectionsOption,
    sandbox: sandboxOption,
    withoutRateLimits: withoutRateLimitsOption,
    input: Options.keyValueMap("input").pipe(Options.optional)
  },
  (args) =>
    Effect.gen(function*() {
      const given = inputsOf(args.input)
      const workflow = yield* loadWorkflow(args.workflow, given, false)
      if (workflow === undefined) return 2
      let publicUrl: URL
      try {
        publicUrl = new URL(args.publicUrl)
      } catch {
        return yield* Effect.fail(new Exit2(`--public-url ${args.publicUrl}: not a URL`))
      }
      const inputs: Record<string, unknown> = { ...workflow.inputs, ...given }
      const { connections, executor } = yield* setupFor(args.sandbox, args.connections, args.withoutRateLimits)
      const problems = Connections.check(connections, Workflow.componentsOf(workflow))
      if (problems.length > 0) return yield* Effect.fail(new Exit2(problems.join("\n")))
      if (args.sandbox) {
        const trello = connections["boardtool"]!
        err(`sandbox: Trello simulator at ${String(trello["baseUrl"])} (key ${String(trello["key"])}, token ${String(trello["token"])})`)
      }
      const Serve = yield* loadServe
      return yield* Serve.serve({
        executor,
        workflow,
        connections,
        inputs,
        publicUrl: publicUrl.toString(),
        port: Option.getOrElse(args.port, () => Number(publicUrl.port || 8080)),
        dataDir: args.dataDir,
        say: err
      }).pipe(Effect.catchAll((error) => Effect.fail(new Exit2(error.message))))
    }).pipe(Effect.scoped, Effect.provide(http))
).pipe(Command.withDescription("Enable the workflow's trigger and run its tasks for every event, until stopped"))

// --- connect -----------------------------------------------------------------------------------

const connect = Command.make(
  "connect",
  {
    component: Args.text({ name: "component" }),
    connections: Options.file("connections").pipe(Options.withDefault("connections.json")),
    appUrl: Options.text("app-url").pipe(Options.withDefault("http://127.0.0.1:3000"))
  },
  (args) =>
    Effect.flatMap(loadConnect, (Connect) =>
      Connect.connect(args.component, args.connections, args.appUrl, err).pipe(
        Effect.as(0),
        Effect.catchIf((error): error is InstanceType<typeof Connect.ConnectProblem> => error instanceof Connect.ConnectProblem, (error) =>
          Effect.fail(new Exit2(error.message)))
      )).pipe(Effect.provide(http))
).pipe(Command.withDescription("Connect an OAuth2 component: authorize, and store the token in the connections file"))

// --- main --------------------------------------------------------------------------------------

const cli = Command.run(
  Command.make("x-runner").pipe(Command.withSubcommands([run, serve, describe, options, connect])),
  { name: "x-runner", version: "0.1.0" }
)

const main = Effect.suspend(() => cli(process.argv)).pipe(
  Effect.map((code) => (typeof code === "number" ? code : 0)),
  Effect.catchAll((error) => {
    if (error instanceof Exit2) err(error.message)
    // Otherwise @effect/cli has printed what was wrong with the arguments.
    return Effect.succeed(2)
  }),
  // Anything else still says what happened, in one line.
  Effect.catchAllDefect((defect) =>
    Effect.sync(() => {
      err(`x-runner: ${defect instanceof Error ? defect.message : String(defect)}`)
      return 1
    })
  ),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(main, {
  disableErrorReporting: true,
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) && typeof exit.value === "number" ? exit.value : 1)
})
