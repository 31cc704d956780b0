import { mergeConfig } from "vitest/config"
import shared from "../vitest.shared.js"

// The release rehearsal packs, publishes, installs and compiles: about 4 minutes on a quiet
// 2-core machine (its phases print their times), 5 or more beside another suite. These limits
// only stop a hung rehearsal; they do not measure its speed.
export default mergeConfig(shared, {
  test: {
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000
  }
})
