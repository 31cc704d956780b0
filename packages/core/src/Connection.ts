/**
 * Connections: how a component authenticates, declared as data. Three kinds: OAuth2
 * authorization code, an API key in a header, and custom (any headers or query parameters
 * built from the connection's fields, e.g. Trello's key and token). Every connection also
 * takes an optional `baseUrl` (a proxy, a regional endpoint, a simulator).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as Redacted from "effect/Redacted"
import * as Auth from "./Auth.js"
import type * as ConnectionTest from "./ConnectionTest.js"
import type { ConnectorError, InvalidInput } from "./ConnectorError.js"
import {
  apiKeyHeaderProps,
  apiKeyProps,
  baseUrlProperty,
  type Kind,
  oauth2Authenticate,
  oauth2AuthorizationUrl,
  oauth2ExchangeCode,
  oauth2Props,
  revealKeys
} from "./internal/connection.js"
import * as OAuth2 from "./OAuth2.js"
import * as Property from "./Property.js"
import type * as RateLimiter from "./RateLimiter.js"
import type * as RetryPolicy from "./RetryPolicy.js"

/**
 * How a connection authenticates: OAuth2, an API key, or custom.
 *
 * @since 0.1.0
 * @category models
 */
export type {
  /**
   * How a connection authenticates: `OAUTH2`, `API_KEY` or `CUSTOM`.
   *
   * @since 0.1.0
   * @category models
   */
  Kind
} from "./internal/connection.js"

/**
 * The provider-specific behaviour of the client, shared by every kind of connection.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClientSettings {
  readonly defaultBaseUrl: string
  readonly retry?: RetryPolicy.Settings
  readonly timeout?: Duration.DurationInput
  readonly errorMessage?: (body: unknown) => string | undefined
  readonly refineError?: (error: ConnectorError, body: unknown) => ConnectorError
}

/**
 * A connection's properties: its own, and `baseUrl`.
 *
 * @since 0.2.0
 * @category models
 */
export type WithBaseUrl<P extends Property.Properties> = P & { readonly baseUrl: typeof baseUrlProperty }

/**
 * The decoded values of a connection (secrets `Redacted`): the `connection` an action or a
 * trigger that declares this connection runs with.
 *
 * @since 0.2.0
 * @category models
 */
export type Values<C extends Connection<any>> = C extends Connection<infer P> ? Property.Params<WithBaseUrl<P>> : never

/**
 * A connection definition: its props (every one also takes `baseUrl`), client settings, rate limits and how it authenticates.
 *
 * @since 0.1.0
 * @category models
 */
export interface Connection<P extends Property.Properties = Property.Properties> {
  readonly kind: Kind
  readonly version: number
  readonly title: string
  readonly description?: string | undefined
  readonly props: WithBaseUrl<P>
  readonly client: ClientSettings
  /** The provider's published limits, applied per credential. */
  readonly rateLimits: ReadonlyArray<RateLimiter.RateLimit>
  /** The limits for these values, where the plan decides them (else `rateLimits`). */
  readonly rateLimitsOf?: ((values: Readonly<Record<string, unknown>>) => ReadonlyArray<RateLimiter.RateLimit>) | undefined
  readonly oauth2?: OAuth2.Settings | undefined
  /**
   * The cheap authenticated request that proves the credentials work (see `ConnectionTest`).
   *
   * @since 0.3.0
   */
  readonly test?: ConnectionTest.ConnectionTest | undefined
  /** Credentials and the values each rate limit counts per, from the decoded values. */
  readonly authenticate: (
    values: Property.Params<P>,
    name: string
  ) => Effect.Effect<
    { readonly credentials: Auth.Credentials; readonly rateLimitKeys: Readonly<Record<string, string>> },
    ConnectorError,
    HttpClient.HttpClient
  >
  readonly decode: (values: unknown) => Either.Either<Property.Params<WithBaseUrl<P>>, InvalidInput>
}

interface Common {
  readonly version?: number
  readonly title: string
  readonly description?: string
  readonly client: ClientSettings
  /** The provider's published limits (as described). */
  readonly rateLimits?: ReadonlyArray<RateLimiter.RateLimit>
  /** The request that proves the credentials work (`ConnectionTest.make`). */
  readonly test?: ConnectionTest.ConnectionTest
}

const define = <P extends Property.Properties>(
  kind: Kind,
  config: Common & {
    readonly props: P
    readonly oauth2?: OAuth2.Settings
    readonly rateLimitsOf?: (values: Property.Params<P>) => ReadonlyArray<RateLimiter.RateLimit>
  },
  authenticate: Connection<P>["authenticate"]
): Connection<P> => {
  const props = { ...config.props, baseUrl: baseUrlProperty } as WithBaseUrl<P>
  return {
    kind,
    version: config.version ?? 1,
    title: config.title,
    description: config.description,
    props,
    client: config.client,
    rateLimits: config.rateLimits ?? [],
    rateLimitsOf: config.rateLimitsOf as Connection<P>["rateLimitsOf"],
    oauth2: config.oauth2,
    test: config.test,
    authenticate,
    decode: Property.decoder(props, "connection")
  }
}

/**
 * Custom auth: any fields, turned into headers or query parameters by `authenticate`.
 * `rateLimitKeys` names, per rate-limit scope, the credential that scope counts per.
 *
 * @since 0.1.0
 * @category constructors
 */
export const custom = <P extends Property.Properties>(
  config: Common & {
    readonly props: P
    readonly authenticate: (values: Property.Params<P>) => {
      readonly credentials: Auth.Credentials
      readonly rateLimitKeys?: Readonly<Record<string, string | Redacted.Redacted<string>>>
    }
  }
): Connection<P> =>
  define("CUSTOM", config, (values) => {
    const { credentials, rateLimitKeys } = config.authenticate(values)
    return Effect.succeed({ credentials, rateLimitKeys: revealKeys(rateLimitKeys ?? {}) })
  })

/**
 * An API key sent in one header, with an optional prefix (e.g. "Bearer ").
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiKey = (
  config: Common & { readonly header: string; readonly prefix?: string; readonly keyTitle?: string }
): Connection<ReturnType<typeof apiKeyProps>> =>
  define("API_KEY", { ...config, props: apiKeyProps(config.keyTitle ?? "API Key") }, (values) =>
    Effect.succeed({
      credentials: Auth.apiKey(config.header, values.apiKey, config.prefix ?? ""),
      rateLimitKeys: revealKeys({ key: values.apiKey })
    }))

/**
 * An API key in a header whose name is part of the connection: `key` is the header's name
 * (`defaultHeader` unless given), `value` the key. `props` adds fields of the provider's own
 * (a secret that signs webhook deliveries, say).
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiKeyHeader = <P extends Property.Properties = {}>(
  config: Common & { readonly defaultHeader: string; readonly props?: P }
): Connection<ApiKeyHeaderProps & P> =>
  define("API_KEY", { ...config, props: { ...config.props, ...apiKeyHeaderProps(config.defaultHeader) } as ApiKeyHeaderProps & P }, (values) => {
    const { key, value } = values as Property.Params<ApiKeyHeaderProps>
    return Effect.succeed({ credentials: Auth.headers({ [key ?? config.defaultHeader]: value }), rateLimitKeys: revealKeys({ key: value }) })
  })

type ApiKeyHeaderProps = ReturnType<typeof apiKeyHeaderProps>

type OAuth2Props = typeof oauth2Props

/**
 * OAuth2 authorization code: the user connects once; the access token is sent as a Bearer
 * token. `props` adds fields of the provider's own (a plan that sets the rate limit, say).
 *
 * @since 0.1.0
 * @category constructors
 */
export const oauth2 = <P extends Property.Properties = {}>(
  config: Common & {
    /** The scopes are optional: `Component.make` adds what the component's actions need. */
    readonly oauth2: Omit<OAuth2.Settings, "scopes"> & { readonly scopes?: ReadonlyArray<string> }
    readonly props?: P
    readonly rateLimitsOf?: (values: Property.Params<OAuth2Props & P>) => ReadonlyArray<RateLimiter.RateLimit>
  }
): Connection<OAuth2Props & P> => {
  const settings: OAuth2.Settings = { ...config.oauth2, scopes: config.oauth2.scopes ?? [] }
  return define("OAUTH2", { ...config, oauth2: settings, props: { ...oauth2Props, ...config.props } as OAuth2Props & P }, (values, name) =>
    oauth2Authenticate(settings, values as Property.Params<OAuth2Props>, name))
}

/**
 * Where to send the user to connect: the authorize URL with the connection's client id, the
 * redirect URI and a `state` that the callback must bring back (check it with `OAuth2.checkState`).
 *
 * @since 0.1.0
 * @category utils
 */
export const authorizationUrl = (
  connection: Connection<any>,
  values: unknown,
  params: { readonly redirectUri: string; readonly state: string }
): Effect.Effect<string, InvalidInput> => oauth2AuthorizationUrl(connection, values, params)

/**
 * The callback's code exchanged for a token, with the connection's client credentials.
 *
 * @since 0.1.0
 * @category utils
 */
export const exchangeCode = (
  connection: Connection<any>,
  values: unknown,
  params: { readonly code: string; readonly redirectUri: string }
): Effect.Effect<OAuth2.Token, ConnectorError, HttpClient.HttpClient> => oauth2ExchangeCode(connection, values, params)

export {
  /**
   * A connection as plain JSON data: what the runner prints and a UI renders.
   *
   * @since 0.1.0
   * @category utils
   */
  describe,
  /**
   * A connection as plain JSON data: its kind, fields, default base URL, rate limits, OAuth2
   * URLs and scopes, and the request its test sends.
   *
   * @since 0.1.0
   * @category models
   */
  type ConnectionDescription
} from "./internal/connection.js"
