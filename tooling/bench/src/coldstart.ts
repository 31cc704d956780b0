/**
 * Cold start: the wall time of `x-runner describe` (a whole process: Node starting, the CLI and
 * all three packages loaded, their definitions printed), bundled as shipped and unbundled, and the time to `import` each package
 * in a fresh process. Median of several runs, since the first run also warms the OS file cache.
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

/** Milliseconds from the `import()` call to the module evaluated, measured inside a fresh process. */
const importTime = (specifier: string) =>
  Number(execFileSync(process.execPath, [
    "--input-type=module",
    "-e",
    `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t)`
  ], { cwd: runnerDir, encoding: "utf8" }))

export interface ColdStartResult {
  /** The bin users run: the bundle. */
  readonly describeMs: number
  /** The same CLI unbundled, module by module, for comparison. */
  readonly describeUnbundledMs: number
  readonly imports: ReadonlyArray<{ readonly package: string; readonly ms: number }>
}

export const coldStartBench = (runs = 7): ColdStartResult => {
  const describe = (bin: string) => {
    timeProcess([bin, "describe"])
    return median(Array.from({ length: runs }, () => timeProcess([bin, "describe"])))
  }
  const describeMs = describe("dist/bundle/x-runner.js")
  const describeUnbundledMs = describe("dist/main.js")
  const imports = ["@x/core", "@x/boardtool", "@x/sitebuilder", "@x/browseragent"].map((name) => ({
    package: name,
    ms: median(Array.from({ length: runs }, () => importTime(name)))
  }))
  return { describeMs, describeUnbundledMs, imports }
}
