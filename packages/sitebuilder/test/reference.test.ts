/**
 * REFERENCE.md is what `describe` gives: rendered again from the component, it must equal the
 * checked-in page, so an action or a trigger changed without `pnpm reference` fails here; and
 * every action's requests are recorded in test/operations.json (else its page has no Requests line).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Component } from "@x/core"
import { referencePath, renderReference, unrecordedOperations } from "../../../tooling/scripts/component-reference.mjs"
import { sitebuilder } from "../src/index.js"

describe("REFERENCE.md", () => {
  it("is the page Component.describe gives (after changing an action or a trigger: pnpm reference)", () => {
    expect(readFileSync(referencePath("sitebuilder"), "utf8")).toBe(renderReference(Component.describe(sitebuilder), "sitebuilder"))
  })

  it("shows every action's requests: each has its operations recorded by the contract test", () => {
    expect(unrecordedOperations(Component.describe(sitebuilder), "sitebuilder")).toEqual([])
  })

  it("names the command that records a new action's operations", () => {
    const description = Component.describe(sitebuilder)
    const added = { ...description, actions: [...description.actions, { ...description.actions[0]!, name: "brandNewAction" }] }
    expect(unrecordedOperations(added, "sitebuilder")).toEqual([
      "action brandNewAction has no operations in packages/sitebuilder/test/operations.json: run " +
      "(cd packages/sitebuilder && UPDATE_OPERATIONS=1 corepack pnpm exec vitest run test/requests.contract.test.ts) && corepack pnpm reference"
    ])
  })
})
