/**
 * A CPU profile (`node --cpu-prof`) summarised: self time by package (or Node's internals, the
 * garbage collector, idle) and the functions that take most of it, so that a figure the engine
 * misses comes with where its time goes.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

export interface ProfileSummary {
  readonly totalMs: number
  /** What was not idle (the thread's CPU, the garbage collector's included). */
  readonly busyMs: number
  readonly byPackage: ReadonlyArray<{ readonly name: string; readonly ms: number; readonly share: number }>
  readonly topFunctions: ReadonlyArray<{ readonly name: string; readonly ms: number; readonly share: number }>
}

/** The package a script belongs to (the last `node_modules` segment's name), else what it is. */
const packageOf = (node: ProfileNode): string => {
  const url = node.callFrame.url
  if (url === "") return node.callFrame.functionName || "(native)"
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (match !== null) return match[1]!
  if (url.startsWith("node:")) return "node (internals)"
  return url.includes("/dist/bundle/") ? "x-runner bundle" : url
}

/**
 * A span of time on the monotonic clock, in microseconds (`process.hrtime.bigint() / 1000n`):
 * V8 stamps a profile's samples on the same clock, in every process of the machine.
 */
export interface Window {
  readonly fromMicros: number
  readonly toMicros: number
}

/** The monotonic clock now, in microseconds, as a profile's samples are stamped. */
export const nowMicros = (): number => Number(process.hrtime.bigint() / 1000n)

/** The summary of one profile (of the samples within `window`, if one is given). */
const summariseFile = (file: string, top: number, window: Window | undefined): ProfileSummary => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile & { readonly startTime: number }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfMicros = new Map<number, number>()
  let total = 0
  let at = profile.startTime
  profile.samples.forEach((sample, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    if (window !== undefined && (at < window.fromMicros || at > window.toMicros)) return
    selfMicros.set(sample, (selfMicros.get(sample) ?? 0) + delta)
    total += delta
  })
  const packages = new Map<string, number>()
  const functions = new Map<string, number>()
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id)!
    const name = packageOf(node)
    packages.set(name, (packages.get(name) ?? 0) + micros)
    const fn = `${node.callFrame.functionName || "(anonymous)"} (${name}${node.callFrame.url === "" ? "" : `:${node.callFrame.lineNumber + 1}`})`
    functions.set(fn, (functions.get(fn) ?? 0) + micros)
  }
  const rows = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, micros]) => ({ name, ms: Math.round(micros / 1000), share: micros / total }))
  return { totalMs: Math.round(total / 1000), busyMs: Math.round((total - (packages.get("(idle)") ?? 0)) / 1000), byPackage: rows(packages), topFunctions: rows(functions) }
}

/** A thread's profile: which thread (Node names each file `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`, thread 0 the main one). */
export interface ThreadProfile {
  readonly thread: string
  readonly summary: ProfileSummary
}

/**
 * The summary of each thread's profile a directory holds: the serving (main) thread's first,
 * then the engine's; of the samples within `window` if one is given (a load's, without the
 * start and the drain).
 */
export const summarise = (dir: string, top = 15, window?: Window): ReadonlyArray<ThreadProfile> => {
  const files = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`)
  const threadOf = (file: string) => Number(file.split(".").at(-3))
  return files.sort((a, b) => threadOf(a) - threadOf(b)).map((file) => ({
    thread: threadOf(file) === 0 ? "serving thread (main)" : `engine thread (worker ${threadOf(file)})`,
    summary: summariseFile(join(dir, file), top, window)
  }))
}

/** Prints each thread's profile: self time by package, and the functions with the most of it. */
export const print = (what: string, threads: ReadonlyArray<ThreadProfile>) => {
  for (const { summary, thread } of threads) {
    console.log(`\nWhere ${what}'s CPU went, ${thread} (BENCH_PROFILE=1, ${summary.totalMs} ms sampled, ${summary.busyMs} ms busy), self time by package:`)
    console.table(summary.byPackage.map((row) => ({ package: row.name, ms: row.ms, share: `${(row.share * 100).toFixed(1)} %` })))
    console.log("the functions with the most self time:")
    console.table(summary.topFunctions.map((row) => ({ function: row.name, ms: row.ms, share: `${(row.share * 100).toFixed(1)} %` })))
  }
}
