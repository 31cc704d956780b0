/** Runs a call from many loops for a while and reports its throughput and latency quantiles. */
import * as Effect from "effect/Effect"
import type * as ManagedRuntime from "effect/ManagedRuntime"

export interface Measurement {
  readonly calls: number
  readonly throughput: number
  readonly p50: number
  readonly p99: number
  /** Each call's latency (ms, sorted) and the run's length, so that slices of a run can be combined. */
  readonly latencies: ReadonlyArray<number>
  readonly elapsedSeconds: number
}

export const summarize = (latencies: Array<number>, elapsedSeconds: number): Measurement => {
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  return { calls: latencies.length, throughput: latencies.length / elapsedSeconds, p50: at(0.5), p99: at(0.99), latencies, elapsedSeconds }
}

/** Slices of one client's run as one measurement: every call over the slices' time together. */
export const combine = (slices: ReadonlyArray<Measurement>): Measurement =>
  summarize(slices.flatMap((slice) => slice.latencies), slices.reduce((sum, slice) => sum + slice.elapsedSeconds, 0))

/** `call` from `concurrency` promise loops for `seconds`, each call's latency recorded. */
export const measurePromises = async (call: () => Promise<unknown>, concurrency: number, seconds: number) => {
  const latencies: Array<number> = []
  const deadline = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now()
      await call()
      latencies.push(performance.now() - start)
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return summarize(latencies, (performance.now() - start) / 1000)
}

/** The same with `concurrency` fibers, as the runner runs steps: no Promise per call. */
export const measureFibers = <E, R>(
  runtime: ManagedRuntime.ManagedRuntime<R, never>,
  call: Effect.Effect<unknown, E, R>,
  concurrency: number,
  seconds: number
) =>
  runtime.runPromise(Effect.suspend(() => {
    const latencies: Array<number> = []
    const deadline = performance.now() + seconds * 1000
    const timed = Effect.suspend(() => {
      const started = performance.now()
      return Effect.tap(call, () => Effect.sync(() => latencies.push(performance.now() - started)))
    })
    const worker = Effect.whileLoop({ while: () => performance.now() < deadline, body: () => timed, step: () => {} })
    const start = performance.now()
    return Effect.all(Array.from({ length: concurrency }, () => worker), { concurrency: "unbounded", discard: true }).pipe(
      Effect.map(() => summarize(latencies, (performance.now() - start) / 1000))
    )
  }))

/** The value at quantile `q` of `values` (the lower one between two: 0.5 of an even count is its lower middle). */
export const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(q * (sorted.length - 1))]!
}

/**
 * The CPU this process spends per call of each of two clients, over `runs` short runs of each
 * that alternate (the order turned every run), after a warm-up of each: for A/B comparisons
 * that a machine's load would tilt if one client ran after the other.
 */
export const alternatingCpuPerCall = async (
  pair: readonly [(seconds: number) => Promise<Measurement>, (seconds: number) => Promise<Measurement>],
  runs: number,
  seconds: number
): Promise<[Array<number>, Array<number>]> => {
  for (const run of pair) await run(1)
  const perCall: [Array<number>, Array<number>] = [[], []]
  for (let run = 0; run < runs; run++) {
    for (const i of run % 2 === 0 ? [0, 1] as const : [1, 0] as const) {
      const before = process.cpuUsage()
      const { calls } = await pair[i](seconds)
      const used = process.cpuUsage(before)
      perCall[i].push((used.user + used.system) / calls)
    }
  }
  return perCall
}
