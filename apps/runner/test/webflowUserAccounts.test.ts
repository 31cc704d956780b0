/**
 * Webflow switched User Accounts off on every site on 2026-01-29: `describe sitebuilder/v1`
 * from the built bundle offers no site user action and asks for no `users:*` scope, and a
 * workflow that still names one is refused at its check, before anything is sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner } from "./bin.js"

const removed = ["listUsers", "getUser", "inviteUser", "deleteUser"]

describe("x-runner describe sitebuilder/v1: no User Accounts", () => {
  it("lists no user action and no users:* scope; a workflow naming one fails its check", async () => {
    const described = await runner(["describe", "sitebuilder/v1"])
    expect(described.code).toBe(0)
    const component = JSON.parse(described.stdout) as {
      readonly actions: ReadonlyArray<{ readonly name: string; readonly scopes?: ReadonlyArray<string> }>
      readonly triggers: ReadonlyArray<{ readonly scopes?: ReadonlyArray<string> }>
      readonly connection: { readonly oauth2: { readonly scopes: ReadonlyArray<string> } }
    }
    const names = component.actions.map((action) => action.name)
    expect(names).toContain("listForms")
    expect(names.filter((name) => removed.includes(name) || /user/i.test(name))).toEqual([])
    const scopes = [
      ...component.connection.oauth2.scopes,
      ...[...component.actions, ...component.triggers].flatMap((definition) => definition.scopes ?? [])
    ]
    expect(scopes).toContain("cms:write")
    expect(scopes.filter((scope) => scope.startsWith("users:"))).toEqual([])
    expect(described.stdout).not.toMatch(/accessgroups|users:(read|write)/)

    const workflow = join(mkdtempSync(join(tmpdir(), "xr-users-")), "users.json")
    writeFileSync(workflow, JSON.stringify({
      label: "Site users",
      tasks: [{ label: "Users", name: "users", type: "sitebuilder/v1/listUsers", parameters: { siteId: "5eed00000000000000000001" } }]
    }))
    const run = await runner(["run", workflow, "--sandbox"])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain("listUsers")
  })
})
