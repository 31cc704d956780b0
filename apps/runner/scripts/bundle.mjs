// The x-runner bin as one ESM bundle: loading some 600 modules one by one (resolving, stat-ing and
// compiling each) was most of the CLI's start-up time. Code splitting keeps the servers and the
// simulators in chunks that only `serve`, `connect` and `--sandbox` load.
import { build } from "esbuild"
import { rmSync } from "node:fs"

// @effect/cli reads option files in YAML, TOML and INI (`Options.fileParse`, `ConfigFile`), and its
// module of parsers imports the three parsers whole: some 400 kB that every command line
// compiled and evaluated. No x-runner option is such a file (a test says so: bundleChunks.test.ts), so
// the bundle gives that module parsers that say so instead.
const noOptionFileParsers = {
  name: "no-option-file-parsers",
  setup(build) {
    build.onResolve({ filter: /^(yaml|toml|ini)$/ }, (args) =>
      /[\\/]@effect[\\/]cli[\\/]/.test(args.importer) ? { path: args.path, namespace: "no-option-file-parsers" } : undefined)
    build.onLoad({ filter: /.*/, namespace: "no-option-file-parsers" }, (args) => ({
      contents: `export const parse = () => { throw new Error("x-runner reads no ${args.path} option file") }`,
      loader: "js"
    }))
  }
}

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
  plugins: [noOptionFileParsers],
  // The embedded database's native addon cannot be bundled: it is the bin's one dependency.
  external: ["better-sqlite3"],
  // Some CommonJS dependencies call `require` for Node built-ins; ESM has none of its own.
  banner: { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);` }
})
