import { setPriority } from "node:os"
import { basename, dirname } from "node:path"
import { defineConfig } from "vitest/config"

// The runner's suite is the longest task of `pnpm test`, and its tests wait on processes they
// start (runners, simulators), which a machine busy with the other suites starves: the other
// packages' suites run at a lower CPU priority (their forks inherit it), filling the CPU the
// runner's leave idle. A priority that cannot be lowered changes nothing else.
if (!(basename(process.cwd()) === "runner" && basename(dirname(process.cwd())) === "apps")) {
  try {
    setPriority(10)
  } catch {
    // (Not permitted here: run as it is.)
  }
}

/** The vitest settings every package shares; each package's vitest.config.ts extends it. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // A package's files share one process, so effect and the sources load once instead of once
    // per file (most of a suite's time on a busy machine). Each file leaves nock and its servers
    // as it found them, and the files pass in any order (`--sequence.shuffle.files`). The test
    // kits keep state that must not cross files per test: `ComponentTest` a rate limiter per clock.
    isolate: false,
    // Stall bounds, not speed expectations: a test passes with the machine five times slower than
    // alone (another `pnpm test` beside this one on two cores), and a hung one still fails in minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" }
  }
})
