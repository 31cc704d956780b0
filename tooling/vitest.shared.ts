import { defineConfig } from "vitest/config"

/** The vitest settings every package shares; each package's vitest.config.ts extends it. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One fork per file keeps nock's global interception from leaking between files (core and
    // http-undici share one process instead: their configs say why and how their files cope).
    pool: "forks",
    // Stall bounds, not speed expectations: a test passes with the machine five times slower than
    // alone (another `pnpm test` beside this one on two cores), and a hung one still fails in minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" }
  }
})
