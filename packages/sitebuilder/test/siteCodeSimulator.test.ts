/**
 * Redirects and custom code end to end: each action run through the executor against the
 * simulator (the store site's seeded redirects and registered script), scripts registered and
 * applied to the site and a page, the blocks that list them, removals, Webflow's refusals typed,
 * and the redirect dropdown.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const site = seed.sites.store
const simulation = simulated()
const { counted, options, run } = simulation

describe("redirects against the simulator", () => {
  it.live("list, create, update, delete: each change in the list; a path redirected twice is Webflow's 400", () =>
    Effect.gen(function*() {
      expect(yield* run("listRedirects", { siteId: site })).toEqual({
        redirects: [
          { id: seed.redirects.mostlyHarmless, fromUrl: "/mostly-harmless", toUrl: "/earth" },
          { id: seed.redirects.babelFish, fromUrl: "/babel-fish", toUrl: "/translate" }
        ]
      })
      const created = yield* run("createRedirect", { siteId: site, fromUrl: "/old-shop", toUrl: "https://shop.acme.example/" })
      expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), fromUrl: "/old-shop", toUrl: "https://shop.acme.example/" })
      const twice = yield* Effect.flip(run("createRedirect", { siteId: site, fromUrl: "/old-shop", toUrl: "/shop" }))
      expect(twice).toMatchObject({ _tag: "InvalidInput", status: 400 })
      const updated = yield* run("updateRedirect", { siteId: site, redirectId: created.id, toUrl: "/shop" })
      expect(updated).toEqual({ id: created.id, fromUrl: "/old-shop", toUrl: "/shop" })
      expect(yield* run("deleteRedirect", { siteId: site, redirectId: seed.redirects.babelFish })).toEqual({ id: seed.redirects.babelFish, deleted: true })
      const { redirects } = yield* run("listRedirects", { siteId: site })
      expect(redirects.map((r: any) => `${r.fromUrl} → ${r.toUrl}`)).toEqual(["/mostly-harmless → /earth", "/old-shop → /shop"])
      expect(yield* Effect.flip(run("deleteRedirect", { siteId: site, redirectId: seed.redirects.babelFish }))).toMatchObject({ _tag: "NotFound", status: 404 })
    }))

  it.live("bad paths are refused before any request; the dropdown lists the site's redirects", () =>
    Effect.gen(function*() {
      const refused = yield* counted(Effect.flip(run("createRedirect", { siteId: site, fromUrl: "old page", toUrl: "ftp://x" })))
      expect(refused.value._tag === "InvalidInput" && refused.value.issues.map((i: any) => i.path)).toEqual(["fromUrl", "toUrl"])
      const loop = yield* counted(Effect.flip(run("updateRedirect", { siteId: site, redirectId: seed.redirects.mostlyHarmless, fromUrl: "/a", toUrl: "/a" })))
      expect(loop.value._tag).toBe("InvalidInput")
      expect(refused.requests + loop.requests).toBe(0)
      const choices = yield* options("deleteRedirect", "redirectId", { siteId: site })
      expect(choices).toContainEqual({ label: "/mostly-harmless → /earth", value: seed.redirects.mostlyHarmless })
    }))
})

describe("custom code against the simulator", () => {
  it.live("register inline and hosted scripts, apply them to the site and a page, list the blocks, remove them", () =>
    Effect.gen(function*() {
      const inline = yield* run("registerInlineScript", { siteId: site, displayName: "Hello Banner", version: "0.1.0", sourceCode: "console.log('hello')" })
      expect(inline).toMatchObject({ id: "hello_banner", displayName: "Hello Banner", version: "0.1.0", canCopy: false, hostedLocation: expect.stringMatching(/^https:/) })
      const hosted = yield* run("registerHostedScript", {
        siteId: site, displayName: "Analytics", version: "2.0.0-beta.1", canCopy: true,
        hostedLocation: "https://cdn.example.com/analytics.js", integrityHash: "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
      })
      expect(hosted).toMatchObject({ id: "analytics", version: "2.0.0-beta.1", canCopy: true, integrityHash: "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" })
      const again = yield* Effect.flip(run("registerInlineScript", { siteId: site, displayName: "Hello Banner", version: "0.1.0", sourceCode: "1" }))
      expect(again).toMatchObject({ _tag: "InvalidInput", status: 400 })
      const { registeredScripts } = yield* run("listRegisteredScripts", { siteId: site })
      expect(registeredScripts.map((s: any) => `${s.id}@${s.version}`)).toEqual(["cms_slider@1.0.0", "hello_banner@0.1.0", "analytics@2.0.0-beta.1"])

      expect(yield* run("getSiteCustomCode", { siteId: site })).toEqual({ scripts: [] })
      const applied = yield* run("upsertSiteCustomCode", {
        siteId: site,
        scripts: [{ id: "cms_slider", version: "1.0.0", location: "header", attributes: { defer: "true" } }, { id: "hello_banner", version: "0.1.0", location: "footer" }]
      })
      expect(applied.scripts).toEqual([
        { id: "cms_slider", version: "1.0.0", location: "header", attributes: { defer: "true" } },
        { id: "hello_banner", version: "0.1.0", location: "footer", attributes: {} }
      ])
      expect(yield* run("getSiteCustomCode", { siteId: site })).toMatchObject({ scripts: applied.scripts, lastUpdated: expect.stringMatching(/^\d{4}-/) })
      yield* run("upsertPageCustomCode", { siteId: site, pageId: seed.pages.about, scripts: [{ id: "analytics", version: "2.0.0-beta.1", location: "footer" }] })
      expect((yield* run("getPageCustomCode", { pageId: seed.pages.about })).scripts).toEqual([{ id: "analytics", version: "2.0.0-beta.1", location: "footer", attributes: {} }])
      const { blocks } = yield* run("listCustomCodeBlocks", { siteId: site })
      expect(blocks.map((b: any) => [b.type, b.pageId, b.scripts.map((s: any) => s.id)])).toEqual([
        ["site", null, ["cms_slider", "hello_banner"]],
        ["page", seed.pages.about, ["analytics"]]
      ])
      // A version never registered: Webflow's 400.
      const unregistered = yield* Effect.flip(run("upsertSiteCustomCode", { siteId: site, scripts: [{ id: "cms_slider", version: "9.9.9", location: "header" }] }))
      expect(unregistered).toMatchObject({ _tag: "InvalidInput", status: 400 })

      expect(yield* run("deleteSiteCustomCode", { siteId: site })).toEqual({ siteId: site, deleted: true })
      expect(yield* run("deletePageCustomCode", { pageId: seed.pages.about })).toEqual({ pageId: seed.pages.about, deleted: true })
      expect(yield* run("listCustomCodeBlocks", { siteId: site })).toEqual({ blocks: [] })
      // Removed, still registered.
      expect((yield* run("listRegisteredScripts", { siteId: site })).registeredScripts).toHaveLength(3)
    }))

  it.live("the document's limits are checked before any request: name, version, 2000 characters, integrity hash, location, a script twice", () =>
    Effect.gen(function*() {
      const checks = [
        run("registerInlineScript", { siteId: site, displayName: "Too long", version: "1.0.0", sourceCode: "x".repeat(2001) }),
        run("registerInlineScript", { siteId: site, displayName: "Bad-name!", version: "1.0", sourceCode: "1" }),
        run("registerHostedScript", { siteId: site, displayName: "Cdn", version: "1.0.0", hostedLocation: "http://cdn.example.com/a.js", integrityHash: "md5-abc" }),
        run("upsertSiteCustomCode", { siteId: site, scripts: [{ id: "cms_slider", version: "1.0.0", location: "body" }] }),
        run("upsertPageCustomCode", { pageId: seed.pages.about, scripts: [{ id: "cms_slider", version: "1.0.0", location: "header" }, { id: "cms_slider", version: "1.0.0", location: "footer" }] })
      ]
      const { requests, value } = yield* counted(Effect.forEach(checks, (check) => Effect.flip(check)))
      expect(value.map((e: any) => e.issues.map((i: any) => i.path))).toEqual([
        ["sourceCode"],
        ["displayName", "version"],
        ["hostedLocation", "integrityHash"],
        ["scripts[0].location"],
        ["scripts[1].id"]
      ])
      expect(requests).toBe(0)
      // A token without custom_code:write: Webflow's 403, typed.
      const readOnly = { ...simulation.values, accessToken: simulation.sim.issueToken(["sites:read", "custom_code:read"]) }
      const denied = yield* Effect.flip(run("deleteSiteCustomCode", { siteId: site }, readOnly))
      expect(denied).toMatchObject({ _tag: "PermissionDenied", missingScopes: ["custom_code:write"] })
    }))
})
