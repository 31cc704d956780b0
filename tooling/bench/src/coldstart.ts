/**
 * Cold start, as ratios against yardsticks measured in the same run (issue 33): whole processes
 * of `x-runner --version`, `x-runner --help` (the CLI with no component: its floor) and
 * `x-runner describe boardtool/v1` (the bundle users run; `XRUNNER_BUNDLE` names a copy) against a
 * bare `node -e 0`, the three interleaved, median of several fresh processes each; `describe`
 * of every component bundled and unbundled; and importing each package in a fresh process
 * against importing `effect`'s and `@effect/platform`'s entry points there.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const runnerDir = fileURLToPath(new URL("../../../apps/runner/", import.meta.url))

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const timeProcess = (args: ReadonlyArray<string>) => {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: runnerDir, stdio: ["ignore", "ignore", "pipe"] })
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`)
  return performance.now() - started
}

/** Milliseconds from the `import()` calls to the modules evaluated, measured inside a fresh process. */
const importTime = (specifiers: ReadonlyArray<string>) =>
  Number(execFileSync(process.execPath, [
    "--input-type=module",
    "-e",
    `const t = performance.now(); await Promise.all(${JSON.stringify(specifiers)}.map((s) => import(s))); console.log(performance.now() - t)`
  ], { cwd: runnerDir, encoding: "utf8" }))

/** Each of these process command lines run `runs` times, interleaved (a slow moment weighs on all alike), after one warm-up each. */
const interleaved = (lines: Readonly<Record<string, ReadonlyArray<string>>>, runs: number): Record<string, number> => {
  const times: Record<string, Array<number>> = Object.fromEntries(Object.keys(lines).map((name) => [name, []]))
  for (const args of Object.values(lines)) timeProcess(args)
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(lines)) times[name]!.push(timeProcess(args))
  }
  return Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]))
}

export interface ColdStartResult {
  /** A bare Node start (`node -e 0`): the yardstick of the processes below. */
  readonly nodeMs: number
  readonly versionMs: number
  /** `x-runner --help`: the command line parsed and its help printed, no component loaded. */
  readonly helpMs: number
  readonly describeBoardtoolMs: number
  /** `x-runner describe` of every component, the bin users run: the bundle. */
  readonly describeMs: number
  /** The same CLI unbundled, module by module, for comparison. */
  readonly describeUnbundledMs: number
  /** Importing `effect` and `@effect/platform` in a fresh process: the yardstick of the imports below. */
  readonly effectImportMs: number
  readonly imports: ReadonlyArray<{ readonly package: string; readonly ms: number }>
}

export const coldStartBench = (runs = 7): ColdStartResult => {
  const bin = process.env["XRUNNER_BUNDLE"] ?? "dist/bundle/x-runner.js"
  const processes = interleaved({
    node: ["-e", "0"],
    version: [bin, "--version"],
    help: [bin, "--help"],
    describeBoardtool: [bin, "describe", "boardtool/v1"],
    describe: [bin, "describe"],
    describeUnbundled: ["dist/main.js", "describe"]
  }, runs)
  const imports = interleavedImports(["effect+platform", "@x/core", "@x/boardtool", "@x/sitebuilder", "@x/browseragent"], runs)
  return {
    nodeMs: processes["node"]!,
    versionMs: processes["version"]!,
    helpMs: processes["help"]!,
    describeBoardtoolMs: processes["describeBoardtool"]!,
    describeMs: processes["describe"]!,
    describeUnbundledMs: processes["describeUnbundled"]!,
    effectImportMs: imports["effect+platform"]!,
    imports: Object.entries(imports).filter(([name]) => name !== "effect+platform").map(([name, ms]) => ({ package: name, ms }))
  }
}

/** Imports timed in fresh processes, interleaved as the processes are; `effect+platform` is the two entry points together. */
const interleavedImports = (names: ReadonlyArray<string>, runs: number): Record<string, number> => {
  const specifiersOf = (name: string) => name === "effect+platform" ? ["effect", "@effect/platform"] : [name]
  const times: Record<string, Array<number>> = Object.fromEntries(names.map((name) => [name, []]))
  for (const name of names) importTime(specifiersOf(name))
  for (let i = 0; i < runs; i++) {
    for (const name of names) times[name]!.push(importTime(specifiersOf(name)))
  }
  return Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]))
}
