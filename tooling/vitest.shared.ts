import { defineConfig } from "vitest/config"

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
