/**
 * Pages: a site's pages (every page of the list), one page's metadata, and its update
 * (`PUT /pages/{id}`: title, slug, SEO and Open Graph). Pages themselves are made and deleted
 * in Webflow's Designer only.
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"

const { path } = ProviderRequest
const optionalText = Schema.optional(Schema.NullOr(Schema.String))

export const Seo = Schema.Struct({ title: optionalText, description: optionalText })
/** `titleCopied`/`descriptionCopied`: the Open Graph title/description is the SEO one. */
export const OpenGraph = Schema.Struct({
  title: optionalText,
  titleCopied: Schema.optional(Schema.Boolean),
  description: optionalText,
  descriptionCopied: Schema.optional(Schema.Boolean)
})

/** A page and its metadata. */
export const Page = Schema.Struct({
  id: Schema.String,
  siteId: Schema.optional(Schema.String),
  title: optionalText,
  slug: optionalText,
  /** The folder it is in; null at the top. */
  parentId: optionalText,
  /** The collection of a CMS template page; null for a static page. */
  collectionId: optionalText,
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String),
  archived: Schema.optional(Schema.Boolean),
  draft: Schema.optional(Schema.Boolean),
  canBranch: Schema.optional(Schema.Boolean),
  isBranch: Schema.optional(Schema.Boolean),
  branchId: optionalText,
  seo: Schema.optional(Schema.NullOr(Seo)),
  openGraph: Schema.optional(Schema.NullOr(OpenGraph)),
  localeId: optionalText,
  /** The page's path on the published site (`/about`). */
  publishedPath: optionalText
})
export type Page = typeof Page.Type

/** `GET /sites/{id}/pages`, every page up to `maxItems`. */
export const pages = (client: ProviderClient.ProviderClient, siteId: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/pages`, key: "pages", maxItems }, Page)

export const getPage = (client: ProviderClient.ProviderClient, pageId: string) =>
  client.json({ method: "GET", path: path`/pages/${pageId}` }, Page)

/** What `PUT /pages/{id}` takes: only what is given is changed. */
export interface PageUpdate {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  readonly seo?: { readonly title?: string | undefined; readonly description?: string | undefined } | undefined
  readonly openGraph?: {
    readonly title?: string | undefined
    readonly titleCopied?: boolean | undefined
    readonly description?: string | undefined
    readonly descriptionCopied?: boolean | undefined
  } | undefined
}

/** Drops what is undefined (and an object left empty), so that only what is given is sent. */
const given = (record: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    const kept = typeof value === "object" && value !== null ? given(value as Record<string, unknown>) : value
    if (kept !== undefined) out[key] = kept
  }
  return Object.keys(out).length === 0 ? undefined : out
}

export const updatePage = (client: ProviderClient.ProviderClient, pageId: string, update: PageUpdate) =>
  client.json({ method: "PUT", path: path`/pages/${pageId}`, body: ProviderRequest.jsonBody(given({ ...update }) ?? {}) }, Page)
