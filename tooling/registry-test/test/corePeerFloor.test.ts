import { describe, expect, it } from "vitest"
// @ts-expect-error a plain ES module script, without types
import { floorRange, holds } from "../../scripts/core-peer-floor.mjs"

describe("the floor of a package's peer range on @x/core", () => {
  it("is the core version the package is released with", () => {
    expect(floorRange("0.2.0")).toBe("workspace:>=0.2.0 <1.0.0")
  })
  it("holds the core versions from the floor up to 1.0.0, and only ranges of that form", () => {
    expect(holds(">=0.2.0 <1.0.0", "0.2.0")).toBe(true)
    expect(holds(">=0.2.0 <1.0.0", "0.10.3")).toBe(true)
    expect(holds(">=0.2.0 <1.0.0", "0.1.9")).toBe(false)
    expect(holds(">=0.2.1 <1.0.0", "0.2.0")).toBe(false)
    expect(holds("^0.2.0", "0.2.0")).toBe(false)
  })
})
