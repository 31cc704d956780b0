import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import nock from "nock"
import { CustomAction, Executor } from "../src/index.js"
import { connected, connectionValues, fixture, KEY, TOKEN } from "./support.js"

const BASE = "https://api.fixture.test/1"
const executor = Executor.make([fixture])
const custom = (parameters: Record<string, unknown>) =>
  executor.run({ label: "Custom", name: "custom", type: "fixture/v1/customAction", parameters }).pipe(
    Effect.provide(connected({ fixture: connectionValues }))
  )

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("CustomAction.resolvePath", () => {
  it.each([
    ["/cards/1", "/cards/1"],
    ["cards/1?fields=name", "/cards/1?fields=name"],
    ["/cards/../boards/2", "/boards/2"],
    ["https://api.fixture.test/1/members/me", "/members/me"],
    ["/", "/"]
  ])("accepts %j as %j", (path, resolved) => {
    expect(CustomAction.resolvePath(BASE, path)).toEqual(Either.right(resolved))
  })

  it.each([
    ["https://evil.test/steal", "must stay on https://api.fixture.test"],
    ["http://api.fixture.test/1/cards", "must stay on https://api.fixture.test"],
    ["//evil.test/steal", "scheme-relative"],
    ["/../admin", "must stay below the base URL's path /1/"],
    ["../../admin", "must stay below the base URL's path /1/"],
    ["/cards/%2e%2e/%2e%2e/admin", "must stay below the base URL's path /1/"],
    ["\\\\evil.test/steal", "backslashes"],
    ["/cards\r\nHost: evil", "control characters"],
    ["https://user:pw@api.fixture.test/1/x", "user information"],
    ["javascript:alert(1)", "must stay on"],
    ["..%2f..%2fadmin", "encoded slash"],
    ["/%2e%2e%2fadmin", "encoded slash"],
    ["/a/%5c..%5cadmin", "encoded slash or backslash"],
    ["/a/..;/b", "segment that starts with .."],
    ["/cards/%zz", "invalid percent-encoding"]
  ])("rejects %j", (path, reason) => {
    const result = CustomAction.resolvePath(BASE, path)
    expect(Either.isLeft(result) && result.left.message).toContain(reason)
  })
})

describe("customAction", () => {
  it.effect("sends any request with the connection's auth, and returns status, headers and body", () =>
    Effect.gen(function*() {
      const scope = nock("https://api.fixture.test", { reqheaders: { "x-key": KEY, "x-token": TOKEN, "x-extra": "1" } })
        .put("/1/cards/abc", { name: "renamed" })
        .query({ fields: "name", idx: "1" })
        .reply(200, { id: "abc", name: "renamed" }, { "x-request-id": "r1" })
      const output = yield* custom({
        method: "PUT",
        path: "/cards/abc?fields=name",
        query: { idx: 1 },
        headers: { "X-Extra": "1" },
        body: { name: "renamed" }
      })
      expect(output).toMatchObject({ status: 200, headers: { "x-request-id": "r1" }, body: { id: "abc", name: "renamed" } })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("sends form and text bodies, and returns text and base64 binary responses", () =>
    Effect.gen(function*() {
      nock("https://api.fixture.test").post("/1/form", "a=1&b=two").reply(200, "plain answer")
      expect(yield* custom({ method: "POST", path: "/form", bodyType: "FORM", body: { a: 1, b: "two" }, responseType: "TEXT" }))
        .toMatchObject({ body: "plain answer" })
      nock("https://api.fixture.test").post("/1/raw", "raw text").reply(200, Buffer.from([0, 1, 2, 255]))
      expect(yield* custom({ method: "POST", path: "/raw", bodyType: "TEXT", bodyText: "raw text", responseType: "BINARY" }))
        .toMatchObject({ body: "AAEC/w==" })
    }))

  it.effect("a path that leaves the base URL is rejected before anything is sent", () =>
    Effect.gen(function*() {
      const anywhere = nock(/.*/).get(/.*/).reply(200, {}).persist()
      const error = yield* Effect.flip(custom({ method: "GET", path: "https://evil.test/steal" }))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toContain("must stay on https://api.fixture.test")
      expect(anywhere.isDone()).toBe(false)
    }))

  it.effect("a text body keeps the caller's Content-Type; JSON null stays null", () =>
    Effect.gen(function*() {
      nock("https://api.fixture.test")
        .post("/1/xml", "<a/>")
        .matchHeader("content-type", "application/xml")
        .reply(200, "null", { "content-type": "application/json" })
      const output = yield* custom({
        method: "POST",
        path: "/xml",
        headers: { "Content-Type": "application/xml" },
        bodyType: "TEXT",
        bodyText: "<a/>"
      })
      expect(output).toMatchObject({ status: 200, body: null })
    }))

  it.effect("form and query values that are not scalars are InvalidInput, before anything is sent", () =>
    Effect.gen(function*() {
      const anywhere = nock(/.*/).post(/.*/).reply(200, {}).persist()
      const error = yield* Effect.flip(custom({
        method: "POST",
        path: "/form",
        bodyType: "FORM",
        body: { a: { nested: 1 }, ok: "yes" },
        query: { q: [{ x: 1 }] }
      }))
      expect(error._tag === "InvalidInput" && error.issues.map((i) => i.path)).toEqual(["query.q", "body.a"])
      expect(anywhere.isDone()).toBe(false)
    }))

  it.effect("maps a provider error like any action, and rejects reserved headers and unknown methods", () =>
    Effect.gen(function*() {
      nock("https://api.fixture.test").delete("/1/cards/x").reply(404, "The requested resource was not found.")
      expect(yield* Effect.flip(custom({ method: "DELETE", path: "/cards/x" }))).toMatchObject({
        _tag: "NotFound",
        message: "The requested resource was not found.",
        request: { method: "DELETE", path: "/cards/x" }
      })
      const reserved = yield* Effect.flip(custom({ method: "GET", path: "/x", headers: { Host: "evil.test" } }))
      expect(reserved.message).toContain("headers.Host: may not be set")
      const method = yield* Effect.flip(custom({ method: "TRACE", path: "/x" }))
      expect(method.message).toContain("method: must be one of")
    }))
})

describe("CustomAction output", () => {
  it.effect("a provider that echoes the request's headers returns no key or token in the output", () =>
    Effect.gen(function*() {
      nock(BASE.replace("/1", "")).get("/1/echo").reply(
        200,
        function() {
          // An echo service, or a proxy that reflects what it got: the credentials come back.
          return { headers: this.req.headers, [`seen-${KEY}`]: [`token=${encodeURIComponent(TOKEN)}`] }
        },
        { "x-echo-key": KEY }
      )
      const output = yield* custom({ method: "GET", path: "/echo" })
      const text = JSON.stringify(output)
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(encodeURIComponent(TOKEN))
      expect(output).toMatchObject({
        status: 200,
        headers: { "x-echo-key": "[redacted]" },
        body: { headers: { "x-key": "[redacted]", "x-token": "[redacted]" }, "seen-[redacted]": ["token=[redacted]"] }
      })
    }))
})
