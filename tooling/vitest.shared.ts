import { defineConfig } from "vitest/config"

/** The vitest settings every package shares; each package's vitest.config.ts extends it. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One fork per file keeps nock's global interception from leaking between files (core and
    // http-undici share one process instead: their configs say why and how their files cope).
    pool: "forks",
    testTimeout: 20_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" }
  }
})
