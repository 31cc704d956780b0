import { mergeConfig } from "vitest/config"
import shared from "../vitest.shared.js"

// The release rehearsal packs, publishes, installs and compiles for a few minutes at most.
export default mergeConfig(shared, {
  test: {
    testTimeout: 300_000,
    hookTimeout: 300_000
  }
})
