/**
 * `@x/sitebuilder/testing` is what a consumer's tests import: it must not load `@x/core`'s whole
 * runtime through its index, nor the component, only the simulator and the core modules it uses.
 */
import { describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { loadedModules } from "../../../tooling/testing/loadedModules.js"

const packageDir = fileURLToPath(new URL("../", import.meta.url))

describe("@x/sitebuilder/testing", () => {
  it("loads the simulator and @x/core's Webhook and testing modules, not @x/core's index nor the component", () => {
    const loaded = loadedModules("@x/sitebuilder/testing", packageDir)
    expect(loaded.filter((url) => url.endsWith("/dist/testing/simulator.js"))).toHaveLength(1)
    expect(loaded.filter((url) => url.endsWith("/core/dist/Webhook.js"))).toHaveLength(1)
    expect(loaded.filter((url) => /\/core\/dist\/index\.js$/.test(url))).toEqual([])
    expect(loaded.filter((url) => /\/sitebuilder\/dist\/index\.js$/.test(url))).toEqual([])
  })
})
