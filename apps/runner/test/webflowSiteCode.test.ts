/**
 * sitebuilder/v1's redirects, custom code and site submissions through the runner, from the
 * built bundle: a workflow file run with `x-runner run --sandbox` (the Webflow simulator)
 * creates a redirect and lists it, registers an inline script and applies it to the site from
 * the registration's output, reads the site's custom code back and lists a form's submissions
 * by site; and a script over Webflow's 2000 characters stops the run at its check (exit 2,
 * naming the parameter) before any step runs.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner, type RunDocument } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-webflow-site-code-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The simulator's seeded store site, and its Newsletter form's element.
const store = "5eed00000000000000000001"
const newsletterElement = "4e038d2c-6a1e-4953-7be9-a59a2b453178"

const workflow = (file: string, sourceCode: string) => {
  const path = join(dir, file)
  writeFileSync(path, JSON.stringify({
    label: "Redirects, custom code and submissions",
    inputs: { store },
    tasks: [
      { label: "Redirect the old pricing page", name: "redirect", type: "sitebuilder/v1/createRedirect", parameters: { siteId: "${inputs.store}", fromUrl: "/pricing-2025", toUrl: "/pricing" } },
      { label: "The site's redirects", name: "redirects", type: "sitebuilder/v1/listRedirects", parameters: { siteId: "${inputs.store}" } },
      { label: "Register a banner script", name: "script", type: "sitebuilder/v1/registerInlineScript", parameters: { siteId: "${inputs.store}", displayName: "Sale Banner", version: "1.0.0", sourceCode } },
      {
        label: "Apply it to every page, in the footer",
        name: "applied",
        type: "sitebuilder/v1/upsertSiteCustomCode",
        parameters: { siteId: "${inputs.store}", scripts: [{ id: "${script.id}", version: "${script.version}", location: "footer", attributes: { async: "true" } }] }
      },
      { label: "Read the site's custom code", name: "siteCode", type: "sitebuilder/v1/getSiteCustomCode", parameters: { siteId: "${inputs.store}" } },
      { label: "The newsletter's submissions", name: "submissions", type: "sitebuilder/v1/listSiteFormSubmissions", parameters: { siteId: "${inputs.store}", elementId: newsletterElement, limit: 150 } }
    ]
  }))
  return path
}

describe("x-runner run --sandbox: redirects, custom code and site submissions", () => {
  it("creates and lists a redirect, registers and applies a script, lists a form's submissions by site", async () => {
    const { code, stderr, stdout } = await runner(["run", workflow("site-code.json", "document.body.dataset.sale = 'on'"), "--sandbox", "--output", "json"])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    expect(document.status).toBe("succeeded")
    const output = (name: string) => document.steps.find((step) => step.name === name)!.output
    expect(output("redirect")).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), fromUrl: "/pricing-2025", toUrl: "/pricing" })
    expect(output("redirects").redirects.map((r: { fromUrl: string; toUrl: string }) => `${r.fromUrl} → ${r.toUrl}`)).toEqual([
      "/mostly-harmless → /earth", "/babel-fish → /translate", "/pricing-2025 → /pricing"
    ])
    expect(output("script")).toMatchObject({ id: "sale_banner", displayName: "Sale Banner", version: "1.0.0", canCopy: false })
    expect(output("applied").scripts).toEqual([{ id: "sale_banner", version: "1.0.0", location: "footer", attributes: { async: "true" } }])
    expect(output("siteCode")).toMatchObject({ scripts: output("applied").scripts, lastUpdated: expect.stringMatching(/^\d{4}-/) })
    const submissions = output("submissions").formSubmissions
    expect(submissions).toHaveLength(120)
    expect(submissions[119]).toMatchObject({ displayName: "Newsletter", formResponse: { Email: "reader120@example.com" } })
  })

  it("an inline script over 2000 characters stops the run at its check, naming the parameter; no step runs", async () => {
    const { code, stderr, stdout } = await runner(["run", workflow("too-long.json", "x".repeat(2001)), "--sandbox", "--output", "json"])
    expect(code).toBe(2)
    expect(stderr).toContain("tasks[2].parameters.sourceCode: must be at most 2000 characters long")
    expect(stdout).not.toContain("/pricing-2025")
  })
})
