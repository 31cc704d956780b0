import { availableParallelism } from "node:os"
import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest.shared.js"

export default mergeConfig(shared, {
  test: {
    // Most of these tests wait on other processes (a runner, a simulator, a lease running out),
    // not on this one's CPU: two files at a time even on two cores, where vitest's default is
    // one (cores - 1). The runner's suite is the longest task of `pnpm test`.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A stall bound for a whole test (five times the slowest alone but the durable and webflow
    // triggers' tests, which set their own); each wait inside has test/bin.ts's `stallMs`.
    testTimeout: 300_000,
    hookTimeout: 300_000
  }
})
