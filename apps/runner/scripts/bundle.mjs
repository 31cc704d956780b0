// The x-runner bin as one ESM bundle: loading some 600 modules one by one (resolving, stat-ing and
// compiling each) was most of the CLI's start-up time. Code splitting keeps the servers and the
// simulators in chunks that only `serve`, `connect` and `--sandbox` load.
import { build } from "esbuild"
import { rmSync } from "node:fs"

// Chunk names carry content hashes: start empty so that no stale chunk is left behind.
rmSync("dist/bundle", { recursive: true, force: true })

await build({
  // The engine's thread of `serve` is an entry of its own: a worker loads it by its file name.
  entryPoints: { "x-runner": "dist/bin.js", EngineWorker: "dist/engine/EngineWorker.js" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  // The embedded database's native addon cannot be bundled: it is the bin's one dependency.
  external: ["better-sqlite3"],
  // Some CommonJS dependencies call `require` for Node built-ins; ESM has none of its own.
  banner: { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);` }
})
