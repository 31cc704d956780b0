#!/usr/bin/env node
/**
 * The bin's entry, as bundled: `x-runner --version` is answered here, loading nothing else (a
 * tool that checks the version starts no runtime); every other command line is `main`'s, loaded
 * then.
 *
 * @since 0.12.0
 */
// esbuild inlines it in the bundle; from dist/ and src/ alike it is the runner's own package.json.
import packageJson from "../package.json" with { type: "json" }
import { setFlagsFromString } from "node:v8"

/** The commands that may run workflows' steps (`runs retry` runs a run of `x-runner run` here), not a description or a listing. */
const runsSteps = (argv: ReadonlyArray<string>): boolean => {
  const command = argv.slice(2).find((arg) => !arg.startsWith("-"))
  return command === "run" || command === "serve" || command === "mcp" || (command === "runs" && argv.includes("retry"))
}

if (process.argv.length === 3 && process.argv[2] === "--version") {
  process.stdout.write(`${packageJson.version}\n`)
} else {
  // V8 allocates an object straight into the old generation when its allocation site's objects
  // were seen to survive ("pretenuring"); the steps' request objects came from such sites, and
  // whatever young object they pointed to then survived every scavenge until a full GC: a fifth
  // of what a step allocated was promoted (2.2 MB a scavenge, 0.14 MB without it, measured with
  // `--trace-gc-nvp`); without it a step took 23–25 % less CPU (getCollectionItem at concurrency 32, tooling/bench/RESULTS.md).
  // Process-wide, the engine's thread included.
  // Only where steps run: a changed V8 flag makes Node compile its built-in modules afresh (their
  // code cache no longer matches), about 10 ms at every start.
  if (runsSteps(process.argv)) setFlagsFromString("--no-allocation-site-pretenuring")
  await import("./main.js")
}
