/**
 * `x-runner run`: the tasks of a workflow in order, stopping at the first failed step; with
 * `--serve` (on the sandbox), a trigger workflow served in the same process meanwhile. The run
 * is recorded in the runs' store `serve` keeps (unless `--no-history`), so `x-runner runs show`
 * explains it.
 *
 * @since 0.2.0
 */
import * as Path from "@effect/platform/Path"
import * as FileSystem from "@effect/platform/FileSystem"
import { Connections, FilePolicy } from "@x/core"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash, randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { Components } from "../../components/Components.js"
import * as ConnectionSource from "../../components/ConnectionSource.js"
import type * as ConnectionValues from "../../components/ConnectionValues.js"
import * as FileAccess from "../../components/FileAccess.js"
import type * as Interpreter from "../../engine/Interpreter.js"
import * as Run from "../../engine/Run.js"
import * as Errors from "../../Errors.js"
import type * as Database from "../../store/Database.js"
import type * as RunStore from "../../store/RunStore.js"
import { Output } from "../../Output.js"
import * as WorkflowFiles from "../../workflow/WorkflowFiles.js"
import * as Workflow from "../../workflow/Workflow.js"
import {
  type Needs,
} from "../internal/shared.js"
import { checkWithConnections, noFlags } from "../internal/checks.js"

/** What a task's result is in `--output json`: a plain top-level action keeps the fields of a step (its key and attempts when they say more). */
const jsonOf = (result: Interpreter.TaskResult): unknown => {
  const { attempts, durationMs: _, input: __, iterations, key, kind, tasks, ...rest } = result
  return {
    ...rest,
    ...(kind === "action" ? {} : { kind }),
    ...(key === result.name ? {} : { key }),
    ...(attempts === undefined || attempts <= 1 ? {} : { attempts }),
    ...(tasks === undefined ? {} : { tasks: tasks.map(jsonOf) }),
    ...(iterations === undefined ? {} : { iterations: iterations.map((iteration) => ({ ...iteration, tasks: iteration.tasks.map(jsonOf) })) })
  }
}

/** `run`'s progress on stderr: each task's line, indented by its depth in groups, loops and calls. */
const progress = (say: (text: string) => Effect.Effect<void>): Interpreter.Reporter => {
  const indent = (depth: number) => "  ".repeat(depth + 1)
  return {
    // A task in a group or a loop is named by its key (`reminded[3].comment`): iterations run at once.
    started: (task, key, depth) =>
      say(`${indent(depth)}${
        task.kind === "action"
          ? `… ${key} (${task.step.type})`
          : task.kind === "group"
          ? `▸ ${key} (group)`
          : task.kind === "loop"
          ? `↻ ${key} (loop)`
          : task.kind === "call"
          ? `▸ ${key} (calls ${task.file})`
          : `… ${key} (wait)`
      }`),
    finished: (result, depth) => say(`${indent(depth)}${Run.stepLine({ ...result, name: result.key })}`),
    iteration: (_loop, _key, index, of, depth) => say(`${indent(depth)}iteration ${index} of ${of}`),
    retrying: (task, _key, attempt, of, after, depth) =>
      say(`${indent(depth)}↻ ${task.name}: attempt ${attempt} of ${of} after ${Duration.format(after)}`)
  }
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
  readonly inputs: ReadonlyMap<string, unknown>
  readonly source: ConnectionSource.ConnectionSource
  readonly json: boolean
  readonly serve?: Option.Option<string>
  /** With `serve`: how long to wait, after the tasks, for the trigger's first event to have run (default 15 seconds). */
  readonly serveWait?: Option.Option<string>
  readonly files?: FileAccess.Flags | undefined
  /** Where the run is recorded (`--data-dir`, `--database`); none with `--no-history`. */
  readonly history?: Where | undefined
  /** The id of a failed run `run` recorded, run again (`runs retry`): its tasks that succeeded are kept. */
  readonly retrying?: string | undefined
  /**
   * Connections already open, and their file policy (`x-runner mcp`'s, shared by its tools and
   * their rate limiters): used instead of connecting from `source`, which then only says how
   * the run was run.
   */
  readonly connected?: {
    readonly connections: ConnectionValues.ConnectionValues
    readonly opened: Context.Context<Connections.Connections>
    readonly filePolicy: FilePolicy.Policy
  } | undefined
}): Effect.Effect<void, Errors.RunnerError, Needs | Path.Path> =>
  Effect.gen(function*() {
    const output = yield* Output
    const { executor } = yield* Components
    const workflow = yield* WorkflowFiles.loadWorkflow(args.workflow, args.inputs)
    const serveFile = Option.getOrUndefined(args.serve ?? Option.none())
    const triggered = serveFile === undefined ? undefined : yield* loadTriggerWorkflow(serveFile, args.source)
    if (serveFile === undefined && Option.isSome(args.serveWait ?? Option.none())) {
      return yield* new Errors.InvalidArguments({ message: "--serve-wait needs --serve: it is how long the run waits for the served trigger" })
    }
    const firedWithin = yield* serveWaitOf(args.serveWait)
    const { connections, named } = args.connected !== undefined ? { connections: args.connected.connections, named: [] } : yield* ConnectionSource.connect(args.source, [
      ...Workflow.connectionsOf(workflow),
      ...(triggered === undefined ? [] : Workflow.connectionsOf(triggered))
    ])
    yield* checkWithConnections(args.workflow, workflow, connections)
    if (triggered !== undefined) yield* checkWithConnections(serveFile!, triggered, connections)
    const filePolicy = args.connected?.filePolicy ?? (yield* FileAccess.policy("run", args.files ?? noFlags, connections))
    const pretty = (text: string) => args.json ? Effect.void : output.err(text)
    // One set of opened connections (one rate limiter per token) for the run and the trigger.
    const opened = args.connected?.opened ?? (yield* Layer.build(Connections.layer(connections)))
    const served = triggered === undefined
      ? undefined
      : yield* Effect.flatMap(Effect.promise(() => import("../../serve/ServeAlongside.js")), (ServeAlongside) =>
        ServeAlongside.start({ workflow: triggered, file: serveFile!, connections, rateLimits: !args.source.withoutRateLimits, opened }).pipe(
          Effect.provideService(FilePolicy.FilePolicy, filePolicy)
        ))
    // A deprecated action still runs; each run says so once, on stderr (never in the outputs).
    for (const warning of new Set([...Workflow.deprecations(workflow), ...(triggered === undefined ? [] : Workflow.deprecations(triggered))])) {
      yield* output.err(warning)
    }
    yield* pretty(`▶ ${workflow.label}${args.source.sandbox ? " (sandbox)" : ""}`)
    for (const line of named) yield* pretty(`  sandbox: ${line}`)
    const path = yield* Path.Path
    const files = args.files ?? noFlags
    const record = args.history === undefined ? undefined : yield* recording(args.history, {
      workflow: WorkflowFiles.workflowName(path, args.workflow),
      file: path.resolve(args.workflow),
      rerun: {
        fileDigest: yield* fileDigest(args.workflow),
        sandbox: args.source.sandbox,
        ...Option.match(args.source.file, { onNone: () => ({}), onSome: (file) => ({ connections: path.resolve(file) }) }),
        withoutRateLimits: args.source.withoutRateLimits,
        ...Option.match(files.filesDir, { onNone: () => ({}), onSome: (dir) => ({ filesDir: path.resolve(dir) }) }),
        allowPrivateNetworks: files.allowPrivateNetworks,
        inputNames: [...args.inputs.keys()].sort()
      }
    }, args.inputs, args.retrying, output.err)
    const reporter = progress(pretty)
    const result = yield* Run.run(executor, workflow, record === undefined ? reporter : {
      ...reporter,
      finished: (task, depth) => Effect.zipRight(reporter.finished(task, depth), record.task(task))
    }, undefined, record?.kept).pipe(Effect.provide(opened), Effect.provideService(FilePolicy.FilePolicy, filePolicy))
    const runId = record === undefined ? undefined : yield* record.end(result)
    // The first event the trigger fired (during the run, or just after it), and its run.
    const fired = served === undefined ? undefined : yield* served.next(firedWithin)
    if (served !== undefined) yield* served.stop
    const trigger = served === undefined || fired === undefined ? undefined : Option.match(fired, {
      onNone: () => ({ type: served.type, event: null, status: "failed" as const, steps: [] as ReadonlyArray<Interpreter.TaskResult> }),
      onSome: ({ event, result }) => ({ type: served.type, event: event.id, status: result.status, steps: result.tasks })
    })
    const status = result.status === "failed" || trigger?.status === "failed" ? "failed" : "succeeded"
    if (args.json) {
      yield* output.out(JSON.stringify({
        status,
        ...(runId === undefined ? {} : { runId }),
        steps: result.tasks.map(jsonOf),
        ...(result.failure === undefined ? {} : { failure: result.failure }),
        ...(result.onFailure === undefined ? {} : { onFailure: result.onFailure.map(jsonOf) }),
        ...(trigger === undefined ? {} : { trigger: { ...trigger, steps: trigger.steps.map(jsonOf) } })
      }))
    } else {
      const print = (steps: ReadonlyArray<Interpreter.TaskResult>) =>
        Effect.forEach(steps, (step) =>
          Effect.gen(function*() {
            yield* output.out(`\n${step.key} (${step.type ?? step.kind}): ${step.status}`)
            if (step.output !== undefined) yield* output.out(JSON.stringify(step.output, null, 2))
            if (step.error !== undefined) yield* output.out(`${step.error.tag}: ${step.error.message}`)
          }), { discard: true })
      yield* output.out(`${workflow.label}: ${result.status}`)
      yield* print(result.tasks)
      if (result.onFailure !== undefined) {
        yield* output.out(`\nonFailure (${result.failure!.path} failed):`)
        yield* print(result.onFailure)
      }
      if (trigger !== undefined) {
        yield* output.out(
          trigger.event === null
            ? `\n${triggered!.label}: ${trigger.type} fired no event within ${Duration.format(firedWithin)}`
            : `\n${triggered!.label}: ${trigger.type} fired (event ${trigger.event}), its run ${trigger.status}`
        )
        yield* print(trigger.steps)
      }
    }
    if (runId !== undefined) yield* pretty(`↳ recorded as run ${runId}: x-runner runs show ${runId}`)
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

/** How long `run --serve` waits, after its tasks, for the trigger's first event to have run (`--serve-wait`, else 15 s). */
const serveWaitOf = (given: Option.Option<string> | undefined) =>
  Effect.gen(function*() {
    const text = Option.getOrUndefined(given ?? Option.none())
    if (text === undefined) return Duration.seconds(15)
    const wait = Option.getOrUndefined(Duration.decodeUnknown(text))
    if (wait === undefined || !Duration.greaterThan(wait, Duration.zero)) {
      return yield* new Errors.InvalidArguments({ message: `--serve-wait ${text}: not a positive duration such as "15 seconds"` })
    }
    return wait
  })

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

/** Where a run is recorded: `--data-dir` or `--database`. */
interface Where {
  readonly dataDir: string
  readonly database: string | undefined
}

/**
 * The workflow file's SHA-256 (a retry runs the file that ran, not one changed since); none when it cannot be read again.
 *
 * @since 0.13.0
 * @category utils
 */
export const fileDigest = (file: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFile(file)).pipe(
    Effect.map((bytes) => createHash("sha256").update(bytes).digest("hex")),
    Effect.orElseSucceed(() => undefined)
  )

/** A salted digest of the `--input` values (the values themselves are never stored: they may be secret). */
const inputsDigest = (salt: string, inputs: ReadonlyMap<string, unknown>) =>
  createHash("sha256").update(salt).update(JSON.stringify([...inputs].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))).digest("hex")

/**
 * The run's record in the runs' store: started as it starts, each task's row as it ends, its
 * end. A new run's record is best effort: the store's problems do not stop the run, they are
 * said once and the rest of the record is left out. A retry (`runs retry` of a run `run`
 * recorded) needs its record: it is refused unless the run failed, was run by `run`, and is
 * given the same `--input` values; it keeps the tasks that succeeded.
 */
const recording = (
  where: Where,
  run: { readonly workflow: string; readonly file: string; readonly rerun: Omit<RunStore.Rerun, "inputsSalt" | "inputsDigest"> },
  inputs: ReadonlyMap<string, unknown>,
  retrying: string | undefined,
  say: (line: string) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    let failed = false
    const saidOnce = (why: string) => failed ? Effect.void : Effect.zipRight(Effect.sync(() => void (failed = true)), say(`⚠ the run is not recorded (${why})`))
    const unrecorded = (why: string) =>
      retrying === undefined
        ? Effect.as(saidOnce(why), undefined)
        : Effect.fail(new Errors.ServeProblem({ message: `run ${retrying} cannot be run again: ${why}` }))
    // The embedded database's driver is the package's one native dependency: a machine where it
    // could not be installed still runs workflows, unrecorded.
    const modules = yield* Effect.either(Effect.tryPromise(() => Promise.all([import("../../store/Database.js"), import("../../store/RunStore.js")])))
    if (modules._tag === "Left") {
      const missing = /Cannot find (package|module) '([^']+)'/.exec(String((modules.left.error as { message?: string }).message))
      return yield* unrecorded(missing === null ? "the runs' database cannot be loaded" : `${missing[2]} is not installed here`)
    }
    const [Databases, RunStores] = modules.right
    const location: Database.Location = yield* Databases.locateDatabase(where.database ?? process.env["XRUNNER_DATABASE"], where.dataDir)
    const runner = `run:${hostname()}:${process.pid}`
    // Open for as long as the command runs (its scope).
    const opened = yield* Effect.either(Layer.build(RunStores.layer.pipe(Layer.provide(Databases.layer(location)))))
    if (opened._tag === "Left") return yield* unrecorded(String((opened.left as { message?: string }).message ?? opened.left))
    const store: RunStore.RunStore = Context.get(opened.right, RunStores.RunStore)
    const begun = retrying === undefined
      ? Effect.map(Effect.suspend(() => {
        const inputsSalt = randomBytes(16).toString("hex")
        return store.recordStarted({ ...run, runner, rerun: { ...run.rerun, inputsSalt, inputsDigest: inputsDigest(inputsSalt, inputs) } })
      }), (runId) => ({ runId, attempt: 0, kept: new Map<string, RunStore.Step>() }))
      : Effect.gen(function*() {
        const shown = yield* store.show(retrying)
        if (Option.isNone(shown)) return yield* new Errors.InvalidArguments({ message: `no run ${retrying} (x-runner runs lists them)` })
        const { rerun, status } = shown.value.run
        if (status !== "failed" && status !== "unknown") {
          return yield* new Errors.StepFailed({ message: `run ${retrying} is ${status}: only a failed or unknown run is retried` })
        }
        if (rerun === undefined || rerun.fileDigest === undefined) {
          return yield* new Errors.InvalidArguments({ message: `run ${retrying} was recorded before x-runner kept how it was run: run it again with x-runner run` })
        }
        // The store says which file ran, not what it held: a file changed since is not that run's.
        if (run.rerun.fileDigest !== rerun.fileDigest) {
          return yield* new Errors.InvalidArguments({
            message: `${run.file} is not the workflow run ${retrying} ran (it changed since, or cannot be read): run it anew with x-runner run`
          })
        }
        if (inputsDigest(rerun.inputsSalt, inputs) !== rerun.inputsDigest) {
          return yield* new Errors.InvalidArguments({
            message: `run ${retrying} was given ${rerun.inputNames.length === 0 ? "no --input" : `--input ${rerun.inputNames.join(", ")}`}: ` +
              "give the same values again (x-runner keeps no input's value)"
          })
        }
        const retried = yield* store.retryHere(retrying, runner)
        if (Option.isNone(retried)) return yield* new Errors.StepFailed({ message: `run ${retrying} is being run again by another process` })
        yield* say(`↻ run ${retrying} runs again here (attempt ${retried.value.run.attempt + 1}), as x-runner run ran ${run.file}: its tasks that succeeded keep their outputs`)
        return { runId: retrying, attempt: retried.value.run.attempt, kept: retried.value.steps }
      })
    const started = yield* Effect.either(begun)
    if (started._tag === "Left") {
      const error = started.left
      return yield* error._tag === "StoreFailed" ? unrecorded(error.message) : Effect.fail(error)
    }
    const { attempt, kept: before, runId } = started.right
    const kept = <E extends { readonly message: string }>(effect: Effect.Effect<unknown, E>) =>
      Effect.catchAll(Effect.asVoid(effect), (error) => saidOnce(error.message))
    return {
      kept: before,
      task: (result: Interpreter.TaskResult) => failed ? Effect.void : kept(store.stepFinished(runId, Run.rowOf(result, Date.now()))),
      end: (result: Interpreter.RunResult) =>
        Effect.as(
          failed ? Effect.void : kept(store.runFinished(runId, attempt, result.status, result.failure?.path)),
          runId
        )
    }
  })
