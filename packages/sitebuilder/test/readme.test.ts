/**
 * The README's action and trigger tables against the component: every action and trigger has a
 * row, each row's scope column names exactly the OAuth scopes it asks for, and a row says
 * "Deprecated since <date> — use <replacement>." exactly when its action or trigger is deprecated.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Action } from "@x/core"
import { sitebuilder } from "../src/index.js"

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8")
const part = (heading: string) => readme.slice(readme.indexOf(heading), readme.indexOf("\n## ", readme.indexOf(heading) + 1))
/** `| \`name\` | request | inputs | output | scope |` → name and its scopes. */
const rowsOf = (section: string) => section.split("\n").filter((line) => line.startsWith("| `")).map((line) => {
  const cells = line.split(" | ")
  const deprecated = /\*\*Deprecated since (\d{4}-\d{2}-\d{2})(?: — use (.+?))?\.\*\*/.exec(line)
  return {
    name: cells[0]!.slice(3, -1),
    scopes: [...cells.at(-1)!.matchAll(/`([a-z_]+:[a-z]+)`/g)].map((m) => m[1]!).sort(),
    deprecated: deprecated === null ? undefined : { since: deprecated[1], replacement: deprecated[2] }
  }
})
/** What a row must say of a deprecation: its date and replacement (its reason is `describe`'s). */
const noteOf = (deprecation: Action.Deprecation | undefined) =>
  deprecation === undefined ? undefined : { since: deprecation.since, replacement: deprecation.replacement }
const rows = rowsOf(part("## Actions"))

describe("the README's actions", () => {
  it("lists every action once, with the scopes it asks for", () => {
    expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(sitebuilder.actions).sort())
    for (const row of rows) {
      expect({ action: row.name, scopes: row.scopes }).toEqual({ action: row.name, scopes: [...(sitebuilder.actions as Record<string, { readonly scopes: ReadonlyArray<string> }>)[row.name]!.scopes].sort() })
      const action = (sitebuilder.actions as Record<string, { readonly deprecated?: Action.Deprecation | undefined }>)[row.name]!
      expect({ action: row.name, deprecated: row.deprecated }).toEqual({ action: row.name, deprecated: noteOf(action.deprecated) })
    }
  })
})

describe("the README's triggers", () => {
  it("lists every trigger once, with the scopes it asks for", () => {
    const triggers = rowsOf(part("## Triggers"))
    expect(triggers.map((row) => row.name).sort()).toEqual(Object.keys(sitebuilder.triggers).sort())
    for (const row of triggers) {
      expect({ trigger: row.name, scopes: row.scopes }).toEqual({ trigger: row.name, scopes: [...(sitebuilder.triggers[row.name]!.scopes ?? [])].sort() })
      expect({ trigger: row.name, deprecated: row.deprecated }).toEqual({ trigger: row.name, deprecated: noteOf(sitebuilder.triggers[row.name]!.deprecated) })
    }
  })
})
