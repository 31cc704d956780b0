/**
 * REFERENCE.md is what `describe` gives: rendered again from the component, it must equal the
 * checked-in page, so an action or a trigger changed without `pnpm reference` fails here; and
 * every action's requests are recorded in test/operations.json (else its page has no Requests line).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Component } from "@x/core"
import { referencePath, renderReference, unrecordedOperations } from "../../../tooling/scripts/component-reference.mjs"
import { browseragent } from "../src/index.js"

describe("REFERENCE.md", () => {
  it("is the page Component.describe gives (after changing an action or a trigger: pnpm reference)", () => {
    expect(readFileSync(referencePath("browseragent"), "utf8")).toBe(renderReference(Component.describe(browseragent), "browseragent"))
  })

  it("shows every action's requests: each has its operations recorded by the contract test", () => {
    expect(unrecordedOperations(Component.describe(browseragent), "browseragent")).toEqual([])
  })
})
