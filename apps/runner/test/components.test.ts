/** The components a command runs with: one registry, the executor's, limits and all. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Catalog from "../src/components/Catalog.js"
import * as CatalogIndex from "../src/components/catalog/index.js"
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

  it.effect("the catalog loaded by name is the whole catalog, in its order: a component listed in one place only fails here", () =>
    Effect.gen(function*() {
      expect(Catalog.entries.map((entry) => entry.component.name)).toEqual([...CatalogIndex.names])
      const loaded = yield* Effect.promise(() => CatalogIndex.load(CatalogIndex.names))
      expect(loaded).toEqual(Catalog.entries)
      // One type's component alone; an unknown component's name, every one.
      const one = yield* Effect.provide(Components.Components, Components.layerFor("boardtool/v1/createCard"))
      expect(one.entries.map((entry) => entry.component.name)).toEqual(["boardtool"])
      const all = yield* Effect.provide(Components.Components, Components.layerFor("nope/v1"))
      expect(all.entries).toEqual(Catalog.entries)
    }))
})
