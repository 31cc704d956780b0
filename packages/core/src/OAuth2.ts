/**
 * OAuth2 authorization code: the authorize URL with a `state`, the callback's state check,
 * the code exchange, and credentials that refresh themselves where the provider issues
 * refresh tokens. Tokens are `Redacted` from the moment they arrive.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { randomBytes, timingSafeEqual } from "node:crypto"
import * as Auth from "./Auth.js"
import { AuthenticationFailed, type ConnectorError, InvalidInput } from "./ConnectorError.js"
import * as ProviderClient from "./ProviderClient.js"
import * as ProviderRequest from "./ProviderRequest.js"
import * as ResponseReader from "./ResponseReader.js"

/**
 * The provider's OAuth2 endpoints and the scopes to ask for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** The scopes to ask for (the union of what the component's actions need). */
  readonly scopes: ReadonlyArray<string>
  /** How scopes are joined in the authorize URL. Default " ". */
  readonly scopeSeparator?: string
  readonly extraAuthorizeParams?: Readonly<Record<string, string>>
}

/**
 * A token set, its secrets `Redacted`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Token {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken?: Redacted.Redacted<string> | undefined
  /** When the access token expires (ms since the epoch); absent when it does not. */
  readonly expiresAt?: number | undefined
  readonly scope?: string | undefined
}

/**
 * A fresh, unguessable `state` for one authorization.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeState = (): string => randomBytes(24).toString("base64url")

/**
 * The URL to send the user to, to authorize the app.
 *
 * @since 0.1.0
 * @category constructors
 */
export const authorizationUrl = (
  settings: Settings,
  params: { readonly clientId: string; readonly redirectUri: string; readonly state: string }
): string => {
  const url = new URL(settings.authorizeUrl)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("client_id", params.clientId)
  url.searchParams.set("redirect_uri", params.redirectUri)
  if (settings.scopes.length > 0) url.searchParams.set("scope", settings.scopes.join(settings.scopeSeparator ?? " "))
  url.searchParams.set("state", params.state)
  for (const [key, value] of Object.entries(settings.extraAuthorizeParams ?? {})) url.searchParams.set(key, value)
  return url.toString()
}

/**
 * The callback's `state` must be the one the authorization was started with (compared in constant time).
 *
 * @since 0.1.0
 * @category utils
 */
export const checkState = (expected: string, received: string | undefined): Effect.Effect<void, InvalidInput> => {
  const a = Buffer.from(expected)
  const b = Buffer.from(received ?? "")
  return a.length === b.length && timingSafeEqual(a, b) ? Effect.void : Effect.fail(
    new InvalidInput({
      message: "the authorization callback's state does not match: the callback was not started here, or is stale",
      issues: [{ path: "state", message: "does not match" }]
    })
  )
}

const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.optional(Schema.String),
  refresh_token: Schema.optional(Schema.String),
  expires_in: Schema.optional(Schema.Number),
  scope: Schema.optional(Schema.String)
})

/** Posts a form to the token endpoint: the request the code exchange and the refresh share. */
const tokenRequest = (
  tokenUrl: string,
  form: Record<string, string>,
  secrets: ReadonlyArray<Redacted.Redacted<string>>
): Effect.Effect<Token, ConnectorError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* ProviderClient.make({
      baseUrl: tokenUrl,
      credentials: { ...Auth.none, secrets },
      // An invalid or used code is a 400 `invalid_grant`: the user must authorize again.
      refineError: (error) =>
        error._tag === "InvalidInput"
          ? new AuthenticationFailed({ message: error.message, request: error.request, status: error.status, body: error.body })
          : error
    })
    const response = yield* client.send(
      { method: "POST", path: "", body: ProviderRequest.formBody(form) },
      ResponseReader.json(TokenResponse)
    )
    const now = yield* Clock.currentTimeMillis
    return {
      accessToken: Redacted.make(response.access_token),
      refreshToken: response.refresh_token === undefined ? undefined : Redacted.make(response.refresh_token),
      expiresAt: response.expires_in === undefined ? undefined : now + response.expires_in * 1000,
      scope: response.scope
    }
  })

/**
 * Exchanges the callback's code for a token.
 *
 * @since 0.1.0
 * @category constructors
 */
export const exchangeCode = (
  settings: Settings,
  params: {
    readonly clientId: string
    readonly clientSecret: Redacted.Redacted<string>
    readonly code: string
    readonly redirectUri: string
  }
): Effect.Effect<Token, ConnectorError, HttpClient.HttpClient> =>
  tokenRequest(settings.tokenUrl, {
    client_id: params.clientId,
    client_secret: Redacted.value(params.clientSecret),
    code: params.code,
    grant_type: "authorization_code",
    redirect_uri: params.redirectUri
  }, [params.clientSecret, Redacted.make(params.code)])

/**
 * Exchanges a refresh token for a new access token.
 *
 * @since 0.1.0
 * @category constructors
 */
export const refresh = (
  settings: Settings,
  params: {
    readonly clientId: string
    readonly clientSecret: Redacted.Redacted<string>
    readonly refreshToken: Redacted.Redacted<string>
  }
): Effect.Effect<Token, ConnectorError, HttpClient.HttpClient> =>
  Effect.map(
    tokenRequest(settings.tokenUrl, {
      client_id: params.clientId,
      client_secret: Redacted.value(params.clientSecret),
      refresh_token: Redacted.value(params.refreshToken),
      grant_type: "refresh_token"
    }, [params.clientSecret, params.refreshToken]),
    // A provider may not rotate the refresh token: keep the one we have.
    (token) => token.refreshToken === undefined ? { ...token, refreshToken: params.refreshToken } : token
  )

/**
 * Where refreshed tokens are kept, so that the next run starts with them. Default: memory only.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenStore {
  readonly save: (connection: string, token: Token) => Effect.Effect<void>
}

/**
 * The `TokenStore` in use (memory only by default).
 *
 * @since 0.1.0
 * @category services
 */
export class TokenStores extends Context.Reference<TokenStores>()("@x/core/OAuth2/TokenStores", {
  defaultValue: (): TokenStore => ({ save: () => Effect.void })
}) {}

/** Refresh a token this long before it expires. */
const expiryMargin = 60_000

/**
 * Bearer credentials from a token. With a refresh token, the token is renewed shortly before
 * it expires and after a 401, once at a time, and the new token is saved in the `TokenStores`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const credentials = (
  settings: Settings,
  params: {
    readonly connection: string
    readonly clientId: string
    readonly clientSecret: Redacted.Redacted<string>
    readonly token: Token
  }
): Effect.Effect<Auth.Credentials, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const initial = params.token
    if (initial.refreshToken === undefined) {
      return { ...Auth.bearer(initial.accessToken), secrets: [initial.accessToken, params.clientSecret] }
    }
    const context = yield* Effect.context<HttpClient.HttpClient>()
    const store = yield* TokenStores
    const current = yield* Ref.make(initial)
    const lock = yield* Effect.makeSemaphore(1)
    const secrets: Array<Redacted.Redacted<string>> = [initial.accessToken, initial.refreshToken, params.clientSecret]
    const renew = (stale: Token): Effect.Effect<boolean, ConnectorError> =>
      lock.withPermits(1)(Effect.gen(function*() {
        // Another request may have renewed it while this one waited for the lock.
        if ((yield* Ref.get(current)) !== stale) return true
        const token = yield* refresh(settings, {
          clientId: params.clientId,
          clientSecret: params.clientSecret,
          refreshToken: stale.refreshToken!
        }).pipe(Effect.provide(context))
        secrets.push(token.accessToken)
        if (token.refreshToken !== undefined) secrets.push(token.refreshToken)
        yield* Ref.set(current, token)
        yield* store.save(params.connection, token)
        return true
      }))
    const fresh = Effect.flatMap(Ref.get(current), (token) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        token.expiresAt !== undefined && token.expiresAt - expiryMargin <= now
          ? Effect.zipRight(Effect.orElseSucceed(renew(token), () => false), Ref.get(current))
          : Effect.succeed(token)))
    // The token each fiber's last request was sent with: a 401 renews that one, so requests
    // that failed together renew it once.
    const sentWith = new WeakMap<object, Token>()
    return {
      transform: HttpClient.mapRequestEffect((request) =>
        Effect.flatMap(fresh, (token) =>
          Effect.withFiberRuntime((fiber) => {
            sentWith.set(fiber, token)
            return Effect.succeed(HttpClientRequest.bearerToken(request, Redacted.value(token.accessToken)))
          }))
      ),
      secrets,
      refresh: Effect.withFiberRuntime((fiber) => {
        const used = sentWith.get(fiber)
        return used === undefined ? Effect.flatMap(Ref.get(current), renew) : renew(used)
      })
    } satisfies Auth.Credentials
  })
