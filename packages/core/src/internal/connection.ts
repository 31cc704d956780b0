/** The properties each kind of connection brings, and small helpers of `Connection`. */
import * as Duration from "effect/Duration"
import type * as Redacted from "effect/Redacted"
import * as Auth from "../Auth.js"
import type * as OAuth2 from "../OAuth2.js"
import * as Property from "../Property.js"

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
