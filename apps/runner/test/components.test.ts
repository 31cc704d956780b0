/** The components a command runs with: one registry, the executor's, limits and all. */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Catalog from "../src/components/Catalog.js"
import * as Components from "../src/components/Components.js"

const limitsOf = (components: Components.Components) => {
  const resolved = components.executor.registry.action("boardtool/v1/createCard")
  return Either.isRight(resolved) ? resolved.right.component.connection.rateLimits : undefined
}

describe("Components", () => {
  it("resolve step types through the executor's registry only: under --without-rate-limits it is the one without limits", () => {
    const limited = Components.make(Catalog.entries, { rateLimits: true })
    const unlimited = Components.make(Catalog.entries, { rateLimits: false })
    expect(Object.keys(limited).sort()).toEqual(["entries", "executor"])
    expect(limitsOf(limited)?.length).toBeGreaterThan(0)
    expect(limitsOf(unlimited)).toEqual([])
  })
})
