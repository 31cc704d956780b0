/** `Connection`'s internals: the properties each kind of connection brings, small helpers, and its description as plain JSON data. */
import * as Duration from "effect/Duration"
import type * as Redacted from "effect/Redacted"
import * as Auth from "../Auth.js"
import type * as ConnectionTest from "../ConnectionTest.js"
import type * as OAuth2 from "../OAuth2.js"
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

export const durationMillis = (input: Duration.DurationInput) => Duration.toMillis(Duration.decode(input))

/** The OAuth2 settings with the connection's overrides of the authorize and token URLs. */
export const settingsOf = (settings: OAuth2.Settings, values: { authorizeUrl?: string | undefined; tokenUrl?: string | undefined }) => ({
  ...settings,
  authorizeUrl: values.authorizeUrl ?? settings.authorizeUrl,
  tokenUrl: values.tokenUrl ?? settings.tokenUrl
})

/** The kinds of connection. */
export type Kind = "OAUTH2" | "API_KEY" | "CUSTOM"

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
