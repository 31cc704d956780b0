import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest.shared.js"

export default mergeConfig(shared, {})
