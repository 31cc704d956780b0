import { mergeConfig } from "vitest/config"
import shared from "../vitest.shared.js"

// The release rehearsal packs, publishes, installs and compiles: about 4 minutes on a quiet
// 2-core machine (its phases print their times), about 5 inside `pnpm test`, 10 beside another.
// These limits only stop a hung rehearsal (five times its time in `pnpm test`; each command has
// its own bound, so a hang fails sooner); they do not measure its speed.
export default mergeConfig(shared, {
  test: {
    testTimeout: 1_500_000,
    hookTimeout: 1_500_000
  }
})
