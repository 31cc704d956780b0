/** `@x/sitebuilder/testing` must not load `@x/core`'s whole runtime through its index, nor the component. */
import { expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { leanTestingEntry, testingEntryLoads } from "../../../tooling/testing/loadedModules.js"

it("@x/sitebuilder/testing loads the simulator and @x/core's Webhook module, not @x/core's index nor the component", () => {
  expect(testingEntryLoads("@x/sitebuilder", fileURLToPath(new URL("../", import.meta.url)))).toEqual(leanTestingEntry)
})
