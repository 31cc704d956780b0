/**
 * The README beside REFERENCE.md: the list of actions and triggers is the reference's alone (no
 * table row per action or trigger here), the README's links to the page and to its own headings
 * lead somewhere, every name in it that reads as an action's is one, its "None is deprecated
 * today" is true, and the page shows each action's and trigger's scopes and deprecation.
 */
import { describe, expect, it } from "@effect/vitest"
import { Component } from "@x/core"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { readmeProblems, renderReference } from "../../../tooling/scripts/component-reference.mjs"
import { sitebuilder } from "../src/index.js"

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8")

describe("README.md", () => {
  it("leaves the list of actions and triggers to REFERENCE.md, and what it says of them is true", () => {
    expect(readmeProblems(readme, Component.describe(sitebuilder), "sitebuilder")).toEqual([])
  })
})

describe("a deprecated action, were there one", () => {
  // None is deprecated today: the same description with one marked, as a deprecation would be.
  const description = Component.describe(sitebuilder)
  const [first, ...rest] = description.actions
  const deprecated = {
    ...description,
    actions: [{ ...first!, deprecated: { since: "2026-01-29", replacement: "listSites", reason: "Webflow switched it off." } }, ...rest]
  }

  it("is marked in REFERENCE.md with its date, replacement and reason, beside its scopes and requests", () => {
    const page = renderReference(deprecated, "sitebuilder")
    const section = page.slice(page.indexOf(`\n### ${first!.name}\n`), page.indexOf("\n### ", page.indexOf(`\n### ${first!.name}\n`) + 1))
    expect(section).toContain("**Deprecated since 2026-01-29 — use `listSites`.** Webflow switched it off.")
    expect(section).toMatch(/^Scopes: `/m)
    expect(section).toMatch(/^Requests: `/m)
  })

  it("makes the README's \"None is deprecated today\" a problem", () => {
    expect(readmeProblems(readme, deprecated, "sitebuilder")).toEqual([`"None is deprecated today", but ${first!.name} is`])
  })
})
