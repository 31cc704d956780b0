/**
 * REFERENCE.md is what `describe` gives: rendered again from the component, it must equal the
 * checked-in page, so an action or a trigger changed without `pnpm reference` fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Component } from "@x/core"
import { referencePath, renderReference } from "../../../tooling/scripts/component-reference.mjs"
import { sitebuilder } from "../src/index.js"

describe("REFERENCE.md", () => {
  it("is the page Component.describe gives (after changing an action or a trigger: pnpm reference)", () => {
    expect(readFileSync(referencePath("sitebuilder"), "utf8")).toBe(renderReference(Component.describe(sitebuilder), "sitebuilder"))
  })
})
