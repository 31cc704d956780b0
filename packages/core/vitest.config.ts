import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest.shared.js"

export default mergeConfig(shared, {
  test: {
    // Its files share one process, so effect and the sources load once instead of once per file
    // (most of the suite's time on a busy machine). Each file leaves nock and its servers as it
    // found them; the files pass in any order (`--sequence.shuffle.files`). The connectors'
    // suites are not there yet (boardtool's does not finish).
    isolate: false
  }
})
