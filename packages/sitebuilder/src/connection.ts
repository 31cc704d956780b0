/**
 * The site-builder connection: OAuth2 authorization code with the user's Webflow app. The
 * token does not expire; it is sent as a Bearer token. Webflow's rate limit is per token:
 * 60 requests a minute, or 120 on CMS, e-commerce and business plans.
 */
import { Choice, Connection, ConnectionTest, ConnectorError, Property } from "@x/core"
import * as Schema from "effect/Schema"
import * as Shared from "./api/shared.js"
import * as Token from "./api/token.js"

const errorBody = Schema.decodeUnknownOption(Shared.ErrorBody)

/** "… missing the following scopes - ecommerce:write, cms:read" → the scopes ([] when unnamed). */
const missingScopes = (body: unknown): ReadonlyArray<string> | undefined => {
  const parsed = errorBody(body)
  if (parsed._tag === "None" || parsed.value.code !== "missing_scopes") return undefined
  const fromDetails = (parsed.value.details ?? []).filter((d): d is string => typeof d === "string" && d.includes(":"))
  if (fromDetails.length > 0) return fromDetails
  return [...(parsed.value.message ?? "").matchAll(/[a-z_]+:(?:read|write)/g)].map((m) => m[0])
}

/** Webflow's `details` of a 400 (`{param, description}`, `{field, message}` or text), as issues. */
const issuesOf = (body: unknown): ReadonlyArray<ConnectorError.Issue> => {
  const parsed = errorBody(body)
  if (parsed._tag === "None") return []
  return (parsed.value.details ?? []).flatMap((detail) => {
    if (typeof detail === "string") return [{ path: "", message: detail }]
    if (typeof detail !== "object" || detail === null) return []
    const { description, field, message, param } = detail as Record<string, unknown>
    const text = typeof description === "string" ? description : typeof message === "string" ? message : undefined
    const path = typeof param === "string" ? param : typeof field === "string" ? field : ""
    return text === undefined ? [] : [{ path, message: text }]
  })
}

const lacking = (scopes: ReadonlyArray<string>) =>
  scopes.length === 0
    ? "the connection lacks a scope this needs: connect again to grant it"
    : `the connection lacks the scope${scopes.length === 1 ? "" : "s"} ${scopes.join(", ")}: connect again to grant ${
      scopes.length === 1 ? "it" : "them"
    }`

export const connection = Connection.oauth2({
  title: "Webflow",
  description: "Your Webflow app's client id and secret; its redirect URI is {app_url}/callback.",
  oauth2: {
    authorizeUrl: "https://webflow.com/oauth/authorize",
    tokenUrl: "https://api.webflow.com/oauth/access_token"
    // The scopes: what the component's actions need (Component.make adds them).
  },
  props: {
    requestsPerMinute: Property.integer({
      title: "Requests per minute",
      description: "Webflow's limit for the site's plan: 60 (Starter, Basic) or 120 (CMS, e-commerce, Business).",
      choices: Choice.of([60, 120]),
      defaultValue: 60
    })
  },
  client: {
    defaultBaseUrl: "https://api.webflow.com/v2",
    refineError: (error, body) => {
      if (error._tag === "InvalidInput") {
        const issues = issuesOf(body)
        if (issues.length === 0) return error
        const named = issues.map((issue) => issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`).join("; ")
        return new ConnectorError.InvalidInput({ ...error, message: `${error.message}: ${named}`, issues })
      }
      const scopes = error._tag === "PermissionDenied" ? missingScopes(body) : undefined
      return scopes === undefined ? error : new ConnectorError.PermissionDenied({
        ...error,
        message: `${lacking(scopes)} (${error.message})`,
        missingScopes: scopes
      })
    }
  },
  // Webflow's token introspection: the authorization behind the token, with its scopes; it needs no scope.
  test: ConnectionTest.make({
    request: { method: "GET", path: "/token/introspect" },
    answer: Token.Introspection,
    identify: ({ application, authorization }) => ({
      account: Token.authorizedTo(application?.displayName, authorization.authorizedTo),
      scopes: authorization.scope?.split(/[\s,]+/).filter((scope) => scope !== "")
    }),
    whenRefused: "the token is revoked, or the app was removed from the site or workspace: connect again to get a new one"
  }),
  rateLimits: [{ scope: "token", limit: 60, interval: "1 minute" }],
  rateLimitsOf: (values) => [{ scope: "token", limit: values.requestsPerMinute ?? 60, interval: "1 minute" }]
})
