/**
 * Sites: the list (`GET /sites`), one site, its custom domains, and publishing it
 * (`POST /sites/{id}/publish`: to custom domains by id and/or the Webflow subdomain).
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest
const optionalText = Schema.optional(Schema.NullOr(Schema.String))

/** A custom domain of a site; `lastPublished` is null until the site is first published to it. */
export const CustomDomain = Schema.Struct({
  id: Schema.String,
  url: Schema.optional(Schema.String),
  lastPublished: optionalText
})
export type CustomDomain = typeof CustomDomain.Type

const Locale = Schema.Struct({
  id: Schema.optional(Schema.String),
  cmsLocaleId: optionalText,
  enabled: Schema.optional(Schema.Boolean),
  displayName: Schema.optional(Schema.String),
  subdirectory: optionalText,
  tag: Schema.optional(Schema.String)
})

/** A site, as `GET /sites` lists it and `GET /sites/{id}` reads it. */
export const Site = Schema.Struct({
  id: Schema.String,
  displayName: Schema.optional(Schema.String),
  shortName: Schema.optional(Schema.String),
  workspaceId: Schema.optional(Schema.String),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: optionalText,
  /** Null: never published. */
  lastPublished: optionalText,
  previewUrl: optionalText,
  timeZone: Schema.optional(Schema.String),
  parentFolderId: optionalText,
  customDomains: Schema.optionalWith(Schema.Array(CustomDomain), { default: () => [] }),
  locales: Schema.optional(Schema.NullOr(Schema.Struct({
    primary: Schema.optional(Schema.NullOr(Locale)),
    secondary: Schema.optional(Schema.Array(Locale))
  })))
})
export type Site = typeof Site.Type

/** What `POST /sites/{id}/publish` answers (202): the custom domains published to, and whether the subdomain was. */
export const Publish = Schema.Struct({
  customDomains: Schema.optionalWith(Schema.Array(CustomDomain), { default: () => [] }),
  publishToWebflowSubdomain: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type Publish = typeof Publish.Type

export const listSites = (client: ProviderClient.ProviderClient) =>
  Effect.map(client.json({ method: "GET", path: "/sites" }, Schema.Struct({ sites: Schema.Array(Site) })), (r) => r.sites)

export const getSite = (client: ProviderClient.ProviderClient, siteId: string) =>
  client.json({ method: "GET", path: path`/sites/${siteId}` }, Site)

export const customDomains = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/sites/${siteId}/custom_domains` }, Schema.Struct({ customDomains: Schema.Array(CustomDomain) })),
    (r) => r.customDomains
  )

export interface PublishTargets {
  /** Custom domain ids (`GET /sites/{id}/custom_domains`). */
  readonly customDomains: ReadonlyArray<string>
  readonly publishToWebflowSubdomain: boolean
}

export const publishSite = (client: ProviderClient.ProviderClient, siteId: string, targets: PublishTargets) =>
  client.json({
    method: "POST",
    path: path`/sites/${siteId}/publish`,
    body: ProviderRequest.jsonBody({ customDomains: targets.customDomains, publishToWebflowSubdomain: targets.publishToWebflowSubdomain })
  }, Publish)
