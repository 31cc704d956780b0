/**
 * The runs page's server, at the HTTP level: its handler in this process on a real store (each
 * refusal: no token beyond loopback, a missing or wrong token, a foreign Host or a proxy's
 * headers on loopback, a POST without the CSRF header or from another site, a path with dot or
 * empty segments, a body over 1 MB; the login cookie's week and sign-out; the safety headers on
 * every answer; the API's shapes; retry and mark-done and their refusals; the live stream on the
 * TestClock, and its resync after a burst), and the bundle's commands: `ui` on runs `x-runner
 * run` made, `serve` serving the page (a run retried there runs again), a webhook under /runs
 * refused, and `runs retry --done`.
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { mkdtempSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as RunsPage from "../src/page/RunsPage.js"
import * as Database from "../src/store/Database.js"
import * as RunStore from "../src/store/RunStore.js"
import { freePort, runner, served } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url))
const token = "page-token-0123456789abcdef"

const storeLayer = (dataDir: string) =>
  RunStore.layer.pipe(Layer.provide(Database.layer({ _tag: "Embedded", dataDir })), Layer.provide(NodeContext.layer))

/** A store on its own data directory, for one test (closed at its end). */
const freshStore = () => Layer.orDie(storeLayer(mkdtempSync(join(tmpdir(), "x-runner-page-"))))

/** Runs something on the store of a data directory, then closes it (a bundle reads it next). */
const onStore = <A>(dataDir: string, use: (store: RunStore.RunStore) => Effect.Effect<A, RunStore.StoreFailed>) =>
  Effect.runPromise(Effect.flatMap(RunStore.RunStore, use).pipe(Effect.provide(storeLayer(dataDir))))

/** A run of serve as the engine leaves it: accepted, started, its steps, ended (or not) with this status. */
const servedRun = (store: RunStore.RunStore, run: {
  readonly workflow: string
  readonly event: string
  readonly output?: unknown
  readonly steps: ReadonlyArray<RunStore.Step>
  readonly status: RunStore.RunStatus
  readonly failedStep?: string
}) =>
  Effect.gen(function*() {
    const { runId } = yield* store.accept(run.workflow, { id: run.event, output: run.output ?? { id: run.event } })
    if (run.status === "accepted") return runId
    yield* store.runStarted(runId, 0, "runner-a")
    for (const step of run.steps) {
      if (step.status === "unknown") yield* store.writeSent(runId, { path: step.path, name: step.name, type: step.type, attempt: 1 })
      yield* store.stepFinished(runId, step)
    }
    if (run.status !== "running") yield* store.runFinished(runId, 0, run.status, run.failedStep)
    return runId
  })

/** Each step made starts after the one before (a run's steps are listed in the order they started). */
let started = 1_700_000_000_000
const action = (path: string, status: RunStore.StepStatus, extra: Partial<RunStore.Step> = {}): RunStore.Step => ({
  path,
  name: path.split(".").at(-1)!,
  kind: "action",
  type: "boardtool/v1/addComment",
  status,
  input: { text: `for ${path}` },
  startedAt: started += 100,
  durationMs: 12,
  attempts: 1,
  ...extra
})

/** Every answer under /runs: this policy, nosniff, no referrer, and a JSON or HTML type (or an event stream, or an asset's). */
const expectSafe = (response: HttpServerResponse.HttpServerResponse) => {
  expect(response.headers["content-security-policy"]).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  )
  expect(response.headers["x-content-type-options"]).toBe("nosniff")
  expect(response.headers["referrer-policy"]).toBe("no-referrer")
  if (response.status !== 304 && response.status !== 303) {
    const type = response.headers["content-type"] ?? (response.body._tag === "Empty" ? undefined : response.body.contentType)
    expect(type).toMatch(/^(application\/json|text\/html|text\/event-stream|text\/javascript|text\/css)/)
  }
}

interface Asked {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: any
}

/** A request to the page's handler, as the server hands it one: its target as sent (no dot segments resolved), Host 127.0.0.1:8790 unless given. */
const ask = (page: RunsPage.RunsPage, path: string, init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string } = {}) =>
  Effect.gen(function*() {
    const web = new Request(`http://127.0.0.1:8790${path}`, { method: init.method ?? "GET", ...(init.body === undefined ? {} : { body: init.body }) })
    const request = HttpServerRequest.fromWeb(web).modify({ url: path, headers: Headers.fromInput({ host: "127.0.0.1:8790", ...init.headers }) })
    const response = yield* Effect.provideService(page.handle, HttpServerRequest.HttpServerRequest, request)
    expectSafe(response)
    const answered = HttpServerResponse.toWeb(response)
    const text = yield* Effect.promise(() => answered.text())
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json } as Asked
  })

/** The page's CSRF value, from its HTML's meta tag. */
const csrfOf = (page: RunsPage.RunsPage, headers: Record<string, string> = {}) =>
  Effect.map(ask(page, "/runs", { headers }), ({ text }) => /<meta name="x-runner-csrf" content="([^"]+)">/.exec(text)![1]!)

const post = (page: RunsPage.RunsPage, path: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(csrfOf(page, headers), (csrf) =>
    ask(page, path, { method: "POST", body: JSON.stringify(body), headers: { "x-xrunner-csrf": csrf, "content-type": "application/json", ...headers } }))

const listedKeys = [
  "acceptedAt", "attempt", "displayStatus", "durationMs", "eventId", "failedStep", "finishedAt", "id", "origin", "runner", "skipped", "startedAt", "status",
  "waitingUntil", "workflow"
]
const stepKeys = ["attempts", "durationMs", "error", "input", "kind", "name", "output", "path", "rateLimitWaitMs", "startedAt", "status", "type", "writeAttempt", "writeSentAt"]

/**
 * What a stream has sent once `seen` holds, looked at between turns of the other fibers (the
 * stream's among them): a bounded count of looks, so a stream that never sends it fails the test
 * at once rather than spinning until the suite's timeout.
 */
const sentOnce = (received: ReadonlyArray<string>, seen: (all: string) => boolean) =>
  Effect.gen(function*() {
    for (let looks = 0; looks < 1_000_000; looks++) {
      const all = received.join("")
      if (seen(all)) return all
      yield* Effect.yieldNow()
    }
    return yield* Effect.die(new Error(`the stream never sent what was awaited; it sent: ${received.join("").slice(-500)}`))
  })

describe("the runs page's server, in process", () => {
  it.scoped("beyond loopback without a token: every path answers 403 saying how to set one", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "0.0.0.0", token: undefined })
      for (const path of ["/runs", "/runs/api/runs", "/runs/0123456789abcdef", "/runs/assets/page.js", "/runs/login", "/runs/nothing"]) {
        const answer = yield* ask(page, path, { headers: { host: "runner.example.com:8790" } })
        expect(answer.status, path).toBe(403)
        expect(answer.text, path).toContain("XRUNNER_UI_TOKEN")
        expect(answer.text, path).toContain("--ui-token-file")
      }
      expect((yield* ask(page, "/runs/api/runs", { headers: { host: "runner.example.com" } })).json.error.tag).toBe("TokenNeeded")
    }).pipe(Effect.provide(freshStore())))

  it.scoped("with a token: none, a wrong one or a wrong cookie is refused; Bearer and the login's cookie (an HMAC, not the token) are taken", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "0.0.0.0", token: Redacted.make(token) })
      const host = { host: "runner.example.com:8790" }
      expect((yield* ask(page, "/runs/api/runs", { headers: host })).status).toBe(401)
      const unsigned = yield* ask(page, "/runs", { headers: host })
      expect([unsigned.status, unsigned.headers["location"]]).toEqual([303, "/runs/login"])
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, authorization: "Bearer page-token-0123456789abcdeX" } })).status).toBe(401)
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, authorization: "Basic cGFnZQ==" } })).status).toBe(401)
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie: `x-runner-runs=${token}` } })).status).toBe(401)
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, authorization: `Bearer ${token}` } })).status).toBe(200)
      // The login form and the page's files hold no data: no token needed.
      expect((yield* ask(page, "/runs/login", { headers: host })).text).toContain(`<form method="post" action="/runs/login">`)
      expect((yield* ask(page, "/runs/assets/page.css", { headers: host })).status).toBe(200)
      const form = { ...host, "content-type": "application/x-www-form-urlencoded" }
      const wrong = yield* ask(page, "/runs/login", { method: "POST", body: "token=not-the-token-at-all", headers: form })
      expect(wrong.status).toBe(401)
      expect(wrong.headers["set-cookie"]).toBeUndefined()
      // A login posted from another site is refused.
      expect((yield* ask(page, "/runs/login", { method: "POST", body: `token=${token}`, headers: { ...form, origin: "http://evil.example" } })).status).toBe(403)
      const signed = yield* ask(page, "/runs/login", { method: "POST", body: `token=${token}`, headers: { ...form, origin: "http://runner.example.com:8790" } })
      expect([signed.status, signed.headers["location"]]).toEqual([303, "/runs"])
      const setCookie = signed.headers["set-cookie"]!
      expect(setCookie).toMatch(/^x-runner-runs=\d+\.[A-Za-z0-9_-]{43}; Max-Age=604800; HttpOnly; SameSite=Strict; Path=\/runs$/)
      expect(setCookie).not.toContain(token)
      const cookie = setCookie.split(";")[0]!
      const listed = yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie: `other=1; ${cookie}` } })
      expect(listed.status).toBe(200)
      expect(listed.json).toEqual({ runs: [], next: null, workflows: [] })
      expect((yield* ask(page, "/runs", { headers: { ...host, cookie } })).status).toBe(200)
      // Its CSRF value is not the token either.
      expect(yield* csrfOf(page, { ...host, cookie })).not.toContain(token)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("on loopback without a token: a foreign Host (DNS rebinding) is refused, loopback names are taken", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      for (const host of ["evil.example:8790", "evil.example", "127.0.0.1.evil.example:8790", "10.0.0.5:8790"]) {
        const answer = yield* ask(page, "/runs/api/runs", { headers: { host } })
        expect([host, answer.status, answer.json.error.tag]).toEqual([host, 403, "ForeignHost"])
      }
      expect((yield* ask(page, "/runs", { headers: { host: "evil.example:8790" } })).status).toBe(403)
      for (const host of ["127.0.0.1:8790", "localhost:8790", "[::1]:8790", "localhost"]) {
        expect((yield* ask(page, "/runs/api/runs", { headers: { host } })).status, host).toBe(200)
      }
    }).pipe(Effect.provide(freshStore())))

  it.scoped("a POST needs the page's CSRF header, and is refused from another origin or site", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      const path = "/runs/api/runs/0123456789abcdef/retry"
      const csrf = yield* csrfOf(page)
      const refused = (answer: Asked) => [answer.status, answer.json.error.tag]
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}" }))).toEqual([403, "CrossSite"])
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": "forged" } }))).toEqual([403, "CrossSite"])
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, origin: "http://evil.example" } }))).toEqual([403, "CrossSite"])
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, origin: "null" } }))).toEqual([403, "CrossSite"])
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, origin: "null", "sec-fetch-site": "cross-site" } }))).toEqual([403, "CrossSite"])
      // A browser's own form POST under our no-referrer policy: Origin null, Sec-Fetch-Site same-origin.
      const ownForm = yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, origin: "null", "sec-fetch-site": "same-origin" } })
      expect(refused(ownForm)).toEqual([404, "RunNotFound"])
      expect(refused(yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, "sec-fetch-site": "cross-site" } }))).toEqual([403, "CrossSite"])
      // The page's own request reaches the action: no such run.
      const own = yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, origin: "http://127.0.0.1:8790", "sec-fetch-site": "same-origin" } })
      expect(refused(own)).toEqual([404, "RunNotFound"])
      // Behind a reverse proxy that rewrites Host (so with a token): the browser's host is the forwarded one.
      const behind = yield* RunsPage.make({ host: "127.0.0.1", token: Redacted.make(token) })
      const bearer = { authorization: `Bearer ${token}` }
      const proxied = { ...bearer, "x-xrunner-csrf": yield* csrfOf(behind, bearer), origin: "https://runs.example.com" }
      expect(refused(yield* ask(behind, path, { method: "POST", body: "{}", headers: proxied }))).toEqual([403, "CrossSite"])
      expect(refused(yield* ask(behind, path, { method: "POST", body: "{}", headers: { ...proxied, "x-forwarded-host": "runs.example.com" } }))).toEqual([404, "RunNotFound"])
      // A GET of an action is not one.
      expect((yield* ask(page, path)).status).toBe(405)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("on loopback without a token: a request a proxy or tunnel forwarded (Host rewritten to loopback) is refused, saying a token is needed", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      for (const [name, value] of [
        ["forwarded", "for=203.0.113.7;proto=https"],
        ["x-forwarded-for", "203.0.113.7"],
        ["x-forwarded-host", "runs.example.com"],
        ["x-real-ip", "203.0.113.7"],
        ["via", "1.1 nginx"]
      ] as const) {
        const answer = yield* ask(page, "/runs/api/runs", { headers: { [name]: value } })
        expect([name, answer.status, answer.json.error.tag]).toEqual([name, 403, "TokenNeeded"])
        expect(answer.json.error.message).toContain("proxy or tunnel")
        expect(answer.json.error.message).toContain("XRUNNER_UI_TOKEN")
        expect((yield* ask(page, "/runs", { headers: { [name]: value } })).status).toBe(403)
      }
      // With a token, a proxy is fine.
      const withToken = yield* RunsPage.make({ host: "127.0.0.1", token: Redacted.make(token) })
      expect((yield* ask(withToken, "/runs/api/runs", { headers: { "x-forwarded-for": "203.0.113.7", authorization: `Bearer ${token}` } })).status).toBe(200)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("a path with a dot, dot-dot or empty segment (also percent-encoded, or an encoded slash) is no page's: 404, not the path it resolves to", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      for (
        const path of [
          "/runs/../hooks/api/runs",
          "/runs/./api/runs",
          "/runs/api/../api/runs",
          "/runs/%2e%2e/x/api/runs",
          "/runs/%2E/api/runs",
          "/runs/api%2fruns",
          "/runs//api/runs",
          "/runs/api//runs"
        ]
      ) {
        const answer = yield* ask(page, path)
        expect([path, answer.status, answer.text.includes("\"runs\"")]).toEqual([path, 404, false])
      }
      expect(RunsPage.segmentsOf("/runs/../hooks/api/runs")).toBeUndefined()
      expect(RunsPage.segmentsOf("/runs/api/runs/")).toEqual(["api", "runs"])
      expect((yield* ask(page, "/runs/api/runs/")).status).toBe(200)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("with a token: exactly /runs/login and /runs/assets/<file> go without it; /runs/assets and /runs/assets/ are neither the page nor its CSRF value", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "0.0.0.0", token: Redacted.make(token) })
      const host = { host: "runner.example.com:8790" }
      for (const path of ["/runs/assets", "/runs/assets/", "/runs/login/x", "/runs/assets/page.css/x"]) {
        const answer = yield* ask(page, path, { headers: host })
        expect([path, answer.status]).toEqual([path, 303])
        expect(answer.text).not.toContain("x-runner-csrf")
      }
      // Signed in, those words are not run ids either.
      for (const path of ["/runs/assets", "/runs/login/x", "/runs/logout"]) {
        const answer = yield* ask(page, path, { headers: { ...host, authorization: `Bearer ${token}` } })
        expect(answer.text, path).not.toContain("x-runner-csrf")
      }
      expect((yield* ask(page, "/runs/assets/page.js", { headers: host })).status).toBe(200)
      expect((yield* ask(page, "/runs/login", { headers: host })).status).toBe(200)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("the login cookie lasts a week (its issued-at signed with the token); POST /runs/logout (the page's own) clears it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-27T09:00:00Z"))
      const page = yield* RunsPage.make({ host: "0.0.0.0", token: Redacted.make(token) })
      const host = { host: "runner.example.com:8790" }
      const signed = yield* ask(page, "/runs/login", { method: "POST", body: `token=${token}`, headers: { ...host, "content-type": "application/x-www-form-urlencoded" } })
      const cookie = signed.headers["set-cookie"]!.split(";")[0]!
      const [issuedAt, mac] = cookie.slice("x-runner-runs=".length).split(".")
      expect(Number(issuedAt)).toBe(Date.parse("2026-11-27T09:00:00Z"))
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie } })).status).toBe(200)
      // Another issued-at with the same MAC, or the MAC alone, is refused.
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie: `x-runner-runs=${Number(issuedAt) + 1}.${mac}` } })).status).toBe(401)
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie: `x-runner-runs=${mac}` } })).status).toBe(401)
      yield* TestClock.adjust("6 days")
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie } })).status).toBe(200)
      yield* TestClock.adjust("1 day")
      expect((yield* ask(page, "/runs/api/runs", { headers: { ...host, cookie } })).status).toBe(401)
      expect((yield* ask(page, "/runs", { headers: { ...host, cookie } })).headers["location"]).toBe("/runs/login")

      // Sign out: a POST with the page's CSRF value, from its origin.
      const fresh = (yield* ask(page, "/runs/login", { method: "POST", body: `token=${token}`, headers: { ...host, "content-type": "application/x-www-form-urlencoded" } }))
        .headers["set-cookie"]!.split(";")[0]!
      const signedIn = { ...host, cookie: fresh }
      expect((yield* ask(page, "/runs/logout", { method: "POST", headers: signedIn })).status).toBe(403)
      expect((yield* ask(page, "/runs/logout", { headers: signedIn })).status).toBe(405)
      const out = yield* ask(page, "/runs/logout", { method: "POST", headers: { ...signedIn, "x-xrunner-csrf": yield* csrfOf(page, signedIn), origin: "http://runner.example.com:8790" } })
      expect([out.status, out.headers["location"]]).toEqual([303, "/runs/login"])
      expect(out.headers["set-cookie"]).toBe("x-runner-runs=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/runs")
    }).pipe(Effect.provide(freshStore())))

  it.scoped("a body over 1 MB is answered 413 with the JSON error, by its Content-Length or as it streams", () =>
    Effect.gen(function*() {
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      const csrf = yield* csrfOf(page)
      const path = "/runs/api/runs/0123456789abcdef/done"
      const big = JSON.stringify({ step: "x", output: "a".repeat(1024 * 1024) })
      const streamed = yield* ask(page, path, { method: "POST", body: big, headers: { "x-xrunner-csrf": csrf } })
      expect([streamed.status, streamed.json.error.tag]).toEqual([413, "BodyTooLarge"])
      const declared = yield* ask(page, path, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, "content-length": String(2 * 1024 * 1024) } })
      expect([declared.status, declared.json.error.tag]).toEqual([413, "BodyTooLarge"])
      // Under the cap, the action answers (no such run).
      expect((yield* ask(page, path, { method: "POST", body: JSON.stringify({ step: "x", output: 1 }), headers: { "x-xrunner-csrf": csrf } })).status).toBe(404)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("a running run of x-runner run: the run's view and a retry give one reason, its status (not a retry command that would be refused)", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      const running = yield* store.recordStarted({
        workflow: "w",
        file: "/tmp/w.json",
        runner: "run:test",
        rerun: { sandbox: true, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "00", inputsDigest: "00" }
      })
      const view = yield* ask(page, `/runs/api/runs/${running}`)
      expect(view.json.run.status).toBe("running")
      expect(view.json.actions).toMatchObject({ retry: false, why: "running: a runner is executing it" })
      const refused = yield* post(page, `/runs/api/runs/${running}/retry`, {})
      expect([refused.status, refused.json.error.tag]).toEqual([409, "NotRetryable"])
    }).pipe(Effect.provide(freshStore())))

  it.scoped("the API: a page of runs with filters and its cursor, a run with its steps and actions, the chart; bad parameters are 400 InvalidQuery", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      const failed = yield* servedRun(store, {
        workflow: "comments",
        event: "e1",
        output: { name: "<img src=x onerror=alert(1)>" },
        steps: [action("open", "succeeded", { output: { cards: 2 } }), action("comment", "failed", { error: { tag: "ProviderError", message: "502" } }), action("tell", "skipped")],
        status: "failed",
        failedStep: "comment"
      })
      const unknown = yield* servedRun(store, { workflow: "comments", event: "e2", steps: [action("open", "succeeded"), action("comment", "unknown")], status: "unknown", failedStep: "comment" })
      const running = yield* servedRun(store, { workflow: "other", event: "e3", steps: [action("open", "succeeded")], status: "running" })
      yield* store.waiting(running, Date.now() + 60_000)

      const all = yield* ask(page, "/runs/api/runs")
      expect(all.status).toBe(200)
      expect(all.json.workflows).toEqual(["comments", "other"])
      expect(all.json.next).toBeNull()
      expect(all.json.runs.map((run: any) => run.id).sort()).toEqual([failed, unknown, running].sort())
      for (const run of all.json.runs) expect(Object.keys(run).sort()).toEqual(listedKeys)
      const byId = (id: string) => all.json.runs.find((run: any) => run.id === id)
      expect(byId(failed)).toMatchObject({ workflow: "comments", eventId: "e1", status: "failed", displayStatus: "failed", failedStep: "comment", skipped: 1, origin: "serve", runner: "runner-a", waitingUntil: null })
      expect(byId(running)).toMatchObject({ status: "running", displayStatus: "waiting", finishedAt: null, durationMs: null })
      expect(byId(running).waitingUntil).toBeGreaterThan(Date.now())

      // Filters, search, and paging by the cursor.
      expect((yield* ask(page, "/runs/api/runs?status=waiting")).json.runs.map((run: any) => run.id)).toEqual([running])
      expect((yield* ask(page, "/runs/api/runs?workflow=comments&status=&q=")).json.runs.length).toBe(2)
      expect((yield* ask(page, "/runs/api/runs?q=ONERROR")).json.runs.map((run: any) => run.id)).toEqual([failed])
      const first = yield* ask(page, "/runs/api/runs?limit=2")
      expect(first.json.runs.length).toBe(2)
      expect(typeof first.json.next).toBe("string")
      const second = yield* ask(page, `/runs/api/runs?limit=2&after=${first.json.next}`)
      expect([...first.json.runs, ...second.json.runs].map((run: any) => run.id)).toEqual(all.json.runs.map((run: any) => run.id))
      expect(second.json.next).toBeNull()

      for (const [query, says] of [
        ["status=done", "status=done: one of accepted, running, waiting, succeeded, failed, unknown"],
        ["limit=0", "limit=0: a whole number from 1 to 200"],
        ["limit=201", "limit=201: a whole number from 1 to 200"],
        ["from=yesterday", "from=yesterday: a time in epoch milliseconds"],
        ["from=5&to=5", "from=5 is not before to=5"],
        ["after=bm90LWEtY3Vyc29y", "after: not a cursor this page gave"],
        ["status=failed&status=unknown", "status is given more than once"]
      ]) {
        const answer = yield* ask(page, `/runs/api/runs?${query}`)
        expect([query, answer.status, answer.json.error.tag]).toEqual([query, 400, "InvalidQuery"])
        expect(answer.json.error.message).toContain(says)
      }
      expect((yield* ask(page, "/runs/api/chart?hours=0")).json.error.message).toContain("hours=0: a whole number of hours from 1 to 168")

      const view = yield* ask(page, `/runs/api/runs/${unknown}`)
      expect(Object.keys(view.json).sort()).toEqual(["actions", "run", "steps", "trigger"])
      expect(view.json.trigger).toEqual({ id: "e2" })
      expect(view.json.actions).toEqual({ retry: true, done: ["comment"], why: null })
      expect(view.json.steps.map((step: any) => [step.path, step.status])).toEqual([["open", "succeeded"], ["comment", "unknown"]])
      for (const step of view.json.steps) expect(Object.keys(step).sort()).toEqual(stepKeys)
      expect(view.json.steps[1].writeSentAt).toEqual(expect.any(Number))
      expect(view.json.steps[0].output).toBeNull()
      expect((yield* ask(page, `/runs/api/runs/${running}`)).json.actions).toEqual({ retry: false, done: [], why: "running: a runner is executing it" })
      // The XSS card name is data in JSON, never HTML.
      const xss = yield* ask(page, `/runs/api/runs/${failed}`)
      expect(xss.headers["content-type"]).toMatch(/^application\/json/)
      expect(xss.json.trigger).toEqual({ name: "<img src=x onerror=alert(1)>" })
      expect((yield* ask(page, "/runs/api/runs/ffffffffffffffff")).json.error.tag).toBe("RunNotFound")
      expect((yield* ask(page, "/runs/api/runs/ffffffffffffffff")).status).toBe(404)
      expect((yield* ask(page, "/runs/api/nothing")).status).toBe(404)
      expect((yield* ask(page, "/runs/a/b")).status).toBe(404)

      // The chart: one entry a minute over the hours asked, zeros included, each run at its minute.
      yield* TestClock.setTime(Date.now())
      const chart = (yield* ask(page, "/runs/api/chart?hours=1")).json
      expect(chart.minutes.length).toBe(60)
      expect(chart.minutes[1] - chart.minutes[0]).toBe(60_000)
      expect(Object.keys(chart.series).sort()).toEqual(["accepted", "failed", "running", "succeeded", "unknown", "waiting"])
      for (const counts of Object.values(chart.series) as Array<Array<number>>) expect(counts.length).toBe(60)
      const total = (status: string) => chart.series[status].reduce((sum: number, n: number) => sum + n, 0)
      expect([total("failed"), total("unknown"), total("waiting"), total("running"), total("succeeded")]).toEqual([1, 1, 1, 0, 0])
      expect((yield* ask(page, "/runs/api/chart")).json.minutes.length).toBe(360)
    }).pipe(Effect.provide(freshStore())))

  it.scoped("retry and mark done go through RunActions: the engine is woken; a running or succeeded run, a run of x-runner run, a step not unknown are refused 409", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      let woken = 0
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined, wake: Effect.sync(() => woken++) })
      const failed = yield* servedRun(store, { workflow: "w", event: "f", steps: [action("open", "succeeded"), action("comment", "failed")], status: "failed", failedStep: "comment" })
      const unknown = yield* servedRun(store, { workflow: "w", event: "u", steps: [action("open", "succeeded"), action("comment", "unknown")], status: "unknown", failedStep: "comment" })
      const running = yield* servedRun(store, { workflow: "w", event: "r", steps: [], status: "running" })
      const accepted = yield* servedRun(store, { workflow: "w", event: "a", steps: [], status: "accepted" })
      const succeeded = yield* servedRun(store, { workflow: "w", event: "s", steps: [action("open", "succeeded")], status: "succeeded" })
      const ranHere = yield* store.recordStarted({
        workflow: "w",
        file: "/tmp/w.json",
        runner: "run:test",
        rerun: { sandbox: true, withoutRateLimits: false, allowPrivateNetworks: false, inputNames: [], inputsSalt: "00", inputsDigest: "00" }
      })
      yield* store.runFinished(ranHere, 0, "failed", "x")

      const refusal = (answer: Asked) => [answer.status, answer.json.error.tag]
      expect(refusal(yield* post(page, `/runs/api/runs/${running}/retry`, {}))).toEqual([409, "NotRetryable"])
      expect((yield* post(page, `/runs/api/runs/${running}/retry`, {})).json.error.message).toContain("a runner is executing it")
      expect(refusal(yield* post(page, `/runs/api/runs/${accepted}/retry`, {}))).toEqual([409, "NotRetryable"])
      expect(refusal(yield* post(page, `/runs/api/runs/${succeeded}/retry`, {}))).toEqual([409, "NotRetryable"])
      expect(refusal(yield* post(page, `/runs/api/runs/${ranHere}/retry`, {}))).toEqual([409, "RetryHere"])
      expect((yield* post(page, `/runs/api/runs/${ranHere}/retry`, {})).json.error.message).toContain(`x-runner runs retry ${ranHere}`)
      expect(refusal(yield* post(page, `/runs/api/runs/${running}/done`, { step: "comment", output: {} }))).toEqual([409, "NotRetryable"])
      expect(refusal(yield* post(page, `/runs/api/runs/${unknown}/done`, { step: "open", output: {} }))).toEqual([409, "StepNotUnknown"])
      expect((yield* post(page, `/runs/api/runs/${unknown}/done`, { step: "open", output: {} })).json.error.message).toContain("those are: comment")
      expect(refusal(yield* post(page, `/runs/api/runs/ffffffffffffffff/done`, { step: "x", output: 1 }))).toEqual([404, "RunNotFound"])
      expect(refusal(yield* post(page, `/runs/api/runs/${unknown}/done`, { output: {} }))).toEqual([400, "InvalidBody"])
      expect(refusal(yield* post(page, `/runs/api/runs/${failed}/retry`, []))).toEqual([400, "InvalidBody"])
      const csrf = yield* csrfOf(page)
      expect(refusal(yield* ask(page, `/runs/api/runs/${failed}/retry`, { method: "POST", body: "{not json", headers: { "x-xrunner-csrf": csrf } }))).toEqual([400, "InvalidBody"])
      expect(woken).toBe(0)
      expect(Option.map(yield* store.show(running), ({ run }) => run.status)).toEqual(Option.some("running"))

      const retried = yield* post(page, `/runs/api/runs/${failed}/retry`, {})
      expect(retried.status).toBe(200)
      expect(Object.keys(retried.json.run).sort()).toEqual(listedKeys)
      expect(retried.json.run).toMatchObject({ id: failed, status: "accepted", attempt: 1, failedStep: null })
      expect(woken).toBe(1)
      const afterRetry = Option.getOrThrow(yield* store.show(failed))
      expect(afterRetry.steps.map((step) => [step.path, step.status])).toEqual([["open", "succeeded"]])

      const done = yield* post(page, `/runs/api/runs/${unknown}/done`, { step: "comment", output: { id: "c-1", text: "posted" } })
      expect(done.status).toBe(200)
      expect(done.json.run).toMatchObject({ id: unknown, status: "accepted", attempt: 1 })
      expect(woken).toBe(2)
      const marked = Option.getOrThrow(yield* store.show(unknown))
      expect(marked.steps.find((step) => step.path === "comment")).toMatchObject({ status: "succeeded", output: { id: "c-1", text: "posted" } })
      // Retried already: not again until it ends.
      expect(refusal(yield* post(page, `/runs/api/runs/${unknown}/done`, { step: "comment", output: {} }))).toEqual([409, "NotRetryable"])
    }).pipe(Effect.provide(freshStore())))

  it.scoped("the live stream: runs as they change every second, a followed run's view, a keep-alive every 15 s; it ends when the page stops", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      // The store stamps changes with the machine's clock: the TestClock starts at it, so each look's window is a real one.
      yield* TestClock.setTime(Date.now())
      const scope = yield* Scope.make()
      const page = yield* Scope.extend(RunsPage.make({ host: "127.0.0.1", token: undefined }), scope)
      const first = yield* servedRun(store, { workflow: "w", event: "one", steps: [action("open", "succeeded")], status: "running" })
      const request = HttpServerRequest.fromWeb(new Request(`http://127.0.0.1:8790/runs/api/stream?run=${first}`)).modify({ headers: Headers.fromInput({ host: "127.0.0.1:8790" }) })
      const response = yield* Effect.provideService(page.handle, HttpServerRequest.HttpServerRequest, request)
      expectSafe(response)
      expect(response.headers["cache-control"]).toBe("no-store")
      if (response.body._tag !== "Stream") throw new Error("not a stream")
      expect(response.body.contentType).toMatch(/^text\/event-stream/)
      const received: Array<string> = []
      const reading = yield* Effect.fork(Stream.runForEach(Stream.decodeText(response.body.stream), (text) => Effect.sync(() => received.push(text))))
      const until = (seen: (all: string) => boolean) => sentOnce(received, seen)
      // The first look at once: the run changed just now, and its view.
      let all = yield* until((all) => all.includes("event: run\n"))
      expect(all.startsWith("retry: 3000\n\n")).toBe(true)
      expect(all).toContain(`event: runs\ndata: {"runs":[{"id":"${first}"`)
      const view = JSON.parse(/event: run\ndata: (.*)\n\n/.exec(all)![1]!)
      expect(view.run).toMatchObject({ id: first, status: "running" })
      expect(view.steps.map((step: any) => step.path)).toEqual(["open"])
      // A step and its end: the next look sends the run's new view and its new status.
      yield* store.stepFinished(first, action("comment", "succeeded"))
      yield* store.runFinished(first, 0, "succeeded", undefined)
      yield* TestClock.adjust("1 second")
      all = yield* until((all) => all.split("event: run\n").length === 3)
      const last = JSON.parse(all.split("event: run\ndata: ").at(-1)!.split("\n\n")[0]!)
      expect(last.run).toMatchObject({ id: first, status: "succeeded" })
      expect(last.steps.map((step: any) => step.path)).toEqual(["open", "comment"])
      expect(all.split("event: runs\n").length).toBe(3)
      // Quiet for 15 s (the runs' changes leave the looks' window, the finished run is not looked at
      // again): a keep-alive comment, nothing sent again.
      const quiet = received.length
      for (let second = 0; second < 15; second++) yield* TestClock.adjust("1 second")
      all = yield* until((all) => all.includes(": keep-alive\n\n"))
      expect(received.slice(quiet).join("")).toBe(": keep-alive\n\n")
      // The page stops (serve stops): the stream ends, so the server can close.
      yield* Scope.close(scope, Exit.void)
      yield* Fiber.join(reading)
    }).pipe(Effect.provide(freshStore())))
})

describe("the runs page's live stream in a burst", () => {
  it.scoped("more runs changed in a second than one look reads: the stream says resync (the page reads its list again) rather than drop the rest", () =>
    Effect.gen(function*() {
      const store = yield* RunStore.RunStore
      yield* TestClock.setTime(Date.now())
      const page = yield* RunsPage.make({ host: "127.0.0.1", token: undefined })
      const few = yield* Effect.forEach(["a", "b"], (event) => store.accept("w", { id: event, output: {} }))
      const request = HttpServerRequest.fromWeb(new Request("http://127.0.0.1:8790/runs/api/stream")).modify({ headers: Headers.fromInput({ host: "127.0.0.1:8790" }) })
      const response = yield* Effect.provideService(page.handle, HttpServerRequest.HttpServerRequest, request)
      if (response.body._tag !== "Stream") throw new Error("not a stream")
      const received: Array<string> = []
      yield* Effect.fork(Stream.runForEach(Stream.decodeText(response.body.stream), (text) => Effect.sync(() => received.push(text))))
      const until = (seen: (all: string) => boolean) => sentOnce(received, seen)
      // A few: sent as they are.
      const first = yield* until((all) => all.includes("event: runs\n"))
      expect(first).not.toContain("event: resync")
      expect(JSON.parse(/event: runs\ndata: (.*)\n\n/.exec(first)![1]!).runs.map((run: any) => run.id).sort()).toEqual(few.map(({ runId }) => runId).sort())
      // A burst of 250 in the next second: more than a look reads.
      yield* Effect.forEach(Array.from({ length: 250 }, (_, index) => `burst-${index}`), (event) => store.accept("w", { id: event, output: {} }), { discard: true })
      yield* TestClock.adjust("1 second")
      const burst = (yield* until((all) => all.length > first.length)).slice(first.length)
      expect(burst).toBe("event: resync\ndata: {}\n\n")
    }).pipe(Effect.provide(freshStore())))
})

/** A GET of a target as given (fetch resolves dot segments before sending): its status. */
const rawGet = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path, method: "GET" }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("error", reject)
    request.end()
  })

describe("the runs page's commands", () => {
  it("ui: the runs x-runner run made, as the API gives them (no connection's value anywhere); a run of x-runner run is retried by runs retry, not the page", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-ui-"))
    const ok = await runner(["run", example("demo.json"), "--sandbox", "--data-dir", dataDir])
    expect(ok.code, ok.stderr).toBe(0)
    const failed = await runner(["run", example("on-failure.json"), "--sandbox", "--data-dir", dataDir])
    expect(failed.code).toBe(1)
    const port = await freePort()
    const ui = served(["ui", "--data-dir", dataDir, "--port", String(port)])
    await ui.ready(`● runs at http://127.0.0.1:${port}/runs`)
    const base = `http://127.0.0.1:${port}`
    const page = await fetch(`${base}/runs`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
    const html = await page.text()
    const csrf = /<meta name="x-runner-csrf" content="([^"]+)">/.exec(html)![1]!
    const list = await (await fetch(`${base}/runs/api/runs`)).json() as { runs: Array<any>; workflows: Array<string> }
    expect(list.workflows).toEqual(["demo", "on-failure"])
    expect(list.runs.map((run) => [run.workflow, run.status, run.origin])).toEqual([["on-failure", "failed", "run"], ["demo", "succeeded", "run"]])
    for (const run of list.runs) expect(Object.keys(run).sort()).toEqual(listedKeys)
    const failedRun = list.runs[0]
    const view = await (await fetch(`${base}/runs/api/runs/${failedRun.id}`)).json() as any
    expect(view.run.failedStep).toBe("move")
    expect(view.steps.map((step: any) => [step.path, step.status])).toEqual([["move", "failed"], ["tell", "succeeded"]])
    expect(view.actions.retry).toBe(false)
    expect(view.actions.why).toContain(`x-runner runs retry ${failedRun.id}`)
    const refused = await fetch(`${base}/runs/api/runs/${failedRun.id}/retry`, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf } })
    expect(refused.status).toBe(409)
    expect((await refused.json() as any).error.tag).toBe("RetryHere")
    // A path is the page's or not on its raw form: dot segments are not resolved into /runs.
    for (const path of ["/x/../runs/api/runs", "/runs/../runs/api/runs", "/runs/%2e%2e/runs/api/runs"]) {
      expect([path, await rawGet(port, path)]).toEqual([path, 404])
    }
    // A body over 1 MB is answered 413 (not a reset connection), declared or chunked.
    const big = "a".repeat(2 * 1024 * 1024)
    const done = `${base}/runs/api/runs/${failedRun.id}/done`
    const declared = await fetch(done, { method: "POST", body: big, headers: { "x-xrunner-csrf": csrf } })
    expect([declared.status, (await declared.json() as any).error.tag]).toEqual([413, "BodyTooLarge"])
    const chunked = await fetch(done, {
      method: "POST",
      body: new Blob([big]).stream(),
      headers: { "x-xrunner-csrf": csrf },
      duplex: "half"
    } as RequestInit)
    expect([chunked.status, (await chunked.json() as any).error.tag]).toEqual([413, "BodyTooLarge"])
    // The sandbox's connection values are in no answer.
    const everything = JSON.stringify(list) + JSON.stringify(view) + JSON.stringify(await (await fetch(`${base}/runs/api/runs/${list.runs[1].id}`)).json())
    expect(ui.log()).toBe(`● runs at http://127.0.0.1:${port}/runs\n`)
    expect(everything).not.toMatch(/sandbox-[a-z-]*(secret|token|key)/)
    expect(everything).not.toMatch(/oauth_token|Authorization/i)
    ui.child.kill("SIGINT")
    expect(await ui.exited).toBe(0)

    // Refused before listening: a store that does not exist, beyond loopback without a token.
    const missing = await runner(["ui", "--data-dir", join(dataDir, "none"), "--port", String(port)])
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`no runs' database in ${join(dataDir, "none")}`)])
    const open = await runner(["ui", "--data-dir", dataDir, "--host", "0.0.0.0", "--port", String(port)], { XRUNNER_UI_TOKEN: "" })
    expect([open.code, open.stderr]).toEqual([2, expect.stringContaining("set XRUNNER_UI_TOKEN or --ui-token-file")])
    const short = await runner(["ui", "--data-dir", dataDir, "--port", String(port)], { XRUNNER_UI_TOKEN: "short" })
    expect([short.code, short.stderr]).toEqual([2, expect.stringContaining("XRUNNER_UI_TOKEN: the runs page's token is at least 16 characters")])
    const spaced = await runner(["ui", "--data-dir", dataDir, "--port", String(port)], { XRUNNER_UI_TOKEN: "two words of a token" })
    expect([spaced.code, spaced.stderr]).toEqual([2, expect.stringContaining("XRUNNER_UI_TOKEN: the runs page's token has no spaces inside it")])
  })

  // That the page wakes the engine is asserted in process (the retry test's count): through serve the
  // engine also looks for runs every second by itself, so a missing wake would only be slower.
  it("serve: the page on its port; a failed run retried there runs again; stopping with a live stream open ends serve; a webhook under /runs is refused", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-serve-"))
    const runId = await onStore(dataDir, (store) =>
      servedRun(store, {
        workflow: "weekly-schedule",
        event: "tick-1",
        output: { scheduledAt: "2026-01-05T08:00:00.000Z" },
        steps: [action("open", "failed", { type: "boardtool/v1/listBoardCards", error: { tag: "ProviderError", message: "502" } })],
        status: "failed",
        failedStep: "open"
      }))
    const port = await freePort()
    const serve = served(["serve", example("weekly-schedule.json"), "--sandbox", "--port", String(port), "--data-dir", dataDir], { XRUNNER_UI_TOKEN: "" })
    await serve.ready(`● runs at http://127.0.0.1:${port}/runs`)
    await serve.ready("● schedule/v1/cron weekly-schedule: next tick")
    const base = `http://127.0.0.1:${port}`
    const csrf = /<meta name="x-runner-csrf" content="([^"]+)">/.exec(await (await fetch(`${base}/runs`)).text())![1]!
    const retried = await fetch(`${base}/runs/api/runs/${runId}/retry`, { method: "POST", body: "{}", headers: { "x-xrunner-csrf": csrf, "content-type": "application/json" } })
    expect(retried.status).toBe(200)
    expect((await retried.json() as any).run).toMatchObject({ id: runId, status: "accepted", attempt: 1 })
    await serve.waitFor("■ event tick-1 succeeded")
    const view = await (await fetch(`${base}/runs/api/runs/${runId}`)).json() as any
    expect(view.run).toMatchObject({ status: "succeeded", attempt: 1 })
    // A browser following the runs does not keep serve from stopping.
    const following = await fetch(`${base}/runs/api/stream`)
    const reader = following.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("retry: 3000")
    serve.child.kill("SIGINT")
    expect(await serve.exited).toBe(0)
    let ended = false
    while (!ended) ended = (await reader.read().catch(() => ({ done: true }))).done

    const underRuns = await runner(["serve", example("new-card.json"), "--sandbox", "--data-dir", dataDir, "--public-url", `http://127.0.0.1:${port}/runs/hooks`])
    expect([underRuns.code, underRuns.stderr]).toEqual([2, expect.stringContaining("under /runs, the runs page's path: give another --public-url")])
  })

  it("runs retry --done: an unknown step marked done with its output, the run back to the engine; bad JSON or a step not unknown change nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-page-done-"))
    const runId = await onStore(dataDir, (store) =>
      servedRun(store, { workflow: "w", event: "u", steps: [action("open", "succeeded"), action("comment", "unknown")], status: "unknown", failedStep: "comment" }))
    const state = () =>
      onStore(dataDir, (store) => Effect.map(store.show(runId), (shown) => Option.map(shown, ({ run, steps }) => ({ status: run.status, attempt: run.attempt, steps: steps.map((step) => [step.path, step.status, step.output ?? null]) }))))
    const before = await state()
    expect(before).toEqual(Option.some({ status: "unknown", attempt: 0, steps: [["open", "succeeded", null], ["comment", "unknown", null]] }))

    const badJson = await runner(["runs", "retry", runId, "--data-dir", dataDir, "--done", "comment", "--done-output", "{id: 1}"])
    expect([badJson.code, badJson.stderr]).toEqual([2, expect.stringContaining("--done-output is not JSON")])
    const noDone = await runner(["runs", "retry", runId, "--data-dir", dataDir, "--done-output", "{}"])
    expect([noDone.code, noDone.stderr]).toEqual([2, expect.stringContaining("--done-output needs --done")])
    const notUnknown = await runner(["runs", "retry", runId, "--data-dir", dataDir, "--done", "open"])
    expect([notUnknown.code, notUnknown.stderr]).toEqual([2, expect.stringContaining(`run ${runId} has a succeeded step at open: only a step whose outcome is unknown is marked done (those are: comment)`)])
    const withInput = await runner(["runs", "retry", runId, "--data-dir", dataDir, "--done", "comment", "--input", "a=b"])
    expect(withInput.code).toBe(2)
    expect(await state()).toEqual(before)

    const done = await runner(["runs", "retry", runId, "--data-dir", dataDir, "--done", "comment", "--done-output", "{\"id\":\"c-9\"}"])
    expect(done.code, done.stderr).toBe(0)
    expect(done.stderr).toContain(`✔ step comment of run ${runId} is marked done, with the output given`)
    expect(done.stderr).toContain(`↻ run ${runId} goes back to the engine (attempt 2)`)
    expect(await state()).toEqual(Option.some({ status: "accepted", attempt: 1, steps: [["open", "succeeded", null], ["comment", "succeeded", { id: "c-9" }]] }))
    // Back in the engine's hands: not retried again.
    const again = await runner(["runs", "retry", runId, "--data-dir", dataDir])
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`run ${runId} is accepted: only a failed or unknown run is retried`)])
  })
})
