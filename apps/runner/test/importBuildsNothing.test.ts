/**
 * Importing a connector package builds none of its actions' parts (issue 33): no property's
 * Schema, no decoder's Schema, no output's encoder, until an action is first used. Checked in a
 * fresh process on the built packages (a module this suite's process has already loaded would not
 * be evaluated again), with core's count of the parts built (`Laziness.built`); decoding every
 * action's parameters then builds theirs, so the count is seen to count.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const counted = (name: string) => `
const { Laziness } = await import("@x/core/testing")
const before = Laziness.built()
const component = (await import("@x/${name}")).${name}
const afterImport = Laziness.built()
const actions = Object.values(component.actions)
// An unknown parameter: the fast path gives up, so the Schema decoder is built and names it.
const refused = actions.filter((action) => action.decode({ notAParameter: 1 })._tag === "Left").length
console.log(JSON.stringify({ before, afterImport, afterDecode: Laziness.built(), actions: actions.length, refused }))
`

describe.each(["boardtool", "sitebuilder", "browseragent"])("importing @x/%s", (name) => {
  it("builds no action's Schema, decoder or encoder; decoding each action's parameters then builds them", () => {
    const counts = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", counted(name)], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8"
    }))
    expect(counts.afterImport).toBe(counts.before)
    // (The custom action, and an action that takes any parameter, accept it.)
    expect(counts.refused).toBeGreaterThan(counts.actions / 2)
    // At least each refusing action's decoder's Schema, and the properties' Schemas it is made of.
    expect(counts.afterDecode - counts.afterImport).toBeGreaterThan(counts.refused)
  })
})
