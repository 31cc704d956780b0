/**
 * The README beside REFERENCE.md: the list of actions and triggers is the reference's alone (no
 * table row per action or trigger here), the README's links to the page and to its own headings
 * lead somewhere, every name in it that reads as an action's is one, its "None is deprecated
 * today" is true, and the page shows each one's deprecation.
 */
import { describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { readmeProblems } from "../../../tooling/scripts/component-reference.mjs"
import { browseragent } from "../src/index.js"

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8")

describe("README.md", () => {
  it("leaves the list of actions and triggers to REFERENCE.md, and what it says of them is true", () => {
    expect(readmeProblems(readme, Component.describe(browseragent), "browseragent")).toEqual([])
  })
})
