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

if (process.argv.length === 3 && process.argv[2] === "--version") {
  process.stdout.write(`${packageJson.version}\n`)
} else {
  await import("./main.js")
}
