/**
 * Which engine for the embedded default (issue 30): the runner's `SqlWorkflowEngine` beside
 * `@effect/cluster`'s `ClusterWorkflowEngine` on `SingleRunner`, both on a SQLite file, the same
 * workflow on each (engineRound.ts). Two shapes, one activity per run and five; each measured
 * in alternating rounds (ours first, then theirs first, …), every round a fresh process and
 * database warmed up first; the medians are compared. The rule of the issue: the cluster engine
 * within 2× of ours → one engine for both; otherwise two. Within 2× here is both at least half
 * our runs/s and at most twice our CPU a run, in every shape, as the runner sets SQLite: runs/s
 * are what a user sees, but on this shared 2-core machine the load moves them by ±50 % within a
 * round, while the CPU a run is the cost itself, which the load moves much less. The cluster engine is also measured with each commit flushed to disk
 * (`theirs-flushed`, one activity a run): ours flushes a step's result before its run goes on,
 * and the README promises it.
 */
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { EngineName, RoundResult } from "./engineRound.js"

const roundScript = fileURLToPath(new URL("./engineRound.js", import.meta.url))

/** An engine's medians on a shape. */
export interface EngineFigures {
  readonly perSecond: number
  readonly cpuMsPerRun: number
  readonly systemCpuMsPerRun: number
}

/** One shape measured: its rounds, each engine's medians, and theirs against ours. */
export interface EnginesShape {
  readonly steps: number
  readonly runs: number
  readonly rounds: ReadonlyArray<RoundResult>
  readonly medians: Partial<Record<EngineName, EngineFigures>>
  /** Theirs ÷ ours in runs/s (≥ 0.5: within 2×), and in CPU per run. */
  readonly throughputRatio: number
  readonly cpuRatio: number
  /** The same with each commit of theirs flushed (when measured). */
  readonly flushedThroughputRatio?: number | undefined
  readonly flushedCpuRatio?: number | undefined
  /** Every run of every round ended once, each activity executed once. */
  readonly complete: boolean
}

/** The figures of both shapes, and the rule's answer. */
export interface EnginesResult {
  readonly concurrency: number
  readonly warmUp: number
  readonly shapes: ReadonlyArray<EnginesShape>
  /** Within 2× in runs/s and in CPU a run, in every shape. */
  readonly withinTwice: boolean
}

/** A round that gave no figures: why. */
export const failed = (engine: EngineName, steps: number, runs: number, problem: string): RoundResult => ({
  engine,
  steps,
  runs,
  completed: 0,
  activityExecutions: 0,
  seconds: 0,
  perSecond: 0,
  cpuMsPerRun: 0,
  systemCpuMsPerRun: 0,
  problem
})

/** A round in a process of its own; one that does not answer within its limit is a hang, said so. */
const measure = (engine: EngineName, steps: number, runs: number, concurrency: number, warmUp: number) =>
  new Promise<RoundResult>((resolve) => {
    const child = fork(roundScript, [engine, String(steps), String(runs), String(concurrency), String(warmUp)], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
    const limitMs = (Number(process.env["BENCH_ENGINES_TIMEOUT"] ?? 300) + 60) * 1000
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve(failed(engine, steps, runs, `no answer within ${limitMs / 1000} s`))
    }, limitMs)
    child.once("message", (result: RoundResult) => {
      clearTimeout(timer)
      resolve(result)
    })
    // An answer sent just before the exit may be read after it: a moment's grace.
    child.once("exit", (code, signal) =>
      setTimeout(() => {
        clearTimeout(timer)
        resolve(failed(engine, steps, runs, `exited (${signal ?? code}) without an answer`))
      }, 500))
  })

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Theirs ÷ ours in runs/s within each round (its two measurements made one after the other). */
const perRound = (shape: EnginesShape) => {
  const ours = shape.rounds.filter((r) => r.engine === "ours")
  return shape.rounds.filter((r) => r.engine === "theirs").map((r, i) => `${(r.perSecond / ours[i]!.perSecond).toFixed(2)}×`)
}

/**
 * The engines on each shape: `rounds` alternating rounds of `runs` runs (after `warmUp` runs in
 * the same process), at serve's default concurrency (32).
 */
export const enginesBench = async (options: {
  readonly shapes?: ReadonlyArray<{ readonly steps: number; readonly runs: number; readonly engines: ReadonlyArray<EngineName> }>
  readonly rounds?: number
  readonly concurrency?: number
  readonly warmUp?: number
} = {}): Promise<EnginesResult> => {
  const concurrency = options.concurrency ?? 32
  const roundsCount = options.rounds ?? 3
  const warmUp = options.warmUp ?? 200
  const shapes: Array<EnginesShape> = []
  const plan = options.shapes ?? [
    { steps: 1, runs: 2000, engines: ["ours", "theirs", "theirs-flushed"] },
    { steps: 5, runs: 1000, engines: ["ours", "theirs"] }
  ]
  for (const { engines, runs, steps } of plan) {
    const rounds: Array<RoundResult> = []
    for (let round = 0; round < roundsCount; round++) {
      const order = round % 2 === 0 ? engines : [...engines].reverse()
      for (const engine of order) rounds.push(await measure(engine, steps, runs, concurrency, warmUp))
    }
    const medians: Partial<Record<EngineName, EngineFigures>> = {}
    for (const engine of engines) {
      const mine = rounds.filter((r) => r.engine === engine)
      medians[engine] = {
        perSecond: median(mine.map((r) => r.perSecond)),
        cpuMsPerRun: median(mine.map((r) => r.cpuMsPerRun)),
        systemCpuMsPerRun: median(mine.map((r) => r.systemCpuMsPerRun))
      }
    }
    const ours = medians.ours!
    const theirs = medians.theirs!
    const flushed = medians["theirs-flushed"]
    shapes.push({
      steps,
      runs,
      rounds,
      medians,
      throughputRatio: theirs.perSecond / ours.perSecond,
      cpuRatio: theirs.cpuMsPerRun / ours.cpuMsPerRun,
      flushedThroughputRatio: flushed === undefined ? undefined : flushed.perSecond / ours.perSecond,
      flushedCpuRatio: flushed === undefined ? undefined : flushed.cpuMsPerRun / ours.cpuMsPerRun,
      complete: rounds.every((r) => r.problem === undefined && r.completed === runs && r.activityExecutions === runs * steps)
    })
  }
  return { concurrency, warmUp, shapes, withinTwice: shapes.every((s) => s.throughputRatio >= 0.5 && s.cpuRatio <= 2) }
}

/**
 * The part as `pnpm bench` prints it (BENCH_ONLY=engines): every round, then the medians, the
 * ratios and the rule's answer. BENCH_ENGINES_ROUNDS sets the rounds (3), BENCH_ENGINES_RUNS the
 * one-activity runs (2,000; half as many of five activities).
 */
export const enginesPart = async (): Promise<EnginesResult> => {
  const runs = Number(process.env["BENCH_ENGINES_RUNS"] ?? 2000)
  const result = await enginesBench({
    rounds: Number(process.env["BENCH_ENGINES_ROUNDS"] ?? 3),
    shapes: [
      { steps: 1, runs, engines: ["ours", "theirs", "theirs-flushed"] },
      { steps: 5, runs: Math.round(runs / 2), engines: ["ours", "theirs"] }
    ]
  })
  console.log(
    `\nWhich engine for the embedded default: the runner's SqlWorkflowEngine (ours: group commits, each batch flushed to disk) against @effect/cluster's ClusterWorkflowEngine on SingleRunner (theirs: SQL message storage), ` +
      `each on a SQLite file of its own (WAL, synchronous = NORMAL; theirs-flushed: synchronous = FULL, each commit flushed), the same workflow (a run = activities returning a step's outcome), ` +
      `runs started with discard: true and awaited, ${result.concurrency} runs at once; each round a fresh process and database, ${result.warmUp} runs of warm-up first; ` +
      `runs/s from the first start to the last end, the process's CPU per run (of which in the kernel); alternating rounds`
  )
  console.table(result.shapes.flatMap((shape) => {
    const enginesPerRound = Object.keys(shape.medians).length
    return shape.rounds.map((r, i) => ({
      activities: shape.steps,
      round: Math.floor(i / enginesPerRound) + 1,
      engine: r.engine,
      runs: `${r.completed} of ${r.runs}`,
      "activity executions": r.activityExecutions,
      "runs/s": Math.round(r.perSecond),
      "CPU ms/run": Number(r.cpuMsPerRun.toFixed(2)),
      "kernel ms/run": Number(r.systemCpuMsPerRun.toFixed(2)),
      ...(r.problem === undefined ? {} : { problem: r.problem.split("\n")[0] })
    }))
  }))
  const figures = (name: string, f: EngineFigures | undefined) =>
    f === undefined ? [] : [`${name} ${Math.round(f.perSecond)} runs/s at ${f.cpuMsPerRun.toFixed(2)} ms CPU a run`]
  for (const shape of result.shapes) {
    for (const r of shape.rounds) if (r.problem !== undefined) console.log(`✘ ${r.engine}, ${shape.steps} activities a run:\n${r.problem}`)
    console.log(`${shape.steps} ${shape.steps === 1 ? "activity" : "activities"} a run, medians: ${
      [...figures("ours", shape.medians.ours), ...figures("theirs", shape.medians.theirs), ...figures("theirs-flushed", shape.medians["theirs-flushed"])].join(", ")
    }; theirs ÷ ours: ${shape.throughputRatio.toFixed(2)}× the runs/s, ${shape.cpuRatio.toFixed(2)}× the CPU a run${
      shape.flushedThroughputRatio === undefined ? "" : ` (flushed: ${shape.flushedThroughputRatio.toFixed(2)}×, ${shape.flushedCpuRatio!.toFixed(2)}×)`
    }; theirs ÷ ours in runs/s by round: ${perRound(shape).join(", ")}; every run ended once, each activity run once (${shape.complete ? "met" : "MISSED"})`)
  }
  console.log(`rule: the cluster engine within 2× of ours (at least 0.5× its runs/s and at most 2× its CPU a run, in every shape, as the runner sets SQLite) → one engine for both, else two: ${
    result.withinTwice ? "within 2×: ONE engine (ClusterWorkflowEngine) for both" : "not within 2×: TWO engines (SqlWorkflowEngine embedded, ClusterWorkflowEngine on PostgreSQL)"
  }`)
  return result
}

// On its own: node tooling/bench/dist/engines.js (what BENCH_ONLY=engines runs in pnpm bench).
if (process.argv[1] === fileURLToPath(import.meta.url)) await enginesPart()
