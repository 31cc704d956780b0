/**
 * The token's authorization (`GET /token/introspect`, Webflow Data API v2): what the connection
 * test reads. Only `authorization` is required; its scopes (`scope`, a list Webflow separates
 * with commas) and what it is authorized to are absent when Webflow leaves them out.
 */
import * as Schema from "effect/Schema"

const ids = Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })

export const Introspection = Schema.Struct({
  authorization: Schema.Struct({
    id: Schema.optional(Schema.String),
    grantType: Schema.optional(Schema.String),
    rateLimit: Schema.optional(Schema.Number),
    scope: Schema.optional(Schema.String),
    authorizedTo: Schema.optional(Schema.Struct({ siteIds: ids, workspaceIds: ids, userIds: ids }))
  }),
  application: Schema.optional(Schema.Struct({ id: Schema.optional(Schema.String), displayName: Schema.optional(Schema.String) }))
})
export type Introspection = typeof Introspection.Type

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`

/** "the app Acme Sync, authorized to 2 sites": who the token belongs to, as far as Webflow says. */
export const authorizedTo = (
  app: string | undefined,
  to: { readonly siteIds: ReadonlyArray<string>; readonly workspaceIds: ReadonlyArray<string> } | undefined
): string | undefined => {
  const what = to === undefined
    ? undefined
    : [to.workspaceIds.length > 0 ? count(to.workspaceIds.length, "workspace") : undefined, to.siteIds.length > 0 ? count(to.siteIds.length, "site") : undefined]
      .filter((part) => part !== undefined).join(" and ")
  const scope = what === undefined || what === "" ? undefined : `authorized to ${what}`
  if (app === undefined) return scope
  return scope === undefined ? `the app ${app}` : `the app ${app}, ${scope}`
}
