/**
 * Every action the runner knows (the three components' and the custom action) says what it does
 * to the world: `impact` read, write or destroy, and whether repeating it is harmless
 * (`idempotent`; a read always is). An MCP client decides from these whether to ask the user
 * first, so an action without them must not load: `Action.make` refuses it, and this test, over
 * the whole catalog, fails. `x-runner describe` shows both, as defined (and, for one action, in
 * words on stderr).
 */
import { describe, expect, it } from "@effect/vitest"
import { CustomAction } from "@x/core"
import * as Catalog from "../src/components/Catalog.js"
import { runner } from "./bin.js"

const actions = Catalog.entries.flatMap((entry) =>
  Object.values(entry.component.actions).map((action) => ({ type: `${entry.component.name}/v${entry.component.version}/${action.name}`, action }))
)

describe("every action's impact", () => {
  it("is read, write or destroy, with idempotent a boolean (always true for a read), on every action of the catalog", () => {
    for (const name of ["boardtool", "sitebuilder", "browseragent"]) {
      expect(actions.filter(({ type }) => type.startsWith(`${name}/`)).length, name).toBeGreaterThan(10)
    }
    const unmarked = actions.filter(({ action }) =>
      !["read", "write", "destroy"].includes(action.impact) || typeof action.idempotent !== "boolean" ||
      (action.impact === "read" && !action.idempotent)
    ).map(({ action, type }) => `${type}: impact ${String(action.impact)}, idempotent ${String(action.idempotent)}`)
    expect(unmarked).toEqual([])
  })

  it("the custom action (any method to any path) is destroy, not idempotent, in every component that offers it", () => {
    expect([CustomAction.action.impact, CustomAction.action.idempotent]).toEqual(["destroy", false])
    const custom = actions.filter(({ action }) => action.name === "customAction")
    expect(custom.length).toBeGreaterThanOrEqual(3)
    for (const { action } of custom) expect(action).toBe(CustomAction.action)
  })

  it("x-runner describe gives each action's impact and idempotent, as defined", async () => {
    const { code, stdout } = await runner(["describe"])
    expect(code).toBe(0)
    const described = (JSON.parse(stdout) as ReadonlyArray<{ type: string; actions: ReadonlyArray<{ name: string; impact: string; idempotent: boolean }> }>)
      .flatMap((component) => component.actions.map((a) => [`${component.type}/${a.name}`, { impact: a.impact, idempotent: a.idempotent }] as const))
    expect(described.length).toBe(actions.length)
    expect(described.filter(([, mark]) => !["read", "write", "destroy"].includes(mark.impact))).toEqual([])
    expect(Object.fromEntries(described)).toEqual(
      Object.fromEntries(actions.map(({ action, type }) => [type, { impact: action.impact, idempotent: action.idempotent }]))
    )
  })

  it("describe of one action says it in words on stderr too", async () => {
    const custom = await runner(["describe", "boardtool/v1/customAction"])
    expect(custom.code).toBe(0)
    expect(JSON.parse(custom.stdout)).toMatchObject({ name: "customAction", impact: "destroy", idempotent: false })
    expect(custom.stderr).toContain("boardtool/v1/customAction: destroy (it deletes, or does what cannot be taken back), not idempotent")
    const read = await runner(["describe", "boardtool/v1/getCard"])
    expect(read.stderr).toContain("boardtool/v1/getCard: read (it changes nothing)")
  })
})
