/**
 * The runs page: everything under `/runs` on `serve`'s port (and `x-runner ui`'s). The page
 * itself is static (`internal/assets`: its HTML, script and styles, uPlot's); the server never
 * renders data into HTML, it answers JSON the page's script shows as text:
 *
 * - `GET /runs`, `GET /runs/<run>`: the page (its CSRF value in a meta tag);
 *   `GET /runs/assets/<file>`: its files (ETag, revalidated);
 * - `GET /runs/api/runs` (a page of runs: filters, search, cursor), `GET /runs/api/runs/<run>`
 *   (a run, its trigger event, every step, what can be done), `GET /runs/api/chart` (runs per
 *   minute by status), `GET /runs/api/stream` (server-sent events: runs as they change, and a
 *   followed run's view);
 * - `POST /runs/api/runs/<run>/retry` and `/done`: `RunActions`, the code `runs retry` runs.
 *
 * Safe by default: on loopback without a token the `Host` must name loopback (a rebinding DNS
 * name is refused, and so is a request a proxy or tunnel forwarded); beyond loopback the
 * operator's token is required (without one the page answers 403 and says how to set one), as
 * `Authorization: Bearer` or the login cookie (a week's issued-at and an HMAC of it and the
 * token); a POST carries the CSRF value and comes from the page's own origin; every answer has a
 * strict Content-Security-Policy and its content type. A path is taken in the one form `serve`
 * routes by (`WebhookPath`), and one with a `.`, `..` or empty segment is no page's.
 *
 * @since 0.11.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { InvalidArguments } from "../Errors.js"
import * as RunActions from "../runs/RunActions.js"
import * as RunStore from "../store/RunStore.js"
import * as WebhookPath from "../serve/internal/webhookPath.js"
import { assets } from "./internal/assets.js"
import { loginPage } from "./internal/loginPage.js"
import * as PageJson from "./internal/pageJson.js"
import * as PageQuery from "./internal/pageQuery.js"
import * as ListenerSecurity from "../internal/listenerSecurity.js"
import * as PageSecurity from "./internal/pageSecurity.js"

/**
 * How the page is served.
 *
 * @since 0.11.0
 * @category models
 */
export interface Options {
  /** The address the server listens on: beyond loopback the page needs a token. */
  readonly host: string
  /** The operator's token (`XRUNNER_UI_TOKEN`, `--ui-token-file`), if set. */
  readonly token: Redacted.Redacted<string> | undefined
  /** Told when a run goes back to the engine (`serve`'s engine takes it at once). */
  readonly wake?: Effect.Effect<void> | undefined
}

/**
 * The page's handler: the server sends it every request under `/runs` (`isPagePath`).
 *
 * @since 0.11.0
 * @category models
 */
export interface RunsPage {
  readonly handle: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
}

/**
 * @since 0.11.0
 * @category tags
 */
export const RunsPage = Context.GenericTag<RunsPage>("x-runner/RunsPage")

/** Where the page is: `/runs` and below. */
const root = "/runs"

/**
 * Whether a request's path (as `WebhookPath.canonical` gives it) is the page's.
 *
 * @since 0.11.0
 * @category utils
 */
export const isPagePath = (path: string): boolean => path === root || path.startsWith(`${root}/`)

/**
 * Whether the page served on this address needs a token: it is reachable beyond this machine.
 *
 * @since 0.11.0
 * @category utils
 */
export const needsTokenAt = (host: string): boolean => !PageSecurity.isLoopbackAddress(host)

/**
 * The environment variable that holds the page's token.
 *
 * @since 0.11.0
 * @category constants
 */
export const tokenVariable = "XRUNNER_UI_TOKEN"

/**
 * The operator's token: the file's (`--ui-token-file`, its first line) or else the environment's;
 * none when neither is set. A token too short to keep a page on a public address safe is refused.
 *
 * @since 0.11.0
 * @category constructors
 */
export const readToken = (file: string | undefined): Effect.Effect<Redacted.Redacted<string> | undefined, InvalidArguments, FileSystem.FileSystem> =>
  ListenerSecurity.readToken({ file, option: "--ui-token-file", variable: tokenVariable, whose: "the runs page's token" })

/**
 * What the page says when it is beyond loopback without a token (serve's output too).
 *
 * @since 0.11.0
 * @category constants
 */
export const needsToken = (host: string) =>
  `the runs page listens beyond loopback (${host}): it needs a token, set ${tokenVariable} or --ui-token-file <file>, and open /runs/login`

/**
 * How often the live stream looks for changed runs, and how far back: each writer stamps a run's
 * change with its own clock, so runners' clocks must agree within this slack (NTP); a change
 * stamped further back than that by a lagging runner is not streamed (a reload shows it).
 */
const lookEvery = Duration.seconds(1)
const clockSlackMillis = 5_000
/** The most changed runs one look reads: more than that, and the page is told to read again (`resync`). */
const changedLimit = 200
const keepAliveEvery = Duration.seconds(15)
/** A POST's body: a step's output is the largest. */
const maxBodyBytes = 1024 * 1024

const finished = (status: RunStore.RunStatus) => status === "succeeded" || status === "failed" || status === "unknown"

/**
 * The page on a store. Its live streams end when its scope closes, so a server closed after it
 * is not kept open by a browser that follows the runs: build it after the server.
 *
 * @since 0.11.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<RunsPage, never, RunStore.RunStore | Scope.Scope> =>
  Effect.gen(function*() {
    const store = yield* RunStore.RunStore
    const beyondLoopback = !PageSecurity.isLoopbackAddress(options.host)
    const csrf = PageSecurity.csrfValue(options.token)
    const wake = options.wake ?? Effect.void

    // The live streams end when the page stops (before the server closes), and are waited for.
    const stopping = yield* Deferred.make<void>()
    let open = 0
    const noneOpen = yield* Effect.makeLatch(true)
    yield* Effect.addFinalizer(() =>
      Deferred.succeed(stopping, undefined).pipe(Effect.zipRight(noneOpen.await), Effect.timeoutOption(Duration.seconds(1)))
    )

    const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status, headers: { "cache-control": "no-store" } })
    const problem = (status: number, tag: string, message: string) => json({ error: { tag, message } }, status)
    /** A refusal outside the API, as a line of HTML with no data in it. */
    const htmlProblem = (status: number, message: string) =>
      HttpServerResponse.text(`<!doctype html><title>x-runner runs</title><p>${escapeHtml(message)}</p>\n`, {
        status,
        contentType: "text/html; charset=utf-8",
        headers: { "cache-control": "no-store" }
      })
    const storeFailed = (error: RunStore.StoreFailed) => problem(503, "StoreFailed", error.message)

    /** The run as the list shows it, the store's listing of its millisecond (a fresh view besides). */
    // A run the store just answered is there (runs are never deleted); a row gone meanwhile is a defect.
    const listedOf = (run: RunStore.Run) =>
      Effect.flatMap(store.listed(run.id), Option.match({
        onNone: () => Effect.dieMessage(`run ${run.id} was read, then not found`),
        onSome: Effect.succeed
      }))
    const view = (runId: string) =>
      Effect.flatMap(store.show(runId), (shown) =>
        Option.match(shown, {
          onNone: () => Effect.succeedNone,
          onSome: ({ event, run, steps }) =>
            Effect.map(listedOf(run), (listed) => Option.some(PageJson.runJson(listed, event, steps, RunActions.possible(run, steps))))
        }))

    const runsPage = (params: Params) =>
      Either.match(PageQuery.runsQuery(params), {
        onLeft: (invalid) => Effect.succeed(problem(400, invalid._tag, invalid.message)),
        onRight: (query) =>
          Effect.zipWith(store.page(query), store.workflowNames, ({ next, runs }, workflows) =>
            json({ runs: runs.map(PageJson.listedJson), next: next === undefined ? null : PageJson.encodeCursor(next), workflows }))
      })

    const chartStatuses = ["succeeded", "failed", "unknown", "running", "waiting", "accepted"] as const
    const chart = (params: Params) =>
      Either.match(PageQuery.chartHours(params), {
        onLeft: (invalid) => Effect.succeed(problem(400, invalid._tag, invalid.message)),
        onRight: (hours) =>
          Effect.gen(function*() {
            const now = yield* Clock.currentTimeMillis
            const until = Math.floor(now / 60_000) * 60_000 + 60_000
            const since = until - hours * 3_600_000
            const counted = yield* store.perMinute(since, until)
            const minutes = Array.from({ length: hours * 60 }, (_, index) => since + index * 60_000)
            const series = Object.fromEntries(chartStatuses.map((status) => [status, minutes.map(() => 0)])) as Record<typeof chartStatuses[number], Array<number>>
            for (const { count, minute, status } of counted) {
              const index = Math.floor((minute - since) / 60_000)
              if (index >= 0 && index < minutes.length) series[status][index]! += count
            }
            return json({ minutes, series })
          })
      })

    /**
     * Server-sent events: every second the runs changed since the last look (with slack for other
     * runners' clocks; each sent again only when what the list shows changed), and with `run`, the
     * run's whole view when it changed (looked at every second while unfinished, else when its row changed).
     */
    const stream = (runId: string | undefined) =>
      Effect.gen(function*() {
        let last = yield* Clock.currentTimeMillis
        const sent = new Map<string, string>()
        let runSent: string | undefined
        let runDone = false
        const look = Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const changed = yield* store.changedSince(last - clockSlackMillis, changedLimit)
          last = now
          // A burst beyond what one look reads: the page reads its list and run again, rather than
          // miss the changes past the limit (the next looks take the window again, so it settles).
          const overflow = changed.length >= changedLimit
          const fresh: Array<ReturnType<typeof PageJson.listedJson>> = []
          for (const run of changed) {
            const listed = PageJson.listedJson(run)
            const text = JSON.stringify(listed)
            if (sent.get(run.id) !== text) fresh.push(listed)
            sent.set(run.id, text)
          }
          // Only what is still in the window is remembered.
          const inWindow = new Set(changed.map((run) => run.id))
          for (const id of sent.keys()) if (!inWindow.has(id)) sent.delete(id)
          let events = overflow ? "event: resync\ndata: {}\n\n" : fresh.length === 0 ? "" : `event: runs\ndata: ${JSON.stringify({ runs: fresh })}\n\n`
          if (runId !== undefined && (!runDone || inWindow.has(runId))) {
            // A read that fails here leaves the run for the next look; the list's changes, already
            // marked sent, go out now (dropping them with it would lose them until they change again).
            const found = yield* Effect.orElseSucceed(view(runId), () => Option.none())
            if (Option.isSome(found)) {
              const text = JSON.stringify(found.value)
              if (text !== runSent) events += `event: run\ndata: ${text}\n\n`
              runSent = text
              runDone = finished(found.value.run.status)
            }
          }
          return events
        }).pipe(Effect.orElseSucceed(() => ""))
        const updates = Stream.concat(Stream.fromEffect(look), Stream.mapEffect(Stream.fromSchedule(Schedule.spaced(lookEvery)), () => look))
        const keepAlive = Stream.as(Stream.fromSchedule(Schedule.spaced(keepAliveEvery)), ": keep-alive\n\n")
        // Counted while it runs: the page's end waits for them to end.
        const counted = Stream.acquireRelease(
          Effect.zipRight(Effect.sync(() => open++), noneOpen.close),
          () => Effect.suspend(() => --open === 0 ? noneOpen.open : Effect.void)
        )
        const events = Stream.flatMap(counted, () =>
          Stream.concat(Stream.make("retry: 3000\n\n"), Stream.filter(Stream.merge(updates, keepAlive), (text) => text !== ""))).pipe(
            Stream.interruptWhen(Deferred.await(stopping)),
            Stream.encodeText
          )
        return HttpServerResponse.stream(events, {
          contentType: "text/event-stream; charset=utf-8",
          headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
        })
      })

    /** A POST's JSON body, or the answer that refuses it (400, or 413 when too large). */
    const bodyOf = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.map(textOf(request, maxBodyBytes), (text): Either.Either<unknown, HttpServerResponse.HttpServerResponse> => {
        if (text === undefined) return Either.left(problem(413, "BodyTooLarge", `the body is over ${maxBodyBytes} bytes`))
        if (text === null) return Either.left(problem(400, "InvalidBody", "the body could not be read"))
        if (text.trim() === "") return Either.right({})
        try {
          return Either.right(JSON.parse(text))
        } catch {
          return Either.left(problem(400, "InvalidBody", "the body is not JSON"))
        }
      })

    const refusedStatus = (refused: RunActions.Refused) => refused._tag === "RunNotFound" ? 404 : 409
    const act = (request: HttpServerRequest.HttpServerRequest, runId: string, action: "retry" | "done") =>
      Effect.gen(function*() {
        const body = yield* bodyOf(request)
        if (Either.isLeft(body)) return body.left
        let acted: Effect.Effect<RunStore.Run, RunActions.Refused | RunStore.StoreFailed>
        if (action === "retry") {
          if (typeof body.right !== "object" || body.right === null || Array.isArray(body.right)) return problem(400, "InvalidBody", "the body of a retry is {}")
          acted = RunActions.retry(store, runId)
        } else {
          const done = Schema.decodeUnknownEither(PageQuery.DoneBody)(body.right)
          if (Either.isLeft(done)) return problem(400, "InvalidBody", "the body of a done is { \"step\": \"<the step's path>\", \"output\": <its output, JSON> }")
          acted = RunActions.markDone(store, runId, done.right.step, done.right.output ?? null)
        }
        const outcome = yield* acted.pipe(Effect.map(Either.right), Effect.catchIf(RunActions.isRefused, (refused) => Effect.succeed(Either.left(refused))))
        if (Either.isLeft(outcome)) return problem(refusedStatus(outcome.left), outcome.left._tag, outcome.left.message)
        yield* wake
        return json({ run: PageJson.listedJson(yield* listedOf(outcome.right)) })
      })

    const shell = () => {
      const index = assets.get("index.html")!
      return HttpServerResponse.text(index.body.replace("__CSRF__", csrf), {
        contentType: "text/html; charset=utf-8",
        headers: { "cache-control": "no-store" }
      })
    }
    const asset = (request: HttpServerRequest.HttpServerRequest, name: string) => {
      const found = name === "index.html" ? undefined : assets.get(name)
      if (found === undefined) return htmlProblem(404, "not found")
      const headers = { "cache-control": "no-cache", etag: found.etag }
      if (request.headers["if-none-match"] === found.etag) return HttpServerResponse.empty({ status: 304, headers })
      return HttpServerResponse.text(found.body, { contentType: found.contentType, headers })
    }

    const login = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        if (request.method === "GET" || request.method === "HEAD") {
          return options.token === undefined ? HttpServerResponse.redirect(root, { status: 303 }) : loginForm(false, 200)
        }
        if (request.method !== "POST") return htmlProblem(405, "GET or POST")
        const refusal = PageSecurity.crossSiteRefusal(request.headers, undefined)
        if (refusal !== undefined) return htmlProblem(403, refusal)
        if (options.token === undefined) return HttpServerResponse.redirect(root, { status: 303 })
        const text = yield* textOf(request, 16 * 1024)
        if (text === undefined) return htmlProblem(413, "the form is too large")
        const given = new URLSearchParams(text ?? "").get("token") ?? ""
        if (!PageSecurity.sameSecret(given, Redacted.value(options.token))) return loginForm(true, 401)
        const cookie = PageSecurity.cookieValue(options.token, yield* Clock.currentTimeMillis)
        return HttpServerResponse.redirect(root, { status: 303, headers: { "set-cookie": setCookie(request, cookie, PageSecurity.sessionMillis / 1000), "cache-control": "no-store" } })
      })
    const setCookie = (request: HttpServerRequest.HttpServerRequest, value: string, maxAgeSeconds: number) =>
      `${PageSecurity.cookieName}=${value}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict; Path=${root}${
        request.headers["x-forwarded-proto"] === "https" ? "; Secure" : ""
      }`
    /** `POST /runs/logout` (the page's own, as an action): the cookie cleared, back to the form. */
    const logout = (request: HttpServerRequest.HttpServerRequest) => {
      if (request.method !== "POST") return HttpServerResponse.setHeader(htmlProblem(405, "POST only"), "allow", "POST")
      const refusal = PageSecurity.crossSiteRefusal(request.headers, csrf)
      if (refusal !== undefined) return htmlProblem(403, refusal)
      return HttpServerResponse.redirect(`${root}/login`, { status: 303, headers: { "set-cookie": setCookie(request, "", 0), "cache-control": "no-store" } })
    }
    const loginForm = (refused: boolean, status: number) =>
      HttpServerResponse.text(loginPage(refused), { status, contentType: "text/html; charset=utf-8", headers: { "cache-control": "no-store" } })

    /** Why the request may not see the page (none when it may), as the answer that says so. */
    const gate = (request: HttpServerRequest.HttpServerRequest, segments: ReadonlyArray<string>, now: number) => {
      const api = segments[0] === "api"
      const refuse = (status: number, tag: string, message: string) => api ? problem(status, tag, message) : htmlProblem(status, message)
      if (options.token === undefined) {
        if (beyondLoopback) return refuse(403, "TokenNeeded", needsToken(options.host))
        if (!PageSecurity.isLoopbackHostHeader(request.headers["host"])) {
          return refuse(403, "ForeignHost", "the runs page on loopback answers only to a loopback Host (127.0.0.1, localhost): set a token to reach it by another name")
        }
        // A proxy or tunnel that rewrites Host to loopback would open the page to wherever it listens.
        const proxied = PageSecurity.proxiedBy(request.headers)
        if (proxied.length > 0) {
          return refuse(
            403,
            "TokenNeeded",
            `the runs page was reached through a proxy or tunnel (${proxied.join(", ")}): behind one it needs a token, set ${tokenVariable} or --ui-token-file <file>`
          )
        }
        return undefined
      }
      // The login form and the page's files hold no data: exactly those paths.
      if ((segments.length === 1 && segments[0] === "login") || (segments.length === 2 && segments[0] === "assets")) return undefined
      const bearer = PageSecurity.bearerOf(request.headers["authorization"])
      const byBearer = bearer !== undefined && PageSecurity.sameSecret(bearer, Redacted.value(options.token))
      const cookie = PageSecurity.cookieIn(request.headers["cookie"])
      const byCookie = cookie !== undefined && PageSecurity.validCookie(cookie, options.token, now)
      if (byBearer || byCookie) return undefined
      if (!api && (request.method === "GET" || request.method === "HEAD")) return HttpServerResponse.redirect(`${root}/login`, { status: 303 })
      return refuse(401, "Unauthorized", "the runs page needs its token: Authorization: Bearer <token>, or sign in at /runs/login")
    }

    const route = (request: HttpServerRequest.HttpServerRequest, segments: ReadonlyArray<string>, params: Params) =>
      Effect.gen(function*() {
        const method = request.method === "HEAD" ? "GET" : request.method
        const [first, second, third, fourth] = segments
        const only = (allowed: string, answer: () => Effect.Effect<HttpServerResponse.HttpServerResponse, RunStore.StoreFailed>) =>
          method === allowed ? answer() : Effect.succeed(HttpServerResponse.setHeader(problem(405, "MethodNotAllowed", `${allowed} only`), "allow", allowed))
        if (first === "login" && segments.length === 1) return yield* login(request)
        if (first === "logout" && segments.length === 1) return logout(request)
        if (first === "assets" && segments.length === 2) return yield* only("GET", () => Effect.succeed(asset(request, second!)))
        if (first === "api") {
          if (method === "POST") {
            const refusal = PageSecurity.crossSiteRefusal(request.headers, csrf)
            if (refusal !== undefined) return problem(403, "CrossSite", refusal)
          }
          if (second === "runs" && segments.length === 2) return yield* only("GET", () => runsPage(params))
          if (second === "runs" && segments.length === 3) {
            if (!Schema.is(PageQuery.RunId)(third)) return problem(404, "RunNotFound", "no such run")
            return yield* only("GET", () =>
              Effect.map(view(third), Option.match({ onNone: () => problem(404, "RunNotFound", `no run ${third}`), onSome: (found) => json(found) })))
          }
          if (second === "runs" && segments.length === 4 && (fourth === "retry" || fourth === "done")) {
            if (!Schema.is(PageQuery.RunId)(third)) return problem(404, "RunNotFound", "no such run")
            return yield* only("POST", () => act(request, third, fourth))
          }
          if (second === "chart" && segments.length === 2) return yield* only("GET", () => chart(params))
          if (second === "stream" && segments.length === 2) {
            return yield* only("GET", () =>
              Either.match(PageQuery.streamRun(params), {
                onLeft: (invalid) => Effect.succeed(problem(400, invalid._tag, invalid.message)),
                onRight: stream
              }))
          }
          return problem(404, "NotFound", "no such API")
        }
        // The page itself, at /runs and at a run's deep link.
        if (segments.length === 0 || (segments.length === 1 && Schema.is(PageQuery.RunId)(first) && !reserved.has(first!))) {
          return yield* only("GET", () => Effect.succeed(shell()))
        }
        return htmlProblem(404, "not found")
      }).pipe(Effect.catchTag("StoreFailed", (error) => Effect.succeed(storeFailed(error))))

    const handle = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // The path as the server routed it (its raw form, not one a URL parser resolved dots in:
      // `/runs/../hooks/x` is not `/hooks/x` here and not the page's either).
      const segments = segmentsOf(request.url)
      if (segments === undefined) return htmlProblem(404, "not found")
      const params = HttpServerRequest.searchParamsFromURL(new URL(request.url, "http://runs.invalid"))
      return gate(request, segments, yield* Clock.currentTimeMillis) ?? (yield* route(request, segments, params))
    }).pipe(
      Effect.catchAllCause(() => Effect.succeed(problem(500, "PageFailed", "the runs page failed to answer"))),
      Effect.map(HttpServerResponse.setHeaders(PageSecurity.safetyHeaders))
    )
    return RunsPage.of({ handle })
  })

/**
 * The page as a layer on the store (its live streams end when the layer's scope closes).
 *
 * @since 0.11.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RunsPage, never, RunStore.RunStore> => Layer.scoped(RunsPage, make(options))

type Params = Readonly<Record<string, string | ReadonlyArray<string>>>

/** Words of the page's own paths: never a run's deep link. */
const reserved = new Set(["api", "assets", "login", "logout"])

/**
 * A request target's segments under `/runs`, decoded, from the one form `serve` routes by; none
 * when it is not under `/runs` or has a segment that is empty, `.` or `..`, or holds a `/` or `\`
 * (also percent-encoded): such a path names nothing here, whatever a proxy made of it.
 */
export const segmentsOf = (target: string): ReadonlyArray<string> | undefined => {
  const path = WebhookPath.canonical(target)
  if (!isPagePath(path)) return undefined
  const segments: Array<string> = []
  for (const raw of path.split("/").slice(2)) {
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    if (segment === "" || segment === "." || segment === ".." || /[/\\]/.test(segment)) return undefined
    segments.push(segment)
  }
  return segments
}

/**
 * A request's body as text, read to at most `maxBytes`: `undefined` when it is larger (by its
 * `Content-Length`, or as it streams: the rest is read and dropped, so the client gets the answer
 * rather than a reset connection), `null` when it could not be read.
 */
const textOf = (request: HttpServerRequest.HttpServerRequest, maxBytes: number): Effect.Effect<string | undefined | null> => {
  const declared = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(declared) && declared > maxBytes) return Effect.succeed(undefined)
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    return request.stream.pipe(
      // Past the cap nothing is kept; past many times it, the connection is not worth keeping.
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          size += chunk.length
          if (size <= maxBytes) chunks.push(chunk)
          return size <= maxBytes * drainFactor
        })
      ),
      Effect.map(() => size > maxBytes ? undefined : Buffer.concat(chunks).toString("utf8")),
      Effect.orElseSucceed(() => null)
    )
  })
}
/** How much of an oversized body is read (and dropped) to answer 413, as a multiple of the cap. */
const drainFactor = 16

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
