import { describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as BrowserUseSimulator from "@x/browseragent/testing"
import { sitebuilder } from "@x/sitebuilder"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, freePort, runner, spawn } from "./bin.js"



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
    // Listened for from the start: the child may end before the page's answer is read here.
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
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
    const code = await exited
    expect(code).toBe(0)
    const stored = JSON.parse(readFileSync(file, "utf8"))
    expect(stored.sitebuilder.accessToken).toMatch(/^[0-9a-f]{64}$/)
    expect(stored.sitebuilder.clientId).toBe(sim.clientId)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // Every scope the component's actions and triggers declare, asked for and granted.
    expect(stderr).toContain(`Connected sitebuilder (scopes: ${sitebuilder.connection.oauth2!.scopes.join(" ")})`)
    // Then the token just written is tested: Webflow's introspection names the app, and nothing lacks.
    expect(stderr).toContain("connection sitebuilder: the credentials work (the app Simulated App, authorized to 1 workspace and")
    expect(stderr).not.toContain("lack")
    expect(sitebuilder.connection.oauth2!.scopes).toEqual(expect.arrayContaining(["cms:write", "ecommerce:write", "sites:write"]))
    expect(stderr + stdout).not.toContain(stored.sitebuilder.accessToken)
    expect(stderr + stdout).not.toContain(sim.clientSecret)
    await sim.close()
  })

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
    expect(notOAuth.stderr).toContain("x-runner connect boardtool --test")
    const noApp = await run(["connect", "sitebuilder", "--connections", file])
    expect(noApp.code).toBe(2)
    expect(noApp.stderr).toContain("put {\"sitebuilder\": {\"clientId\": …, \"clientSecret\": …}}")
  })
})

describe("x-runner connect --test", () => {
  it("boardtool: a wrong token exits 2 naming the connection, Trello's answer and where to put a new one; the right one succeeds; nothing is written", async () => {
    const sim = await TrelloSimulator.start({ key: "connect-key-0123456789", token: "connect-token-0123456789abcdef", rateLimits: false })
    const dir = mkdtempSync(join(tmpdir(), "x-runner-connect-test-"))
    const file = join(dir, "connections.json")
    const written = JSON.stringify({ boardtool: { key: sim.key, token: "wrong-token-0123456789", baseUrl: sim.baseUrl } })
    writeFileSync(file, written)
    try {
      const refused = await runner(["connect", "boardtool", "--test", "--connections", file])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`connection boardtool: ${sim.baseUrl} refused the credentials (GET /members/me: 401 invalid token)`)
      expect(refused.stderr).toContain("https://trello.com/power-ups/admin")
      expect(refused.stderr).toContain(`(set XRUNNER_BOARDTOOL_KEY and XRUNNER_BOARDTOOL_TOKEN, or "key" and "token" under "boardtool" in ${file})`)
      expect(refused.stderr + refused.stdout).not.toContain("wrong-token-0123456789")
      // The variables go over the file, as for run.
      const fixed = await runner(["connect", "boardtool", "--test", "--connections", file], { XRUNNER_BOARDTOOL_TOKEN: sim.token })
      expect(fixed).toMatchObject({ code: 0, stdout: "connection boardtool: the credentials work (Simulated Member (@simulated))\n" })
      expect(readFileSync(file, "utf8")).toBe(written)
    } finally {
      await sim.close()
    }
  })

  it("sitebuilder (OAuth2) and browseragent (an API key): a refused credential says what to do; unreachable exits 1", async () => {
    const webflow = await WebflowSimulator.start({ rateLimit: false })
    const browserUse = await BrowserUseSimulator.start()
    try {
      const token = await runner(["connect", "sitebuilder", "--test"], {
        XRUNNER_SITEBUILDER_CLIENT_ID: webflow.clientId,
        XRUNNER_SITEBUILDER_CLIENT_SECRET: webflow.clientSecret,
        XRUNNER_SITEBUILDER_ACCESS_TOKEN: "0".repeat(64),
        XRUNNER_SITEBUILDER_BASE_URL: webflow.baseUrl
      })
      expect(token.code).toBe(2)
      expect(token.stderr).toContain("connection sitebuilder: ")
      expect(token.stderr).toContain("refused the credentials (GET /token/introspect: 401 Request not authorized)")
      expect(token.stderr).toContain("connect again to get a new one: x-runner connect sitebuilder")
      const key = await runner(["connect", "browseragent", "--test"], { XRUNNER_BROWSERAGENT_VALUE: "bu_wrong", XRUNNER_BROWSERAGENT_BASE_URL: browserUse.baseUrl })
      expect(key.code).toBe(2)
      expect(key.stderr).toContain("connection browseragent: ")
      expect(key.stderr).toContain("(GET /billing/account: 401 Invalid or missing API key)")
      expect(key.stderr).toContain("(set XRUNNER_BROWSERAGENT_VALUE, or \"value\" under \"browseragent\" in a connections file (--connections FILE))")
      const right = await runner(["connect", "browseragent", "--test"], { XRUNNER_BROWSERAGENT_VALUE: browserUse.apiKey, XRUNNER_BROWSERAGENT_BASE_URL: browserUse.baseUrl })
      expect(right).toMatchObject({ code: 0, stdout: `connection browseragent: the credentials work (${browserUse.account.name})\n` })
    } finally {
      await webflow.close()
      await browserUse.close()
    }
    // Nothing listens on port 9 (discard): the provider is unreachable, not the credentials wrong.
    const unreachable = await runner(["connect", "boardtool", "--test"], {
      XRUNNER_BOARDTOOL_KEY: "key",
      XRUNNER_BOARDTOOL_TOKEN: "token",
      XRUNNER_BOARDTOOL_BASE_URL: "http://127.0.0.1:9/1"
    })
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain("connection boardtool: http://127.0.0.1:9/1 could not be reached (GET /members/me: ")
  })

  it("the sandbox's connections work (sitebuilder's token has every scope the actions need)", async () => {
    for (const name of ["boardtool", "sitebuilder"]) {
      const tested = await runner(["connect", name, "--test", "--sandbox"])
      expect(tested.code).toBe(0)
      expect(tested.stdout).toMatch(new RegExp(`^connection ${name}: the credentials work \\(.+\\)\\n$`))
    }
    const alone = await runner(["connect", "boardtool", "--sandbox"])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain("add --test")
  })
})
