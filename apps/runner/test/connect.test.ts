import { describe, expect, it } from "@effect/vitest"
import { sitebuilder } from "@x/sitebuilder"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, freePort, spawn } from "./bin.js"



describe("x-runner connect", () => {
  it("the OAuth flow against the simulator: URL printed, callback served, state checked, token stored 0600", async () => {
    const sim = await WebflowSimulator.start()
    const dir = mkdtempSync(join(tmpdir(), "x-runner-connect-"))
    const file = join(dir, "connections.json")
    writeFileSync(file, JSON.stringify({
      sitebuilder: {
        clientId: sim.clientId,
        clientSecret: sim.clientSecret,
        authorizeUrl: sim.authorizeUrl,
        tokenUrl: sim.tokenUrl,
        baseUrl: sim.baseUrl
      }
    }))
    const port = await freePort()
    const child = spawn(process.execPath, [cli, "connect", "sitebuilder", "--connections", file, "--app-url", `http://127.0.0.1:${port}`])
    let stderr = ""
    let stdout = ""
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()))
    const url = await new Promise<string>((resolve) => {
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString()
        const match = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\S+)/.exec(stderr)
        if (match !== null) resolve(match[1]!)
      })
    })
    expect(new URL(url).searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${port}/callback`)
    // The browser: the simulator consents and redirects to the runner's callback.
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Received")
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
    expect(code).toBe(0)
    const stored = JSON.parse(readFileSync(file, "utf8"))
    expect(stored.sitebuilder.accessToken).toMatch(/^[0-9a-f]{64}$/)
    expect(stored.sitebuilder.clientId).toBe(sim.clientId)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // Every scope the component's actions and triggers declare, asked for and granted.
    expect(stderr).toContain(`Connected sitebuilder (scopes: ${sitebuilder.connection.oauth2!.scopes.join(" ")})`)
    expect(sitebuilder.connection.oauth2!.scopes).toEqual(expect.arrayContaining(["cms:write", "ecommerce:write", "sites:write"]))
    expect(stderr + stdout).not.toContain(stored.sitebuilder.accessToken)
    expect(stderr + stdout).not.toContain(sim.clientSecret)
    await sim.close()
  }, 30_000)

  it("refuses a component without OAuth2, and a connections file without the app's credentials", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-connect-"))
    const file = join(dir, "connections.json")
    writeFileSync(file, "{}")
    const run = (args: Array<string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [cli, ...args])
        let stderr = ""
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
        child.on("exit", (code) => resolve({ code, stderr }))
      })
    const notOAuth = await run(["connect", "boardtool", "--connections", file])
    expect(notOAuth).toMatchObject({ code: 2 })
    expect(notOAuth.stderr).toContain("\"boardtool\" does not connect with OAuth2; these do: sitebuilder")
    const noApp = await run(["connect", "sitebuilder", "--connections", file])
    expect(noApp.code).toBe(2)
    expect(noApp.stderr).toContain("put {\"sitebuilder\": {\"clientId\": …, \"clientSecret\": …}}")
  }, 30_000)
})
