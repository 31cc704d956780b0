/**
 * The connection, `Connection.ts`'s internal twin: the properties each kind of connection
 * brings, the OAUTH2 kind's authorization code flow on a connection's values, and a connection
 * as plain JSON data.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as Redacted from "effect/Redacted"
import * as Auth from "../Auth.js"
import type * as ConnectionTest from "../ConnectionTest.js"
import { AuthenticationFailed, type ConnectorError, type InvalidInput, invalidInput } from "../ConnectorError.js"
import * as OAuth2 from "../OAuth2.js"
import * as Property from "../Property.js"
import type * as RateLimiter from "../RateLimiter.js"

export const baseUrlProperty = Property.string({
  title: "Base URL",
  description: "Overrides the provider's API base URL (a proxy, a regional endpoint or a simulator).",
  pattern: /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
  patternMessage: "must be an http(s) URL without query or fragment"
})

export const apiKeyProps = (title: string) => ({
  apiKey: Property.secret({ title, required: true, minLength: 1 })
})

const headerNamePattern = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/

export const apiKeyHeaderProps = (defaultHeader: string) => ({
  // Not required: it has a default, so a typed caller may leave it out.
  key: Property.string({
    title: "Key",
    description: "The header the API key goes in.",
    defaultValue: defaultHeader,
    pattern: headerNamePattern,
    patternMessage: "must be an HTTP header name"
  }),
  value: Property.secret({ title: "API Key", required: true, minLength: 1 })
})

export const oauth2Props = {
  clientId: Property.string({ title: "Client Id", required: true, minLength: 1 }),
  clientSecret: Property.secret({ title: "Client Secret", required: true, minLength: 1 }),
  accessToken: Property.secret({
    title: "Access Token",
    description: "Obtained by connecting (the authorization code flow); not entered by hand."
  }),
  refreshToken: Property.secret({ title: "Refresh Token", description: "Issued by providers whose tokens expire." }),
  expiresAt: Property.integer({ title: "Expires At", description: "When the access token expires (ms since the epoch)." }),
  authorizeUrl: Property.string({
    title: "Authorize URL",
    description: "Overrides the provider's authorize URL (a proxy, or a simulator).",
    pattern: /^https?:\/\/\S+$/,
    patternMessage: "must be an http(s) URL"
  }),
  tokenUrl: Property.string({
    title: "Token URL",
    description: "Overrides the provider's token URL (a proxy, or a simulator).",
    pattern: /^https?:\/\/\S+$/,
    patternMessage: "must be an http(s) URL"
  })
}

export const revealKeys = (keys: Readonly<Record<string, string | Redacted.Redacted<string>>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(keys).map(([scope, value]) => [scope, Auth.reveal(value)])
  )

const durationMillis = (input: Duration.DurationInput) => Duration.toMillis(Duration.decode(input))

/** The OAuth2 settings with the connection's overrides of the authorize and token URLs. */
const settingsOf = (settings: OAuth2.Settings, values: { authorizeUrl?: string | undefined; tokenUrl?: string | undefined }) => ({
  ...settings,
  authorizeUrl: values.authorizeUrl ?? settings.authorizeUrl,
  tokenUrl: values.tokenUrl ?? settings.tokenUrl
})

/** The kinds of connection. */
export type Kind = "OAUTH2" | "API_KEY" | "CUSTOM"

// The authorization code flow of an OAUTH2 connection's values: the authorize URL, the code
// exchange, and the credentials its token gives.

/** What the flow needs of a connection. */
interface OAuth2Connection {
  readonly oauth2?: OAuth2.Settings | undefined
  readonly decode: (values: unknown) => Either.Either<Readonly<Record<string, unknown>>, InvalidInput>
}

const oauth2Settings = (connection: OAuth2Connection, values: unknown) =>
  Effect.flatMap(connection.decode(values ?? {}), (decoded) =>
    connection.oauth2 === undefined
      ? Effect.fail(invalidInput([{ path: "", message: "this connection does not use OAuth2" }], "connection"))
      : Effect.succeed({ settings: settingsOf(connection.oauth2, decoded), values: decoded as Record<string, any> }))

export const oauth2AuthorizationUrl = (
  connection: OAuth2Connection,
  values: unknown,
  params: { readonly redirectUri: string; readonly state: string }
): Effect.Effect<string, InvalidInput> =>
  Effect.map(oauth2Settings(connection, values), ({ settings, values }) =>
    OAuth2.authorizationUrl(settings, { clientId: values["clientId"], ...params }))

export const oauth2ExchangeCode = (
  connection: OAuth2Connection,
  values: unknown,
  params: { readonly code: string; readonly redirectUri: string }
): Effect.Effect<OAuth2.Token, ConnectorError, HttpClient.HttpClient> =>
  Effect.flatMap(oauth2Settings(connection, values), ({ settings, values }) =>
    OAuth2.exchangeCode(settings, {
      clientId: values["clientId"],
      clientSecret: values["clientSecret"],
      code: params.code,
      redirectUri: params.redirectUri
    }))

/** Credentials from an OAuth2 connection's values: its access token, renewed where the provider allows. */
export const oauth2Authenticate = (
  settings: OAuth2.Settings,
  values: Property.Params<typeof oauth2Props>,
  name: string
): Effect.Effect<
  { readonly credentials: Auth.Credentials; readonly rateLimitKeys: Readonly<Record<string, string>> },
  ConnectorError,
  HttpClient.HttpClient
> =>
  values.accessToken === undefined
    ? Effect.fail(
      new AuthenticationFailed({
        message: `the ${name} connection has no access token: connect it first (authorization code flow)`
      })
    )
    : Effect.map(
      OAuth2.credentials(settingsOf(settings, values), {
        connection: name,
        clientId: values.clientId,
        clientSecret: values.clientSecret,
        token: { accessToken: values.accessToken, refreshToken: values.refreshToken, expiresAt: values.expiresAt }
      }),
      (credentials) => ({ credentials, rateLimitKeys: revealKeys({ token: values.accessToken! }) })
    )

// A connection as plain JSON data.

/** What a description needs of a connection. */
interface Describable {
  readonly kind: Kind
  readonly version: number
  readonly title: string
  readonly description?: string | undefined
  readonly props: Property.Properties
  readonly client: { readonly defaultBaseUrl: string }
  readonly rateLimits: ReadonlyArray<RateLimiter.RateLimit>
  readonly oauth2?: OAuth2.Settings | undefined
  readonly test?: ConnectionTest.ConnectionTest | undefined
}

export interface ConnectionDescription {
  readonly kind: Kind
  readonly version: number
  readonly title: string
  readonly description?: string
  readonly props: Record<string, Property.PropertyDescription>
  readonly defaultBaseUrl: string
  readonly rateLimits: ReadonlyArray<{ readonly scope: string; readonly limit: number; readonly intervalMillis: number }>
  readonly oauth2?: { readonly authorizeUrl: string; readonly tokenUrl: string; readonly scopes: ReadonlyArray<string> }
  /** The request its connection test sends, e.g. `GET /members/me`. */
  readonly test?: string
}

export const describe = (connection: Describable): ConnectionDescription => ({
  kind: connection.kind,
  version: connection.version,
  title: connection.title,
  ...(connection.description !== undefined ? { description: connection.description } : {}),
  props: Property.describeAll(connection.props),
  defaultBaseUrl: connection.client.defaultBaseUrl,
  rateLimits: connection.rateLimits.map((limit) => ({
    scope: limit.scope,
    limit: limit.limit,
    intervalMillis: durationMillis(limit.interval)
  })),
  ...(connection.oauth2 !== undefined
    ? {
      oauth2: {
        authorizeUrl: connection.oauth2.authorizeUrl,
        tokenUrl: connection.oauth2.tokenUrl,
        scopes: connection.oauth2.scopes
      }
    }
    : {}),
  ...(connection.test !== undefined ? { test: `${connection.test.request.method} ${connection.test.request.path}` } : {})
})
