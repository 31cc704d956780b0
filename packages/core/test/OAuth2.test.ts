import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import nock from "nock"
import { Component, Connection, Executor, OAuth2, Trigger } from "../src/index.js"
import { connected, fakeHttp, meStep, oauthComponent } from "./support.js"

const settings: OAuth2.Settings = {
  authorizeUrl: "https://auth.example.test/oauth/authorize",
  tokenUrl: "https://api.example.test/oauth/access_token",
  scopes: ["sites:read", "ecommerce:write"]
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("OAuth2", () => {
  it("builds the authorize URL with response_type, client_id, redirect_uri, space-separated scope and state", () => {
    const url = new URL(OAuth2.authorizationUrl(settings, {
      clientId: "client-1",
      redirectUri: "http://localhost:3000/callback",
      state: "st4te"
    }))
    expect(url.origin + url.pathname).toBe("https://auth.example.test/oauth/authorize")
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "client-1",
      redirect_uri: "http://localhost:3000/callback",
      scope: "sites:read ecommerce:write",
      state: "st4te"
    })
  })

  it.effect("makes unguessable states and checks the callback's", () =>
    Effect.gen(function*() {
      const state = OAuth2.makeState()
      expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(OAuth2.makeState()).not.toBe(state)
      yield* OAuth2.checkState(state, state)
      const error = yield* Effect.flip(OAuth2.checkState(state, state.slice(1) + "x"))
      expect(error._tag).toBe("InvalidInput")
      expect((yield* Effect.flip(OAuth2.checkState(state, undefined)))._tag).toBe("InvalidInput")
    }))

  it.effect("exchanges a code: form-encoded POST to the token URL, token kept Redacted", () =>
    Effect.gen(function*() {
      const scope = nock("https://api.example.test")
        .post("/oauth/access_token", {
          client_id: "client-1",
          client_secret: "client-secret-1",
          code: "code-1",
          grant_type: "authorization_code",
          redirect_uri: "http://localhost:3000/callback"
        })
        .matchHeader("content-type", "application/x-www-form-urlencoded")
        .reply(200, { access_token: "access-1", token_type: "bearer", scope: "sites:read" })
      const token = yield* OAuth2.exchangeCode(settings, {
        clientId: "client-1",
        clientSecret: Redacted.make("client-secret-1"),
        code: "code-1",
        redirectUri: "http://localhost:3000/callback"
      }).pipe(Effect.provide(FetchHttpClient.layer))
      expect(Redacted.value(token.accessToken)).toBe("access-1")
      expect(token.expiresAt).toBeUndefined()
      expect(JSON.stringify(token)).not.toContain("access-1")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a rejected code is an AuthenticationFailed with the provider's description, secrets scrubbed", () =>
    Effect.gen(function*() {
      nock("https://api.example.test").post("/oauth/access_token").reply(400, {
        error: "invalid_grant",
        error_description: "code code-1 is invalid for client-secret-1"
      })
      const error = yield* Effect.flip(
        OAuth2.exchangeCode(settings, {
          clientId: "client-1",
          clientSecret: Redacted.make("client-secret-1"),
          code: "code-1",
          redirectUri: "http://localhost:3000/callback"
        }).pipe(Effect.provide(FetchHttpClient.layer))
      )
      expect(error._tag).toBe("AuthenticationFailed")
      expect(error.message).toBe("code [redacted] is invalid for [redacted]")
      expect(JSON.stringify(error)).not.toContain("client-secret-1")
    }))

  const { component, me } = oauthComponent(settings, { defaultBaseUrl: "https://api.example.test/v2" })
  const executor = Executor.make([component])

  it.effect("sends the access token as a Bearer token", () =>
    Effect.gen(function*() {
      nock("https://api.example.test", { reqheaders: { authorization: "Bearer access-1" } }).get("/v2/me").reply(200, { id: "u1" })
      const output = yield* executor.run(meStep).pipe(
        Effect.provide(connected({ oauthy: { clientId: "c", clientSecret: "s", accessToken: "access-1" } }))
      )
      expect(output).toEqual({ id: "u1" })
    }))

  it.effect("without an access token, says to connect first", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        executor.run(meStep).pipe(Effect.provide(connected({ oauthy: { clientId: "c", clientSecret: "s" } })))
      )
      expect(error).toMatchObject({ _tag: "AuthenticationFailed" })
      expect(error.message).toContain("connect it first")
    }))

  it.effect("refreshes after a 401 where a refresh token exists, retries once, and saves the new token", () =>
    Effect.gen(function*() {
      const saved: Array<string> = []
      const api = nock("https://api.example.test")
        .get("/v2/me").matchHeader("authorization", "Bearer old").reply(401, { message: "token expired" })
        .post("/oauth/access_token", {
          client_id: "c",
          client_secret: "s",
          refresh_token: "refresh-1",
          grant_type: "refresh_token"
        }).reply(200, { access_token: "new", expires_in: 3600 })
        .get("/v2/me").matchHeader("authorization", "Bearer new").reply(200, { id: "u1" })
      const output = yield* executor.run(meStep)
        .pipe(
          Effect.provide(connected({ oauthy: { clientId: "c", clientSecret: "s", accessToken: "old", refreshToken: "refresh-1" } })),
          Effect.provideService(OAuth2.TokenStores, {
            save: (connection, token) => Effect.sync(() => saved.push(`${connection}:${Redacted.value(token.accessToken)}`))
          })
        )
      expect(output).toEqual({ id: "u1" })
      expect(saved).toEqual(["oauthy:new"])
      expect(api.isDone()).toBe(true)
    }))

  it.effect("refreshes before a request when the token is about to expire", () =>
    Effect.gen(function*() {
      const api = nock("https://api.example.test")
        .post("/oauth/access_token").reply(200, { access_token: "fresh", refresh_token: "refresh-2", expires_in: 3600 })
        .get("/v2/me").matchHeader("authorization", "Bearer fresh").reply(200, { id: "u1" })
      yield* executor.run(meStep).pipe(Effect.provide(connected({ oauthy: {
        clientId: "c",
        clientSecret: "s",
        accessToken: "stale",
        refreshToken: "refresh-1",
        expiresAt: 30_000
      } })))
      expect(api.isDone()).toBe(true)
    }))

  it.effect("a 401 without a refresh token is an AuthenticationFailed at once", () =>
    Effect.gen(function*() {
      nock("https://api.example.test").get("/v2/me").reply(401, { message: "invalid token" })
      const error = yield* Effect.flip(
        executor.run(meStep).pipe(Effect.provide(connected({ oauthy: { clientId: "c", clientSecret: "s", accessToken: "bad" } })))
      )
      expect(error).toMatchObject({ _tag: "AuthenticationFailed", message: "invalid token", status: 401 })
    }))

  it("describes the connection with its OAuth2 settings and the action's scopes", () => {
    const description = Component.describe(component)
    expect(description.connection).toMatchObject({ kind: "OAUTH2", oauth2: settings })
    expect(Object.keys(description.connection.props)).toEqual([
      "clientId",
      "clientSecret",
      "accessToken",
      "refreshToken",
      "expiresAt",
      "authorizeUrl",
      "tokenUrl",
      "baseUrl"
    ])
    expect(description.actions[0]).toMatchObject({ name: "me", scopes: ["sites:read"] })
    expect(Component.scopesOf([me])).toEqual(["sites:read"])
  })

  it("a connection that lists no scopes asks for what the component's actions need", () => {
    const { component } = oauthComponent({ ...settings, scopes: [] }, { defaultBaseUrl: "https://api.example.test/v2" })
    expect(component.connection.oauth2?.scopes).toEqual(["sites:read"])
    const url = Effect.runSync(Connection.authorizationUrl(component.connection, { clientId: "c", clientSecret: "s" }, {
      redirectUri: "http://localhost/callback",
      state: "st"
    }))
    expect(new URL(url).searchParams.get("scope")).toBe("sites:read")
  })

  it("the connection also asks for what the component's triggers need, and describe names a trigger's scopes", () => {
    const { me } = oauthComponent(settings, { defaultBaseUrl: "https://api.example.test/v2" })
    const hook = Trigger.dynamicWebhook({
      name: "formSubmitted",
      title: "Form submitted",
      description: "",
      props: {},
      output: Schema.Unknown,
      scopes: ["sites:write", "forms:read"],
      state: Schema.Struct({}),
      enable: () => Effect.succeed({}),
      disable: () => Effect.void,
      handle: () => Effect.succeed({ response: { status: 200 }, events: [] })
    })
    const component = Component.make({
      name: "hooky",
      version: 1,
      title: "Hooky",
      description: "",
      category: "Testing",
      connection: Connection.oauth2({ title: "Hooky", oauth2: { ...settings, scopes: [] }, client: { defaultBaseUrl: "https://api.example.test/v2" } }),
      actions: [me],
      triggers: [hook]
    })
    expect(component.connection.oauth2?.scopes).toEqual(["forms:read", "sites:read", "sites:write"])
    expect(Component.scopesOf([me, hook])).toEqual(["forms:read", "sites:read", "sites:write"])
    expect(Component.describe(component).triggers[0]).toMatchObject({ name: "formSubmitted", scopes: ["sites:write", "forms:read"] })
    // A trigger without scopes adds none, and is described without them.
    const plain = { ...hook, scopes: undefined }
    expect(Component.scopesOf([plain])).toEqual([])
    expect(Component.describeTrigger(plain)).not.toHaveProperty("scopes")
  })
})

describe("OAuth2 through a connection's values", () => {
  it.effect("the authorize and token URLs can be overridden per connection; the code is exchanged with its client", () =>
    Effect.gen(function*() {
      const connection = Connection.oauth2({
        title: "OAuthy",
        oauth2: settings,
        client: { defaultBaseUrl: "https://api.example.test/v2" }
      })
      const values = {
        clientId: "client-1",
        clientSecret: "secret-1",
        authorizeUrl: "http://127.0.0.1:9/oauth/authorize",
        tokenUrl: "http://127.0.0.1:9/oauth/access_token"
      }
      const url = new URL(yield* Connection.authorizationUrl(connection, values, { redirectUri: "http://localhost/callback", state: "s1" }))
      expect(url.origin + url.pathname).toBe("http://127.0.0.1:9/oauth/authorize")
      expect(url.searchParams.get("client_id")).toBe("client-1")
      const scope = nock("http://127.0.0.1:9").post("/oauth/access_token", {
        client_id: "client-1",
        client_secret: "secret-1",
        code: "c0de",
        grant_type: "authorization_code",
        redirect_uri: "http://localhost/callback"
      }).reply(200, { access_token: "tok" })
      const token = yield* Connection.exchangeCode(connection, values, { code: "c0de", redirectUri: "http://localhost/callback" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      expect(Redacted.value(token.accessToken)).toBe("tok")
      expect(scope.isDone()).toBe(true)
      const notOAuth = yield* Effect.flip(Connection.authorizationUrl(
        Connection.apiKey({ title: "k", header: "X-Key", client: { defaultBaseUrl: "https://a.test" } }),
        { apiKey: "k" },
        { redirectUri: "http://localhost/callback", state: "s" }
      ))
      expect(notOAuth.message).toContain("does not use OAuth2")
    }))
})

describe("OAuth2 refresh, concurrently", () => {
  it.effect("two requests rejected with the same stale token renew it once", () =>
    Effect.gen(function*() {
      let refreshes = 0
      const http = fakeHttp((request) => {
        if (request.url.endsWith("/oauth/access_token")) {
          refreshes++
          return { status: 200, body: JSON.stringify({ access_token: `new-${refreshes}`, expires_in: 3600 }) }
        }
        return request.headers["authorization"] === "Bearer old"
          ? { status: 401, body: "expired" }
          : { status: 200, body: JSON.stringify({ id: request.headers["authorization"] }) }
      })
      const { component } = oauthComponent(settings, { defaultBaseUrl: "https://api.example.test/v2" })
      const executor = Executor.make([component])
      const values = { clientId: "c", clientSecret: "s", accessToken: "old", refreshToken: "r" }
      const outputs = yield* Effect.all([executor.run(meStep), executor.run(meStep)], { concurrency: 2 }).pipe(
        Effect.provide(connected({ oauthy: values }, http.layer))
      )
      expect(refreshes).toBe(1)
      // The fake echoes the Authorization header: the renewed token is scrubbed from the outputs.
      expect(outputs).toEqual([{ id: "Bearer [redacted]" }, { id: "Bearer [redacted]" }])
    }))
})
