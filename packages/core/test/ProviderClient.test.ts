import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { createServer } from "node:http"
import { Auth, ConnectorError, ProviderClient, ProviderRequest, RateLimiter, ResponseReader, RetryPolicy } from "../src/index.js"
import { fakeHttp, type Handler, Thing } from "./support.js"

const SECRET = "sk_live_0123456789abcdef"

const clientWith = (handler: Handler, config: Partial<ProviderClient.Settings> = {}) => {
  const http = fakeHttp(handler)
  const client = ProviderClient.makeWith(http.client, RateLimiter.make(), {
    baseUrl: "https://api.example.test/v2/",
    credentials: Auth.bearer(Redacted.make(SECRET)),
    retry: { maxRetries: 3, baseDelay: "1 second", maxDelay: "8 seconds" },
    ...config
  })
  return { client, sent: http.sent }
}

const getThing = { method: "GET", path: "/things/abc", query: { token: "q-secret" } } as const
const postThing = { method: "POST", path: "/things", body: ProviderRequest.jsonBody({ name: "x" }) } as const

const thing = JSON.stringify({ id: "abc", name: "A", count: 1 })

describe("ProviderClient error mapping", () => {
  const cases = [
    [400, "InvalidInput"],
    [422, "InvalidInput"],
    [401, "AuthenticationFailed"],
    [402, "PaymentRequired"],
    [403, "PermissionDenied"],
    [404, "NotFound"],
    [409, "Conflict"],
    [429, "RateLimited"],
    [500, "UpstreamUnavailable"],
    [502, "UpstreamUnavailable"],
    [418, "UnexpectedResponse"]
  ] as const
  for (const [status, tag] of cases) {
    it.effect(`${status} becomes ${tag} with the provider's message, method and path`, () =>
      Effect.gen(function*() {
        const { client } = clientWith(() => ({
          status,
          body: JSON.stringify({ message: `provider says ${status}` }),
          headers: { "content-type": "application/json" }
        }), { retry: { maxRetries: 0 } })
        const error = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
        expect(error._tag).toBe(tag)
        expect(error.message).toBe(`provider says ${status}`)
        expect(error.request).toEqual({ method: "POST", path: "/things" })
        expect(error.status).toBe(status)
      }))
  }

  it.effect("keeps a plain-text error body as the message", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({ status: 400, body: "invalid id" }))
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(error).toMatchObject({ _tag: "InvalidInput", message: "invalid id", issues: [{ path: "", message: "invalid id" }] })
    }))

  it.effect("reads nested and list-shaped JSON messages", () =>
    Effect.gen(function*() {
      const nested = clientWith(() => ({ status: 404, body: JSON.stringify({ error: { message: "no such thing" } }) }))
      expect((yield* Effect.flip(nested.client.send(getThing, ResponseReader.json(Thing)))).message).toBe("no such thing")
      const listed = clientWith(() => ({ status: 422, body: JSON.stringify({ errors: [{ message: "name is too long" }] }) }))
      expect((yield* Effect.flip(listed.client.send(getThing, ResponseReader.json(Thing)))).message).toBe("name is too long")
      const empty = clientWith(() => ({ status: 409 }))
      expect((yield* Effect.flip(empty.client.send(getThing, ResponseReader.json(Thing)))).message).toBe("HTTP 409")
    }))

  it.effect("a body that does not decode is an UnexpectedResponse naming the problem", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({ status: 200, body: JSON.stringify({ id: 1 }) }))
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.message).toBe(
        "the response does not match the expected shape: id: Expected string, actual 1; name: is missing; count: is missing"
      )
    }))

  it.effect("a write whose answer lacks what identifies the record is AcceptedUnreadable, carrying the answer, never retried", () =>
    Effect.gen(function*() {
      const answer = JSON.stringify({ name: "A", count: 1 })
      for (const method of ["POST", "PATCH", "PUT", "DELETE"] as const) {
        const { client, sent } = clientWith(() => ({ status: 201, body: answer }))
        const error = yield* Effect.flip(client.send({ ...postThing, method }, ResponseReader.json(Thing)))
        expect(sent).toHaveLength(1)
        expect(error).toMatchObject({
          _tag: "AcceptedUnreadable",
          request: { method, path: "/things" },
          status: 201,
          body: answer,
          issues: [{ path: "id", message: "is missing" }]
        })
        expect(error.message).toBe(
          `the provider accepted ${method} /things (HTTP 201), but its answer could not be read (id: is missing): what it asked ` +
            `was most likely done, so do not repeat it blindly; check at the provider first. It answered: ${answer}`
        )
      }
      // A GET's answer is only read: the same mismatch is an UnexpectedResponse.
      const { client } = clientWith(() => ({ status: 200, body: answer }))
      expect((yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing))))._tag).toBe("UnexpectedResponse")
    }))

  it.effect("a write answered with text that is not JSON, or nothing, is AcceptedUnreadable saying so", () =>
    Effect.gen(function*() {
      const { client } = clientWith((_, i) => i === 0 ? { status: 200, body: "<html>Created</html>" } : { status: 200 })
      const notJson = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
      expect(notJson).toMatchObject({ _tag: "AcceptedUnreadable", body: "<html>Created</html>", issues: [{ path: "", message: "the answer is not JSON" }] })
      expect(notJson.message).toContain("could not be read (the answer is not JSON)")
      const empty = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
      expect(empty).toMatchObject({ _tag: "AcceptedUnreadable", body: "", issues: [{ path: "", message: "the answer is empty" }] })
      expect(empty.message).not.toContain("It answered")
    }))

  it.effect("an accepted write's answer is scrubbed of secrets before it is capped: no part of a secret is left", () =>
    Effect.gen(function*() {
      // The secret straddles the cap: capped first, its first characters would stay.
      const answer = "x".repeat(ConnectorError.acceptedAnswerMaxChars - 6) + SECRET + "y".repeat(100)
      const { client } = clientWith(() => ({ status: 200, body: answer }))
      const error = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
      if (error._tag !== "AcceptedUnreadable") return expect.fail(error._tag)
      expect(error.body).toBe("x".repeat(ConnectorError.acceptedAnswerMaxChars - 6) + "[redac…")
      expect(error.body).not.toContain(SECRET.slice(0, 4))
      expect(error.message).toMatch(/It answered: x{300}…$/)
    }))

  it.effect("a provider-specific refinement can turn a 403 into a PermissionDenied that names scopes", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({ status: 403, body: JSON.stringify({ code: "missing_scopes", message: "no" }) }), {
        refineError: (error) =>
          error._tag === "PermissionDenied"
            ? new ConnectorError.PermissionDenied({ ...error, message: error.message, missingScopes: ["ecommerce:write"] })
            : error
      })
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(error).toMatchObject({ _tag: "PermissionDenied", missingScopes: ["ecommerce:write"] })
    }))

  it.effect("never carries the query string or a credential", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({
        status: 401,
        body: JSON.stringify({ message: `token ${SECRET} is invalid`, echo: { auth: `Bearer ${SECRET}` } })
      }))
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(error.message).toBe("token [redacted] is invalid")
      const printed = [String(error), JSON.stringify(error), error.message, JSON.stringify(error.body)].join("\n")
      expect(printed).not.toContain(SECRET)
      expect(printed).not.toContain("q-secret")
      expect(error.request).toEqual({ method: "GET", path: "/things/abc" })
    }))
})

describe("ProviderClient requests", () => {
  it.effect("joins the base URL and path, adds query, auth and a JSON body", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => ({ status: 200, body: thing }))
      const result = yield* client.send(
        { method: "POST", path: "/things", query: { a: 1, b: undefined, c: ["x", "y"] }, body: ProviderRequest.jsonBody({ n: 1 }) },
        ResponseReader.json(Thing)
      )
      expect(result).toEqual({ id: "abc", name: "A", count: 1 })
      expect(sent).toHaveLength(1)
      expect(sent[0]!.url).toBe("https://api.example.test/v2/things?a=1&c=x&c=y")
      expect(sent[0]!.headers["authorization"]).toBe(`Bearer ${SECRET}`)
      expect(sent[0]!.headers["content-type"]).toBe("application/json")
      expect(sent[0]!.body).toBe("{\"n\":1}")
    }))

  it.effect("rebase: the same credentials and error reading at another base URL, one client per base", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((request) =>
        request.url.includes("/v3/") ? { status: 404, body: JSON.stringify({ detail: "Run not found" }) } : { status: 200, body: thing }, {
        errorMessage: (body) => (body as { detail?: string }).detail
      })
      const v3 = client.rebase("https://api.example.test/v3/")
      expect(v3.baseUrl).toBe("https://api.example.test/v3")
      expect(client.rebase("https://api.example.test/v3")).toBe(v3)
      expect(client.rebase("https://api.example.test/v2")).toBe(client)
      yield* client.send(getThing, ResponseReader.json(Thing))
      const error = yield* Effect.flip(v3.send({ method: "GET", path: "/runs/r1" }, ResponseReader.json(Thing)))
      expect(error).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Run not found"), request: { method: "GET", path: "/runs/r1" } })
      expect(sent.map((s) => s.url)).toEqual(["https://api.example.test/v2/things/abc?token=q-secret", "https://api.example.test/v3/runs/r1"])
      expect(sent.map((s) => s.headers["authorization"])).toEqual([`Bearer ${SECRET}`, `Bearer ${SECRET}`])
    }))

  it("path`` percent-encodes interpolated values, and keeps dot segments from climbing", () => {
    expect(ProviderRequest.path`/cards/${"a/b?c"}/x`).toBe("/cards/a%2Fb%3Fc/x")
    expect(ProviderRequest.path`/sites/s/orders/${".."}/fulfill`).toBe("/sites/s/orders/%252E%252E/fulfill")
    expect(new URL(`https://a.test/v2${ProviderRequest.path`/orders/${"."}/x`}`).pathname).toBe("/v2/orders/%252E/x")
    expect(ProviderRequest.path`/x/${"a.b"}`).toBe("/x/a.b")
  })
})

describe("ProviderClient retries (TestClock)", () => {
  it.effect("retries a GET on 5xx with exponential backoff, then succeeds", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((_, i) => i < 2 ? { status: 502, body: "bad gateway" } : { status: 200, body: thing })
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toEqual({ id: "abc", name: "A", count: 1 })
      expect(sent).toHaveLength(3)
      // Backoff 1 s then 2 s, each jittered to 80–120 %.
      const gaps = [sent[1]!.at - sent[0]!.at, sent[2]!.at - sent[1]!.at]
      expect(gaps[0]).toBeGreaterThanOrEqual(800)
      expect(gaps[0]).toBeLessThanOrEqual(1200)
      expect(gaps[1]).toBeGreaterThanOrEqual(1600)
      expect(gaps[1]).toBeLessThanOrEqual(2400)
    }))

  it.effect("gives up after maxRetries with the last typed error", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => ({ status: 503, body: "down" }))
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("5 minutes")
      const exit = yield* Fiber.await(fiber)
      expect(sent).toHaveLength(4)
      expect(Exit.isFailure(exit) && exit.cause).toBeTruthy()
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "UpstreamUnavailable", message: "down", status: 503 })
    }))

  it.effect("honours Retry-After in seconds on a 429", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((_, i) =>
        i === 0 ? { status: 429, body: "slow down", headers: { "retry-after": "7" } } : { status: 200, body: thing }
      )
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("6999 millis")
      expect(sent).toHaveLength(1)
      yield* TestClock.adjust("1 milli")
      yield* Fiber.join(fiber)
      expect(sent).toHaveLength(2)
      expect(sent[1]!.at - sent[0]!.at).toBe(7000)
    }))

  it.effect("honours Retry-After as an HTTP date", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-21T10:00:00Z"))
      const { client, sent } = clientWith((_, i) =>
        i === 0
          ? { status: 503, body: "maintenance", headers: { "retry-after": "Sat, 21 Nov 2026 10:00:30 GMT" } }
          : { status: 200, body: thing }
      )
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("29 seconds")
      expect(sent).toHaveLength(1)
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(sent.map((s) => s.at - sent[0]!.at)).toEqual([0, 30_000])
    }))

  it.effect("does not wait for a Retry-After beyond maxRetryAfter: it returns RateLimited at once", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => ({ status: 429, body: "quota", headers: { "retry-after": "3600" } }))
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(sent).toHaveLength(1)
      expect(error).toMatchObject({ _tag: "RateLimited", message: "quota" })
      expect(error._tag === "RateLimited" && Duration.toSeconds(error.retryAfter!)).toBe(3600)
    }))

  it.effect("retries a GET after a connection reset", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((_, i) => i === 0 ? "reset" : { status: 200, body: thing })
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(sent).toHaveLength(2)
    }))

  it.effect("does not retry a POST on a 500: the provider may have created the record", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => ({ status: 500, body: "oops" }))
      const error = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
      expect(sent).toHaveLength(1)
      expect(error._tag).toBe("UpstreamUnavailable")
    }))

  it.effect("does not retry a POST after a connection reset", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => "reset")
      const error = yield* Effect.flip(client.send(postThing, ResponseReader.json(Thing)))
      expect(sent).toHaveLength(1)
      expect(error).toMatchObject({ _tag: "UpstreamUnavailable", message: "the connection to api.example.test failed (ECONNRESET)" })
    }))

  it.effect("does not retry a POST after a read timeout, and reports a Timeout", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => "hang", { timeout: "5 seconds" })
      const fiber = yield* Effect.fork(client.send(postThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("5 minutes")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(sent).toHaveLength(1)
      expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 5s", request: { method: "POST", path: "/things" } })
    }))

  it.effect("retries a GET after a timeout", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((_, i) => i === 0 ? "hang" : { status: 200, body: thing }, { timeout: "5 seconds" })
      const fiber = yield* Effect.fork(client.send(getThing, ResponseReader.json(Thing)))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(sent).toHaveLength(2)
    }))

  for (const [name, reply] of [
    ["429", { status: 429, body: "too many" }],
    ["503", { status: 503, body: "unavailable" }],
    ["a refused connection", "refused"]
  ] as const) {
    it.effect(`retries a POST on ${name}: the provider provably did not process it`, () =>
      Effect.gen(function*() {
        const { client, sent } = clientWith((_, i) => i === 0 ? reply : { status: 200, body: thing })
        const fiber = yield* Effect.fork(client.send(postThing, ResponseReader.json(Thing)))
        yield* TestClock.adjust("1 minute")
        expect(yield* Fiber.join(fiber)).toMatchObject({ id: "abc" })
        expect(sent).toHaveLength(2)
        expect(sent[1]!.body).toBe(sent[0]!.body)
      }))
  }

  it.effect("a refused connection is an UpstreamUnavailable that names the host, not the URL", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => "refused", { retry: { maxRetries: 0 } })
      const error = yield* Effect.flip(client.send(getThing, ResponseReader.json(Thing)))
      expect(error).toMatchObject({
        _tag: "UpstreamUnavailable",
        message: "could not connect to api.example.test (ECONNREFUSED)"
      })
    }))

  it.effect("a POST marked idempotent (e.g. with an idempotency key) retries like a GET", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith((_, i) => i === 0 ? { status: 500 } : { status: 200, body: thing })
      const fiber = yield* Effect.fork(client.send({ ...postThing, idempotent: true }, ResponseReader.json(Thing)))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(sent).toHaveLength(2)
    }))
})

describe("Readers", () => {
  it.effect("text, bytes and discard", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({ status: 200, body: "héllo" }))
      expect(yield* client.send(getThing, ResponseReader.text)).toBe("héllo")
      expect(Buffer.from(yield* client.send(getThing, ResponseReader.bytes)).toString("utf8")).toBe("héllo")
      expect(yield* client.send(getThing, ResponseReader.discard)).toBeUndefined()
    }))

  it.effect("a 204 decodes as an empty body when the schema allows it", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => ({ status: 204 }))
      expect(yield* client.send(getThing, ResponseReader.json(Schema.Void))).toBeUndefined()
    }))
})

describe("ProviderClient time limits on a real connection (FetchHttpClient)", () => {
  it.effect("a request past its limit is aborted on the wire and fails with Timeout; a retry-safe GET is tried again", () =>
    Effect.gen(function*() {
      // The limit runs on TestClock: each request is let time out only once the server has it,
      // however long a busy machine takes to get it there.
      const arrived: Array<string> = []
      const closed: Array<string> = []
      const server = createServer((req, res) => {
        arrived.push(req.url ?? "")
        res.on("close", () => closed.push(req.url ?? ""))
      })
      const until = (done: () => boolean) => Effect.promise(async () => {
        while (!done()) await new Promise((resolve) => setTimeout(resolve, 10))
      })
      yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
      const port = (server.address() as { port: number }).port
      const http = yield* HttpClient.HttpClient
      const client = ProviderClient.makeWith(http, RateLimiter.make(), {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        credentials: Auth.none,
        timeout: "200 millis",
        retry: { maxRetries: 1, baseDelay: "10 millis" }
      })
      const posting = yield* Effect.fork(Effect.flip(client.json({ method: "POST", path: "/things", body: ProviderRequest.jsonBody({}) }, Thing)))
      yield* until(() => arrived.length === 1)
      yield* TestClock.adjust("200 millis")
      expect(yield* Fiber.join(posting)).toMatchObject({ _tag: "Timeout", message: "no answer within 200ms" })
      const getting = yield* Effect.fork(Effect.flip(client.json({ method: "GET", path: "/things/1" }, Thing)))
      yield* until(() => arrived.length === 2)
      // Its limit, then the retry's backoff (10 ms, jittered) once it waits on the clock.
      yield* TestClock.adjust("200 millis")
      const backoffQueued = Effect.gen(function*() {
        const now = yield* TestClock.currentTimeMillis
        return Chunk.some(yield* TestClock.sleeps(), (at) => at > now && at <= now + 100)
      })
      while (!(yield* backoffQueued)) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
      yield* TestClock.adjust("100 millis")
      yield* until(() => arrived.length === 3)
      yield* TestClock.adjust("200 millis")
      expect((yield* Fiber.join(getting))._tag).toBe("Timeout")
      // The POST once (never retried after a read time-out), the GET twice: each aborted (the
      // server sees each abort a moment later).
      expect(arrived).toEqual(["/v1/things", "/v1/things/1", "/v1/things/1"])
      yield* until(() => closed.length === 3)
      expect([...closed].sort()).toEqual(["/v1/things", "/v1/things/1", "/v1/things/1"])
      // Not waiting for the client's idle keep-alive connections to time out (4 s).
      server.closeAllConnections()
      yield* Effect.promise(() => new Promise((resolve) => server.close(resolve)))
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("a write's 2xx whose body is cut short is AcceptedUnreadable, sent once; a read's is UnexpectedResponse", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const server = createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`)
        // Half the declared body, then the connection is cut.
        res.writeHead(201, { "content-type": "application/json", "content-length": "100" }).write(`{"id":"abc",`)
        setTimeout(() => res.destroy(), 20)
      })
      yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
      const port = (server.address() as { port: number }).port
      const client = ProviderClient.makeWith(yield* HttpClient.HttpClient, RateLimiter.make(), {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        credentials: Auth.none,
        retry: { maxRetries: 2, baseDelay: "10 millis" }
      })
      const post = yield* Effect.flip(client.json({ method: "POST", path: "/things", body: ProviderRequest.jsonBody({}) }, Thing))
      expect(post).toMatchObject({ _tag: "AcceptedUnreadable", status: 201, request: { method: "POST", path: "/things" }, body: "" })
      expect(post.message).toMatch(/^the provider accepted POST \/things \(HTTP 201\), but its answer could not be read \(Decode error while reading the body\)/)
      expect(seen).toEqual(["POST /v1/things"])
      const get = yield* Effect.flip(client.json({ method: "GET", path: "/things/1" }, Thing))
      expect(get._tag).toBe("UnexpectedResponse")
      yield* Effect.promise(() => new Promise((resolve) => server.close(resolve)))
    }).pipe(Effect.provide(FetchHttpClient.layer)))
})

describe("RetryPolicy.parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T10:00:00Z")
  it.each([
    ["7", 7000],
    ["1.5", 1500],
    ["Sat, 21 Nov 2026 10:00:30 GMT", 30_000],
    ["Sat, 21 Nov 2026 09:00:00 GMT", 0],
    ["-1", undefined],
    ["2", 2000],
    ["soon", undefined],
    [undefined, undefined]
  ])("%j is %j ms", (header, millis) => {
    const parsed = RetryPolicy.parseRetryAfter(header, now)
    expect(parsed === undefined ? undefined : Duration.toMillis(parsed)).toBe(millis)
  })
})

describe("ProviderClient per-request time limits (TestClock)", () => {
  it.effect("a request's own short limit holds, whatever the connection's", () =>
    Effect.gen(function*() {
      const { client } = clientWith(() => "hang", { timeout: "30 seconds" })
      const fiber = yield* Effect.fork(client.send({ ...postThing, timeout: "50 millis" }, ResponseReader.json(Thing)))
      yield* TestClock.adjust("49 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 milli")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "Timeout", message: "no answer within 50ms" })
    }))
})

describe("ProviderClient headers", () => {
  it.effect("static credential headers are the same whether merged by the client or applied as a transform", () =>
    Effect.gen(function*() {
      const credentials = Auth.headers({ "X-Api-Key": Redacted.make("k-123456") })
      const http = fakeHttp(() => ({ status: 200, body: thing }))
      yield* ProviderClient.makeWith(http.client, RateLimiter.make(), { baseUrl: "https://a.test", credentials })
        .send({ method: "GET", path: "/x", headers: { "x-api-key": "spoofed" } }, ResponseReader.json(Thing))
      yield* Effect.flatMap(credentials.transform(http.client).get("https://a.test/x"), (r) => r.text)
      expect(http.sent.map((s) => s.headers["x-api-key"])).toEqual(["k-123456", "k-123456"])
    }))

  it.effect("requests made one after another keep their own method, URL, query and body; the credentials go with each", () =>
    Effect.gen(function*() {
      const credentials = Auth.headers({ Authorization: Redacted.make("Bearer t-123456") })
      const http = fakeHttp(() => ({ status: 200, body: thing }))
      const client = ProviderClient.makeWith(http.client, RateLimiter.make(), { baseUrl: "https://a.test/v2/", credentials })
      yield* client.send({ method: "GET", path: "/things/1", query: { fields: "name" } }, ResponseReader.json(Thing))
      yield* client.send({ method: "GET", path: "/things/2" }, ResponseReader.json(Thing))
      yield* client.send({ method: "POST", path: "/things", body: ProviderRequest.formBody({ name: "b" }) }, ResponseReader.json(Thing))
      // A query whose values are all left out adds nothing; a form body: arrays repeat, nothing left out is sent.
      yield* client.send({ method: "GET", path: "/things/3", query: { a: undefined, b: null } }, ResponseReader.json(Thing))
      yield* client.send({
        method: "POST",
        path: "/things",
        body: ProviderRequest.formBody({ name: "a b&c=d é", tags: ["x", "y"], pos: 2, done: false, gone: undefined, none: null })
      }, ResponseReader.json(Thing))
      expect(http.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
        "GET https://a.test/v2/things/1?fields=name",
        "GET https://a.test/v2/things/2",
        "POST https://a.test/v2/things",
        "GET https://a.test/v2/things/3",
        "POST https://a.test/v2/things"
      ])
      expect(http.sent.map((s) => [s.headers["authorization"], s.headers["accept"]])).toEqual(
        Array.from({ length: 5 }, () => ["Bearer t-123456", "application/json"])
      )
      expect(http.sent.map((s) => s.body)).toEqual([
        undefined,
        undefined,
        "name=b",
        undefined,
        "name=a+b%26c%3Dd+%C3%A9&tags=x&tags=y&pos=2&done=false"
      ])
      expect(http.sent[4]!.headers["content-type"]).toBe("application/x-www-form-urlencoded")
      expect(http.sent[4]!.headers["content-length"]).toBe("54")
    }))

  it.effect("asks for JSON by default; a request's own Accept wins", () =>
    Effect.gen(function*() {
      const { client, sent } = clientWith(() => ({ status: 200, body: "a,b" }))
      yield* client.send({ method: "GET", path: "/x" }, ResponseReader.text)
      yield* client.send({ method: "GET", path: "/x", headers: { Accept: "text/csv" } }, ResponseReader.text)
      expect(sent.map((s) => s.headers["accept"])).toEqual(["application/json", "text/csv"])
    }))
})
