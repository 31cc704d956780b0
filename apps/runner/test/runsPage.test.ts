/**
 * The runs page in a real headless browser: Debian's Chromium (`/usr/bin/chromium`, which
 * `.ci/run` installs where it is missing) driven by playwright-core, against the built bin's
 * `serve --sandbox` and `ui`. The list shows the sandbox demo's runs; a filter and a search
 * narrow it; a run's timeline shows a loop's iterations (expanded with the keyboard) and a
 * skipped branch; a failed run retried from the page turns `succeeded` through the page's live
 * stream, without a reload; with a token set (`ui`, on 127.0.0.1) the page refuses its data
 * without it, sends the browser to its login form, and answers with it; a card named
 * `<img src=x onerror=alert(1)>` is text and no script runs; Tab
 * reaches every filter, paging button, run link, expand button and action; a run with a
 * 1,000-iteration loop opens. With XRUNNER_SCREENSHOTS=1 the list and a run are saved into
 * docs/ (the README shows them), else into a temporary directory.
 *
 * Every wait is for a condition (the stall bound of bin.ts), never for a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core"
import { freePort, runner, type Served, served, stallMs, writesSent } from "./bin.js"

const fixtures = fileURLToPath(new URL("fixtures/runsPage/", import.meta.url))
const demo = fileURLToPath(new URL("../examples/demo.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-runs-page-"))
const screenshots = process.env["XRUNNER_SCREENSHOTS"] === "1" ? fileURLToPath(new URL("../docs/", import.meta.url)) : join(dir, "screenshots")
mkdirSync(screenshots, { recursive: true })

const xssName = "<img src=x onerror=alert(1)>"
const bearer = { authorization: "Bearer sandbox-http-token" }

let browser: Browser

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    timeout: stallMs
  })
})

afterAll(async () => {
  await browser?.close()
})

/** Polls `probe` until `done` holds of what it answers (or the stall bound), answering that. */
const until = async <A>(what: string, probe: () => Promise<A>, done: (value: A) => boolean): Promise<A> => {
  const started = Date.now()
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() - started > stallMs) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * A page of its own (a fresh context: no cookie of another test), 1280×800, given to `use` and
 * closed after. A dialog (what `alert(1)` would open) or an uncaught script error fails the test.
 */
const withPage = async (use: (page: Page) => Promise<void>, options: BrowserContextOptions = {}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options })
  const page = await context.newPage()
  page.setDefaultTimeout(stallMs)
  const dialogs: Array<string> = []
  const errors: Array<string> = []
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on("pageerror", (error) => errors.push(error.message))
  try {
    await use(page)
  } finally {
    await context.close()
  }
  expect(dialogs, "no dialog opens").toEqual([])
  expect(errors, "no script error").toEqual([])
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`)

/** The run ids of the list's rows, in order. */
const listedIds = (page: Page) =>
  page.locator(`[data-testid^="run-row-"]`).evaluateAll((rows) => [...new Set(rows.map((row) => row.getAttribute("data-testid")!.slice("run-row-".length)))])

/** Waits until the list holds exactly these runs (in any order). */
const listedExactly = (page: Page, what: string, ids: ReadonlyArray<string>) =>
  until(what, () => listedIds(page), (listed) => listed.length === ids.length && ids.every((id) => listed.includes(id)))

/** What identifies the focused element: its own data-testid, else `in:` its nearest ancestor's (a run id's link in its row). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement
    if (active === null || active === document.body) return null
    const own = active.getAttribute("data-testid")
    if (own !== null) return own
    const holder = active.closest("[data-testid]")
    return holder === null ? `<${active.tagName.toLowerCase()}>` : `in:${holder.getAttribute("data-testid")}`
  })

/** Presses Tab from the top of the page until focus comes round again (or 400 presses), answering what each reached. */
const tabbedThrough = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const reached: Array<string> = []
  for (let press = 0; press < 400; press++) {
    await page.keyboard.press("Tab")
    const now = await focused(page)
    if (now === null) {
      if (reached.length > 0) break
      continue
    }
    if (reached.length > 0 && now === reached[0]) break
    reached.push(now)
  }
  return reached
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, name) })

/** The run `x-runner run` recorded, from its last line. */
const recordedRun = (stderr: string) => {
  const id = /recorded as run ([0-9a-f]+)/.exec(stderr)?.[1]
  if (id === undefined) throw new Error(`no run recorded:\n${stderr}`)
  return id
}

describe("the runs page in Chromium, on serve --sandbox", () => {
  const dataDir = join(dir, "data")
  let server: Served
  let base: string
  const runs = {
    demo: [] as Array<string>,
    ticks: [] as Array<string>,
    thousand: "",
    flaky: "",
    unsure: "",
    launch: "",
    xss: ""
  }

  /** POSTs this body to a served fixture's URL: its run's id. */
  const started = async (workflow: string, body: unknown) => {
    const response = await fetch(`${base}/hooks/${workflow}`, { method: "POST", headers: { "content-type": "application/json", ...bearer }, body: JSON.stringify(body) })
    expect(response.status, await response.clone().text()).toBe(202)
    return ((await response.json()) as { runId: string }).runId
  }
  /** Waits until serve says the run ended, answering how. */
  const ended = async (runId: string) => {
    const line = new RegExp(`■ event \\S+ (\\w+) \\(run ${runId}\\)`)
    await server.waitFor(line)
    return line.exec(server.log())![1]
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    const start = async () => {
      server = served([
        "serve", fixtures, "--sandbox", "--data-dir", dataDir, "--public-url", `${base}/hooks`, "--port", String(port),
        // flaky's comment fails: the client's own retries of a 503 use up the five, so its run fails, and a retry succeeds.
        "--sandbox-fault", "boardtool POST /1/cards/{id}/actions/comments 503 x5",
        // unsure's checklist, once its write marker is committed, is answered 503 with a minute to wait, five times.
        "--sandbox-fault", "boardtool POST /1/cards/{id}/checklists 503 x5 retry-after=60"
      ])
      await server.ready(`● serving http/v1/request at ${base}/hooks/unsure`)
    }
    await start()
    // The oldest runs: enough that the list has a second page.
    for (let tick = 0; tick < 48; tick++) runs.ticks.push(await started("ticks", {}))
    expect(await Promise.all(runs.ticks.map(ended))).toEqual(runs.ticks.map(() => "succeeded"))
    // The sandbox demo twice, recorded by `x-runner run` in serve's data directory, the 1,000-iteration
    // loop, and unsure's run until its step may have sent its write.
    const unsure = async () => {
      runs.unsure = await started("unsure", {})
      await until("unsure's write marker", async () => writesSent(dataDir), (sent) => sent.includes(`${runs.unsure}:checklist`))
    }
    const [first, second, thousand] = await Promise.all([
      runner(["run", demo, "--sandbox", "--data-dir", dataDir]),
      runner(["run", demo, "--sandbox", "--data-dir", dataDir]),
      runner(["run", join(fixtures, "thousand.json"), "--data-dir", dataDir, "--input", `commas=${",".repeat(999)}`]),
      unsure()
    ])
    for (const ran of [first!, second!, thousand!]) expect(ran.code, ran.stderr).toBe(0)
    runs.demo.push(recordedRun(first!.stderr), recordedRun(second!.stderr))
    runs.thousand = recordedRun(thousand!.stderr)
    // Killed while the step waits out the 503: the next serve finds its marker and no result, and
    // createChecklist cannot look for what it made, so the step is unknown (for a person).
    server.child.kill("SIGKILL")
    await server.exited
    await start()
    runs.flaky = await started("flaky", { name: "first" })
    runs.launch = await started("timeline", { name: "Launch plan", items: ["Write the brief", "Book the venue", "Send the invites"] })
    runs.xss = await started("timeline", { name: xssName, items: ["Read the name"] })
    expect({
      flaky: await ended(runs.flaky),
      unsure: await ended(runs.unsure),
      launch: await ended(runs.launch),
      xss: await ended(runs.xss)
    }).toEqual({ flaky: "failed", unsure: "unknown", launch: "succeeded", xss: "succeeded" })
  })

  afterAll(async () => {
    server?.child.kill("SIGTERM")
    await server?.exited
  })

  it("the list shows the runs, the sandbox demo's among them, newest first, a page at a time", async () => {
    await withPage(async (page) => {
      const response = await page.goto(`${base}/runs`)
      expect(response?.status()).toBe(200)
      await byTestId(page, "runs-table").waitFor()
      // Newest first: the served runs, the demo's and the loop's (all after the ticks).
      const newest = [runs.xss, runs.launch, runs.unsure, runs.flaky, runs.thousand, ...runs.demo]
      const listed = await until("the first page", () => listedIds(page), (ids) => ids.length >= newest.length && newest.every((id) => ids.includes(id)))
      expect([...listed.slice(0, newest.length)].sort()).toEqual([...newest].sort())
      const demoRow = await byTestId(page, `run-row-${runs.demo[0]}`).innerText()
      expect(demoRow).toContain("demo")
      expect(demoRow).toContain("succeeded")
      expect(await byTestId(page, `run-row-${runs.flaky}`).innerText()).toContain("failed")
      expect(await byTestId(page, `run-row-${runs.unsure}`).innerText()).toContain("unknown")
      await byTestId(page, "chart").locator("canvas").first().waitFor()
      await screenshot(page, "runs-list.png")
      // Older: the first runs (the ticks posted first), none of the first page again.
      const firstPage = listed
      await byTestId(page, "page-older").click()
      const older = await until("the older page", () => listedIds(page), (ids) => ids.length > 0 && !ids.includes(runs.xss))
      expect(older.filter((id) => firstPage.includes(id))).toEqual([])
      expect(older).toContain(runs.ticks[0])
      await byTestId(page, "page-newer").click()
      await until("the first page again", () => listedIds(page), (ids) => ids.includes(runs.xss))
    })
  })

  it("a filter by workflow and by status, and a search in the runs' data, narrow the list", async () => {
    await withPage(async (page) => {
      await page.goto(`${base}/runs`)
      await until("the list", () => listedIds(page), (ids) => ids.includes(runs.xss))
      await byTestId(page, "filter-workflow").selectOption("timeline")
      await listedExactly(page, "the timeline runs", [runs.launch, runs.xss])
      await byTestId(page, "filter-workflow").selectOption("")
      await byTestId(page, "filter-status").selectOption("unknown")
      await listedExactly(page, "the unknown run", [runs.unsure])
      await byTestId(page, "filter-status").selectOption("")
      await until("every run again", () => listedIds(page), (ids) => ids.includes(runs.xss) && ids.includes(runs.demo[1]!))
      // Only the launch plan's loop had this item: in its trigger event and in its steps' input.
      await byTestId(page, "filter-search").fill("the VENUE")
      await byTestId(page, "filter-search").press("Enter")
      await listedExactly(page, "the run whose data holds the search", [runs.launch])
    })
  })

  it("a run's timeline: its trigger event, the loop's iterations once expanded with the keyboard, the branch not taken skipped", async () => {
    await withPage(async (page) => {
      await page.goto(`${base}/runs/${runs.launch}`)
      await byTestId(page, "run-view").waitFor()
      await byTestId(page, "timeline").waitFor()
      expect(await byTestId(page, "run-status").innerText()).toContain("succeeded")
      expect(await byTestId(page, "trigger-event").innerText()).toContain("Book the venue")
      expect(await byTestId(page, "task-urgent").innerText()).toContain("skipped")
      const loop = byTestId(page, "task-each")
      expect(await loop.innerText()).toMatch(/\b3\b/)
      const expand = byTestId(page, "expand-each")
      expect(await expand.getAttribute("aria-expanded")).toBe("false")
      expect(await byTestId(page, "task-each[1].itemCard").isVisible()).toBe(false)
      await expand.focus()
      await page.keyboard.press("Enter")
      await until("the loop expanded", () => expand.getAttribute("aria-expanded"), (expanded) => expanded === "true")
      for (const [index, item] of ["Write the brief", "Book the venue", "Send the invites"].entries()) {
        const iteration = byTestId(page, `task-each[${index}].itemCard`)
        await iteration.waitFor()
        expect(await iteration.innerText()).toContain("succeeded")
        expect(await byTestId(page, "run-view").innerText()).toContain(item)
      }
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await screenshot(page, "run.png")
    })
  })

  it("a card named <img src=x onerror=alert(1)> is text: no element made of it, no script run, a strict CSP", async () => {
    await withPage(async (page) => {
      const response = await page.goto(`${base}/runs/${runs.xss}`)
      const policy = response?.headers()["content-security-policy"] ?? ""
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain("script-src 'self'")
      expect(response?.headers()["x-content-type-options"]).toBe("nosniff")
      await byTestId(page, "run-view").waitFor()
      await until("the card's name shown", () => byTestId(page, "run-view").innerText(), (text) => text.includes(xssName))
      expect(await byTestId(page, "trigger-event").innerText()).toContain(xssName)
      // The card's step opened: its input and output hold the name.
      await byTestId(page, "task-card").locator("summary").first().click()
      await until("the card's output", () => byTestId(page, "task-card").innerText(), (text) => text.split(xssName).length - 1 >= 2)
      expect(await page.locator(`img[src="x"]`).count()).toBe(0)
      expect(await page.evaluate(() => [...document.querySelectorAll("[onerror]")].length)).toBe(0)
      // The list of this workflow's runs renders it as well as the run view: still no element.
      await page.goto(`${base}/runs`)
      await until("the list", () => listedIds(page), (ids) => ids.includes(runs.xss))
      expect(await page.locator(`img[src="x"]`).count()).toBe(0)
    })
  })

  it("the keyboard reaches every filter, the paging buttons, the run links, the expand buttons, Retry and Mark done", async () => {
    await withPage(async (page) => {
      await page.goto(`${base}/runs`)
      await until("the list", () => listedIds(page), (ids) => ids.includes(runs.xss))
      const list = await tabbedThrough(page)
      for (const id of ["filter-workflow", "filter-status", "filter-from", "filter-to", "filter-search", "page-older"]) expect(list, id).toContain(id)
      for (const run of [runs.xss, runs.unsure, runs.demo[0]!]) expect(list, run).toContain(`in:run-row-${run}`)
      // Newer is there on the older page.
      await byTestId(page, "page-older").focus()
      await page.keyboard.press("Enter")
      await until("the older page", () => listedIds(page), (ids) => ids.length > 0 && !ids.includes(runs.xss))
      expect(await tabbedThrough(page)).toContain("page-newer")

      // A run's link, followed with Enter, opens its view; there Tab reaches its actions.
      await page.goto(`${base}/runs`)
      await until("the list", () => listedIds(page), (ids) => ids.includes(runs.unsure))
      await byTestId(page, `run-row-${runs.unsure}`).locator("a").first().focus()
      await page.keyboard.press("Enter")
      await byTestId(page, "run-view").waitFor()
      await byTestId(page, "action-retry").waitFor()
      const unsure = await tabbedThrough(page)
      for (const id of ["action-retry", "action-done-checklist", "done-output-checklist"]) expect(unsure, id).toContain(id)

      await page.goto(`${base}/runs/${runs.launch}`)
      await byTestId(page, "expand-each").waitFor()
      expect(await tabbedThrough(page)).toContain("expand-each")
    })
  })

  it("a run with a loop of 1,000 iterations opens, its loop row counting them", async () => {
    await withPage(async (page) => {
      await page.goto(`${base}/runs/${runs.thousand}`)
      await byTestId(page, "timeline").waitFor()
      await until("the loop's count", () => byTestId(page, "task-thousand").innerText(), (text) => /\b1[,.\u202f\u00a0 ]?000\b/.test(text))
      await byTestId(page, "expand-thousand").click()
      await byTestId(page, "task-thousand[0].tick").waitFor()
    })
  })

  // Last: it changes the failed run.
  it("a failed run retried from the page shows succeeded without a reload, from the page's live stream", async () => {
    await withPage(async (page) => {
      const streams: Array<string> = []
      page.on("request", (request) => {
        if (request.url().includes("/runs/api/stream")) streams.push(request.url())
      })
      await page.goto(`${base}/runs/${runs.flaky}`)
      await byTestId(page, "run-view").waitFor()
      await until("the failed status", () => byTestId(page, "run-status").innerText(), (text) => text.includes("failed"))
      // A mark on this document: a reload or navigation would lose it.
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
      let navigated = 0
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) navigated++
      })
      // From the click on, the page cannot read the run itself: what it shows next comes from its stream.
      let readsRefused = 0
      await page.route((url) => url.pathname === `/runs/api/runs/${runs.flaky}`, (route) => {
        if (route.request().method() !== "GET") return route.continue()
        readsRefused++
        return route.abort()
      })
      await byTestId(page, "action-retry").click()
      await until("the retried run's success", () => byTestId(page, "run-status").innerText(), (text) => text.includes("succeeded"))
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
      expect(navigated).toBe(0)
      expect(streams.some((url) => url.includes(`run=${runs.flaky}`)), streams.join(", ")).toBe(true)
      expect(readsRefused, "the page asked for the run after its action").toBeGreaterThan(0)
      expect(await byTestId(page, "task-note").innerText()).toContain("succeeded")
    })
  })
})

describe("the runs page in Chromium, with a token (x-runner ui)", () => {
  const token = "a-runs-page-token-for-the-test"
  let ui: Served
  let base: string
  let demoRun: string

  beforeAll(async () => {
    const dataDir = join(dir, "ui-data")
    const ran = await runner(["run", demo, "--sandbox", "--data-dir", dataDir])
    expect(ran.code, ran.stderr).toBe(0)
    demoRun = recordedRun(ran.stderr)
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    ui = served(["ui", "--data-dir", dataDir, "--port", String(port)], { XRUNNER_UI_TOKEN: token })
    await ui.ready(`${base}/runs`)
  })

  afterAll(async () => {
    ui?.child.kill("SIGTERM")
    await ui?.exited
  })

  it("refuses a request without the token (or with another), sends the page to its login form, and answers with the token", async () => {
    // The data refused; the page itself sends to the login form.
    for (const path of ["/runs/api/runs", `/runs/api/runs/${demoRun}`, "/runs/api/chart?hours=6", "/runs/api/stream"]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(401)
      expect((await fetch(`${base}${path}`, { headers: { authorization: "Bearer not-the-token" } })).status, path).toBe(401)
    }
    for (const path of ["/runs", `/runs/${demoRun}`]) {
      const page = await fetch(`${base}${path}`, { redirect: "manual" })
      expect([page.status, page.headers.get("location")], path).toEqual([303, "/runs/login"])
    }
    const listed = await fetch(`${base}/runs/api/runs`, { headers: { authorization: `Bearer ${token}` } })
    expect(listed.status).toBe(200)
    expect(((await listed.json()) as { runs: Array<{ id: string }> }).runs.map((run) => run.id)).toEqual([demoRun])
    await withPage(async (page) => {
      await page.goto(`${base}/runs`)
      expect(new URL(page.url()).pathname).toBe("/runs/login")
      await page.locator("input[type=password]").waitFor()
      expect(await byTestId(page, "runs-table").count()).toBe(0)
      expect(await page.content()).not.toContain(demoRun)
    })
    // With the token on every request (as a script or a proxy in front would send it): the list, live.
    await withPage(async (page) => {
      await page.goto(`${base}/runs`)
      await until("the list with the token", () => listedIds(page), (ids) => ids.includes(demoRun))
      await until("the live stream", () => page.locator("#live-state").innerText(), (text) => text.includes("Live"))
    }, { extraHTTPHeaders: { authorization: `Bearer ${token}` } })
    expect(ui.log()).not.toContain(token)
  })

  it("the login form: a wrong token said so, the right one signs in (an HttpOnly, SameSite=Strict cookie that is not the token)", async () => {
    await withPage(async (page) => {
      await page.goto(`${base}/runs`)
      expect(new URL(page.url()).pathname).toBe("/runs/login")
      const field = page.locator("input[type=password]")
      await field.fill("not-the-token")
      await field.press("Enter")
      await byTestId(page, "login-refused").waitFor()
      await field.fill(token)
      await field.press("Enter")
      await until("the list after the login", () => listedIds(page), (ids) => ids.includes(demoRun))
      const cookies = await page.context().cookies()
      expect(cookies.length).toBeGreaterThan(0)
      for (const cookie of cookies) {
        expect(cookie.value).not.toContain(token)
        expect(cookie.httpOnly).toBe(true)
        expect(cookie.sameSite).toBe("Strict")
      }
      expect(await page.content()).not.toContain(token)
    })
    expect(ui.log()).not.toContain(token)
  })
})
