/**
 * The runs page's files as the runner carries them: `scripts/page-assets.mjs` (the first step of
 * the build) writes them and uPlot's into `src/page/internal/assets.ts`, which tsc, vitest and the
 * bundle all read. The module holds the files as they are now (an edit without a build would
 * serve the old page), each with its type and an ETag that is its digest; uPlot travels with its
 * licence. And the page keeps the rules its Content-Security-Policy and the XSS rule set: no
 * inline script, event handler or style attribute, nothing loaded from another site, and a
 * script that never writes HTML (every value goes in as text).
 */
import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { assets } from "../src/page/internal/assets.js"

const own = (name: string) => readFileSync(fileURLToPath(new URL(`../src/page/assets/${name}`, import.meta.url)), "utf8")
const uplot = (name: string) => readFileSync(fileURLToPath(new URL(`../node_modules/uplot/${name}`, import.meta.url)), "utf8")
const body = (name: string) => assets.get(name)?.body ?? ""

describe("The runs page's assets", () => {
  it("are the page's files as they are now and uPlot's with its licence, each with its type and its digest as ETag", () => {
    expect([...assets.keys()].sort()).toEqual(["index.html", "page.css", "page.js", "uplot.css", "uplot.js"])
    for (const name of ["index.html", "page.js", "page.css"]) expect(body(name), `${name}: run the runner's build again`).toBe(own(name))
    expect(body("uplot.js").endsWith(uplot("dist/uPlot.iife.min.js"))).toBe(true)
    expect(body("uplot.js")).toContain(uplot("LICENSE").split("\n").find((line) => line.startsWith("Copyright"))!)
    expect(body("uplot.css")).toBe(uplot("dist/uPlot.min.css"))
    const types = Object.fromEntries([...assets].map(([name, asset]) => [name, asset.contentType]))
    expect(types).toEqual({
      "index.html": "text/html; charset=utf-8",
      "page.js": "text/javascript; charset=utf-8",
      "page.css": "text/css; charset=utf-8",
      "uplot.js": "text/javascript; charset=utf-8",
      "uplot.css": "text/css; charset=utf-8"
    })
    for (const [name, asset] of assets) {
      expect(asset.etag, name).toBe(`"${createHash("sha256").update(asset.body).digest("base64url").slice(0, 27)}"`)
    }
    // The server fills in the CSRF token: the shell has the one place for it.
    expect(body("index.html").match(/__CSRF__/g)).toHaveLength(1)
  })

  it("hold no inline script, handler or style, load nothing from elsewhere, and write no HTML from script", () => {
    const html = body("index.html")
    // Every <script> has a src (the CSP's script-src 'self' would refuse an inline one).
    expect(html.match(/<script\b(?![^>]*\bsrc=)[^>]*>/gi) ?? []).toEqual([])
    expect(html.match(/\son[a-z]+\s*=/gi) ?? []).toEqual([])
    expect(html.match(/\sstyle\s*=/gi) ?? []).toEqual([])
    const addresses = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!)
    expect(addresses.filter((address) => !/^(\/runs(\/assets\/[\w.]+)?|#main|data:,)$/.test(address))).toEqual([])

    const script = body("page.js")
    // Named at all, not only assigned: `el("div", { innerHTML: x })` would set it through el's properties.
    expect(script.match(/\b(innerHTML|outerHTML|insertAdjacentHTML|srcdoc)\b/g) ?? []).toEqual([])
    expect(script.match(/\b(document\.write|eval|Function)\b\s*[(=]/g) ?? []).toEqual([])
    expect(script.match(/setAttribute\(\s*["']style/g) ?? []).toEqual([])
    expect(script.match(/https?:\/\//g) ?? []).toEqual([])
    expect(body("page.css").match(/@import|url\(/g) ?? []).toEqual([])
  })
})
