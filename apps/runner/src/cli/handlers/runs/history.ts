/**
 * `x-runner runs`: the history `serve` keeps in its database. `runs` lists runs (newest first:
 * status, trigger event, when started, how long, the failed task), `runs show <id>` a run's
 * event and each task's input, output and error by its path (secret parameters never stored),
 * `runs retry <id>` sends a failed run back to the engine (its tasks that succeeded keep their
 * outputs, the others run again; with `--done <step>`, that `unknown` step marked done first, as
 * the runs page does: `RunActions`): a serving runner picks it up within a second, or the next one started.
 *
 * @since 0.3.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Database from "../../../store/Database.js"
import { InvalidArguments, ServeProblem, StepFailed } from "../../../Errors.js"
import { Output } from "../../../Output.js"
import * as RunStore from "../../../store/RunStore.js"
import * as RunActions from "../../../runs/RunActions.js"
import * as Layers from "../../internal/layers.js"

/**
 * The statuses `--status` takes.
 *
 * @since 0.3.0
 * @category constants
 */
export const statuses: ReadonlyArray<RunStore.RunStatus> = ["accepted", "running", "succeeded", "failed", "unknown"]

/** The store at the location; `None` when an embedded database was never created there. */
const withStore = <A, E, R>(location: Database.Location, use: (store: RunStore.RunStore) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    if (location._tag === "Embedded") {
      const fs = yield* FileSystem.FileSystem
      const file = (yield* Path.Path).join(location.dataDir, "runs.db")
      if (!(yield* Effect.orElseSucceed(fs.exists(file), () => false))) return Option.none<A>()
    }
    const layer = RunStore.layer.pipe(Layer.provide(Database.layer(location)))
    // A store that fails (opening it, or reading: a row it cannot decode) is said, exit 2.
    const said = <X>(error: X) => error instanceof RunStore.StoreFailed ? new ServeProblem({ message: error.message }) : error as Exclude<X, RunStore.StoreFailed>
    return Option.some(yield* Effect.flatMap(RunStore.RunStore, use).pipe(
      Effect.mapError(said),
      Effect.provide(Layer.mapError(layer, said))
    ))
  })

const where = (location: Database.Location) => location._tag === "Embedded" ? location.dataDir : "the database"

const time = (millis: number | undefined) => millis === undefined ? "-" : new Date(millis).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z")
const duration = (run: RunStore.Run) => {
  const ms = RunStore.durationMs(run)
  return ms === undefined ? "-" : `${ms} ms`
}

/** A table of rows, each column as wide as its widest cell. */
const table = (rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n")
}

const asJson = (run: RunStore.Run) => ({
  id: run.id,
  workflow: run.workflow,
  event: run.eventId,
  status: run.status,
  attempt: run.attempt,
  acceptedAt: run.acceptedAt,
  startedAt: run.startedAt ?? null,
  finishedAt: run.finishedAt ?? null,
  durationMs: RunStore.durationMs(run) ?? null,
  failedStep: run.failedStep ?? null,
  runner: run.runner ?? null,
  origin: run.origin,
  ...(run.file === undefined ? {} : { file: run.file })
})

/**
 * `runs`: lists runs, newest first.
 *
 * @since 0.3.0
 * @category commands
 */
export const list = (args: {
  readonly location: Database.Location
  readonly status: RunStore.RunStatus | undefined
  readonly workflow: string | undefined
  readonly limit: number
  readonly json: boolean
}) =>
  Effect.gen(function*() {
    const output = yield* Output
    if (!(args.limit >= 1)) return yield* new InvalidArguments({ message: `--limit ${args.limit}: at least 1` })
    const found = yield* withStore(args.location, (store) => store.list(args))
    const runs = Option.getOrElse(found, () => [])
    if (args.json) return yield* output.out(JSON.stringify(runs.map(asJson), null, 2))
    if (runs.length === 0) return yield* output.err(`no runs in ${where(args.location)}`)
    yield* output.out(table([
      ["RUN", "STATUS", "WORKFLOW", "EVENT", "STARTED", "DURATION", "FAILED STEP"],
      ...runs.map((run) => [run.id, run.status, run.workflow, run.eventId, time(run.startedAt), duration(run), run.failedStep ?? ""])
    ]))
  })

const notFound = (runId: string, location: Database.Location) =>
  new InvalidArguments({ message: `no run ${runId} in ${where(location)} (x-runner runs lists them)` })

/**
 * `runs show <id>`: a run, its event and its steps.
 *
 * @since 0.3.0
 * @category commands
 */
export const show = (args: { readonly location: Database.Location; readonly runId: string; readonly json: boolean }) =>
  Effect.gen(function*() {
    const output = yield* Output
    const found = Option.flatten(yield* withStore(args.location, (store) => store.show(args.runId)))
    if (Option.isNone(found)) return yield* notFound(args.runId, args.location)
    const { event, run, steps } = found.value
    if (args.json) {
      return yield* output.out(JSON.stringify({ ...asJson(run), trigger: event, steps }, null, 2))
    }
    yield* output.out(`run ${run.id}: ${run.status}${run.attempt > 0 ? ` (attempt ${run.attempt + 1})` : ""}`)
    yield* output.out(`workflow ${run.workflow}, event ${run.eventId}${run.runner === undefined ? "" : `, on runner ${run.runner}`}`)
    yield* output.out(`accepted ${time(run.acceptedAt)}, started ${time(run.startedAt)}, finished ${time(run.finishedAt)}, ${duration(run)}`)
    yield* output.out(`\ntrigger event:\n${JSON.stringify(event, null, 2)}`)
    for (const step of steps) {
      const attempts = step.attempts !== undefined && step.attempts > 1 ? `, ${step.attempts} attempts` : ""
      yield* output.out(`\n${step.path} (${step.type}): ${step.status}${step.durationMs === undefined ? "" : ` in ${step.durationMs} ms`}${attempts}`)
      if (step.input !== undefined) yield* output.out(`input: ${JSON.stringify(step.input, null, 2)}`)
      if (step.output !== undefined) yield* output.out(`output: ${JSON.stringify(step.output, null, 2)}`)
      if (step.error !== undefined) yield* output.out(`error: ${step.error.tag}: ${step.error.message}`)
    }
  })

/**
 * A failed run of `x-runner run`, run again in this process on what the command line gives again
 * (its workflow file, `--sandbox`, `--connections`, `--files-dir`, `--allow-private-networks`,
 * `--input`), each checked against what the record says it ran with, and recorded as its next
 * attempt: the tasks that succeeded are kept, the others run. Only `withoutRateLimits` is the
 * record's (a row can only make a retry fail with it: a connection source refuses it off the
 * sandbox and loopback).
 */
const runAgain = (run: RunStore.Run, args: Parameters<typeof retry>[0]) =>
  Effect.gen(function*() {
    if (run.file === undefined || run.rerun === undefined || run.rerun.fileDigest === undefined) {
      return yield* new InvalidArguments({ message: `run ${run.id} was recorded before x-runner kept how it was run: run it again with x-runner run` })
    }
    const { rerun } = run
    if (run.status !== "failed" && run.status !== "unknown") {
      return yield* new StepFailed({ message: `run ${run.id} is ${run.status}: only a failed or unknown run is retried` })
    }
    // Which workflow runs, whether on the simulators or on real accounts, what reaches internal
    // addresses, which credentials are read and which directory files are read from and written
    // to are the operator's to say each time: a row in a shared database must not choose them.
    if (args.workflow === undefined) {
      return yield* new InvalidArguments({
        message: `run ${run.id} is a run of x-runner run: give its workflow file again (x-runner runs retry ${run.id} <workflow file>; ` +
          `x-runner runs show ${run.id} --output json gives it): a retry does not take it from the store`
      })
    }
    if (!rerun.sandbox && args.sandbox === true) {
      return yield* new InvalidArguments({ message: `run ${run.id} ran on real connections, not the sandbox: --sandbox would not run it as it ran` })
    }
    const unsaid = [
      rerun.sandbox && args.sandbox !== true ? "--sandbox" : undefined,
      rerun.allowPrivateNetworks && args.allowPrivateNetworks !== true ? "--allow-private-networks" : undefined,
      rerun.connections !== undefined && args.connections === undefined ? "--connections" : undefined,
      rerun.filesDir !== undefined && args.filesDir === undefined ? "--files-dir" : undefined
    ].filter((option) => option !== undefined)
    if (unsaid.length > 0) {
      return yield* new InvalidArguments({
        message: `run ${run.id} was run with ${unsaid.join(", ")}: a retry does not take ${unsaid.length === 1 ? "it" : "them"} from the store; give ${
          unsaid.length === 1 ? "it" : "them"
        } again`
      })
    }
    const [Run, Components] = yield* Effect.promise(() => Promise.all([import("../run.js"), import("../../../components/Components.js")]))
    // Another workflow (or this one changed) is refused before it is read, connected or served;
    // the run's record checks it again as the run is taken up.
    if ((yield* Run.fileDigest(args.workflow)) !== rerun.fileDigest) {
      return yield* new InvalidArguments({
        message: `${args.workflow} is not the workflow run ${run.id} ran (it changed since, or cannot be read): run it anew with x-runner run`
      })
    }
    return yield* Run.run({
      workflow: args.workflow,
      inputs: args.inputs,
      source: { sandbox: args.sandbox === true, file: Option.fromNullable(args.connections), withoutRateLimits: rerun.withoutRateLimits },
      files: { filesDir: Option.fromNullable(args.filesDir), allowPrivateNetworks: args.allowPrivateNetworks === true },
      json: false,
      history: args.where,
      retrying: run.id
    }).pipe(Effect.provide(Layer.merge(Components.layer({ rateLimits: !rerun.withoutRateLimits }), Layers.http)))
  })

/**
 * `runs retry <id>`: a failed (or unknown) run back to the engine: what succeeded is kept, the
 * rest runs again (`RunActions`, as the runs page does). With `done`, an `unknown` step is first
 * marked done with the output it had at the provider.
 *
 * @since 0.3.0
 * @category commands
 */
export const retry = (args: {
  readonly location: Database.Location
  readonly runId: string
  /** The workflow file a run of `x-runner run` ran, given again (never taken from the store). */
  readonly workflow?: string | undefined
  /** Where the store is, as given (a run of `x-runner run` is run again here, and recorded there). */
  readonly where: { readonly dataDir: string; readonly database: string | undefined }
  /** The `--input` values a run of `x-runner run` was given, given again. */
  readonly inputs: ReadonlyMap<string, string>
  /** `--done <step path>`, and `--done-output <json>` (its text: checked here before anything is written). */
  readonly done?: { readonly path: string; readonly output: string | undefined } | undefined
  /** `--allow-private-networks`, given again for a run of `x-runner run` that had it (never taken from the store). */
  readonly allowPrivateNetworks?: boolean | undefined
  /** `--connections`, given again for a run of `x-runner run` that had it (never taken from the store). */
  readonly connections?: string | undefined
  /** `--files-dir`, given again for a run of `x-runner run` that had it (never taken from the store). */
  readonly filesDir?: string | undefined
  /** `--sandbox`, given again for a run of `x-runner run` that ran on it (never taken from the store). */
  readonly sandbox?: boolean | undefined
}) =>
  Effect.gen(function*() {
    const output = yield* Output
    const done = args.done === undefined ? undefined : { path: args.done.path, output: yield* doneOutput(args.done.output) }
    if (done !== undefined && args.inputs.size > 0) {
      return yield* new InvalidArguments({ message: "--done is for a run of serve, --input for a run of x-runner run: give one of them" })
    }
    const refused = (error: RunActions.Refused) => {
      switch (error._tag) {
        case "RunNotFound":
          return Effect.fail(notFound(args.runId, args.location))
        case "NotRetryable":
          return Effect.fail(new StepFailed({ message: error.message }))
        case "StepNotUnknown":
          return Effect.fail(new InvalidArguments({ message: error.message }))
        case "RetryHere":
          return done === undefined
            ? runAgain(error.run, args)
            : Effect.fail(doneForServe(args.runId))
      }
    }
    // A workflow file, --input, --allow-private-networks, --connections, --files-dir and --sandbox are a run of `x-runner run`'s: which run it is, is read before anything is written.
    const runOptions = [
      args.workflow !== undefined ? "a workflow file" : undefined,
      args.inputs.size > 0 ? "--input" : undefined,
      args.allowPrivateNetworks === true ? "--allow-private-networks" : undefined,
      args.connections !== undefined ? "--connections" : undefined,
      args.filesDir !== undefined ? "--files-dir" : undefined,
      args.sandbox === true ? "--sandbox" : undefined
    ].filter((option) => option !== undefined)
    if (runOptions.length > 0) {
      const recorded = Option.flatten(yield* withStore(args.location, (store) => store.show(args.runId)))
      if (Option.isNone(recorded)) return yield* notFound(args.runId, args.location)
      if (recorded.value.run.origin === "run") {
        return yield* done === undefined
          ? runAgain(recorded.value.run, args)
          : doneForServe(args.runId)
      }
      return yield* new InvalidArguments({
        message: `${runOptions.join(", ")} ${runOptions.length === 1 ? "is" : "are"} for a run of x-runner run: run ${args.runId} runs as its serving runner was started`
      })
    }
    const acted = yield* withStore(args.location, (store) =>
      (done === undefined ? RunActions.retry(store, args.runId) : RunActions.markDone(store, args.runId, done.path, done.output)).pipe(
        Effect.map(Either.right),
        Effect.catchIf(RunActions.isRefused, (error) => Effect.succeed(Either.left(error)))
      ))
    if (Option.isNone(acted)) return yield* notFound(args.runId, args.location)
    if (acted.value._tag === "Left") return yield* refused(acted.value.left)
    const run = acted.value.right
    if (done !== undefined) yield* output.err(`✔ step ${done.path} of run ${run.id} is marked done, with the output given`)
    yield* output.err(
      `↻ run ${run.id} goes back to the engine (attempt ${run.attempt + 1}): its tasks that succeeded keep their outputs, the others run again; ` +
        `a serving runner picks it up, or the next one started`
    )
  })

/** `--done` given for a run of `x-runner run`. */
const doneForServe = (runId: string) =>
  new InvalidArguments({ message: `run ${runId} is a run of x-runner run: --done is for a run of serve; x-runner runs retry ${runId} <workflow file> runs it again here` })

/** `--done-output`'s JSON (null when left out: the step's output is not known). */
const doneOutput = (text: string | undefined) =>
  text === undefined ? Effect.succeed(null as unknown) : Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (error) => new InvalidArguments({ message: `--done-output is not JSON (${error instanceof Error ? error.message : String(error)}): nothing was changed` })
  })
