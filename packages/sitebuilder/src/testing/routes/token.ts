/**
 * The token's introspection (`GET /v2/token/introspect`), answered as Webflow answers it: the
 * authorization behind the Bearer token (its id, dates, grant type, rate limit, its scopes as
 * one comma-separated text, and the workspace and sites it is authorized to) and the app. It
 * needs a valid token and no scope; a bad token is the usual 401 before it is reached. Each
 * token's authorization is made the first time it is introspected.
 */
import { objectId, type Store, workspaceId } from "../store.js"

export interface Authorization {
  readonly id: string
  readonly createdOn: string
}

/** The introspection of each token, kept per simulator. */
export const make = (store: Store, rateLimit: number) => {
  const app = { id: objectId(), rateLimit }
  const authorizations = new Map<string, Authorization>()
  return (token: string, scopes: ReadonlyArray<string>) => {
    const now = new Date().toISOString()
    let authorization = authorizations.get(token)
    if (authorization === undefined) {
      authorization = { id: objectId(), createdOn: now }
      authorizations.set(token, authorization)
    }
    return {
      authorization: {
        id: authorization.id,
        createdOn: authorization.createdOn,
        lastUsed: now,
        grantType: "authorization_code",
        rateLimit: app.rateLimit,
        scope: scopes.join(","),
        authorizedTo: { siteIds: [...store.sites.keys()], workspaceIds: [workspaceId], userIds: [] }
      },
      application: {
        id: app.id,
        description: "The simulator's OAuth app",
        homepage: "https://webflow.com",
        displayName: "Simulated App"
      }
    }
  }
}
