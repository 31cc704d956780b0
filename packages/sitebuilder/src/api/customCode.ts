/**
 * Custom code: the scripts an app registers to a site (hosted elsewhere, with their integrity
 * hash, or inline: Webflow hosts up to 2000 characters), and the registered scripts it applies
 * to a site or a page (each by id and version, in the header or the footer). Applying replaces
 * the app's whole list on that site or page; deleting removes them all (the scripts stay
 * registered). Webflow answers these to tokens of its OAuth flow only, not to site tokens.
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { paged } from "./shared.js"

const { path } = ProviderRequest

/** A script registered to the site: its id (derived from its name: "CMS Slider" is `cms_slider`) and version. */
export const RegisteredScript = Schema.Struct({
  id: Schema.String,
  displayName: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  /** Where a hosted script is; Webflow's own URL for an inline one. */
  hostedLocation: Schema.optional(Schema.NullOr(Schema.String)),
  integrityHash: Schema.optional(Schema.NullOr(Schema.String)),
  canCopy: Schema.optional(Schema.Boolean),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String)
})
export type RegisteredScript = typeof RegisteredScript.Type

/** Where an applied script goes in the published page. */
export const locations = ["header", "footer"] as const

/** A registered script applied to a site or page: which one, which version, where, with which attributes. */
export const AppliedScript = Schema.Struct({
  id: Schema.String,
  version: Schema.String,
  location: Schema.Literal(...locations),
  attributes: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type AppliedScript = typeof AppliedScript.Type

/** The scripts the app applied to a site or a page (`[]` when none). */
export const CustomCode = Schema.Struct({
  scripts: Schema.optionalWith(Schema.Array(AppliedScript), { default: () => [] }),
  lastUpdated: Schema.optional(Schema.NullOr(Schema.String)),
  createdOn: Schema.optional(Schema.NullOr(Schema.String))
})
export type CustomCode = typeof CustomCode.Type

/** Custom code applied to the site (`type: "site"`) or to one of its pages (`type: "page"`, `pageId`). */
export const CustomCodeBlock = Schema.Struct({
  siteId: Schema.optional(Schema.String),
  pageId: Schema.optional(Schema.NullOr(Schema.String)),
  type: Schema.optional(Schema.NullOr(Schema.Literal("page", "site"))),
  scripts: Schema.optionalWith(Schema.Array(AppliedScript), { default: () => [] }),
  createdOn: Schema.optional(Schema.String),
  lastUpdated: Schema.optional(Schema.String)
})
export type CustomCodeBlock = typeof CustomCodeBlock.Type

const Registered = Schema.Struct({ registeredScripts: Schema.optionalWith(Schema.Array(RegisteredScript), { default: () => [] }) })

/** `GET /sites/{id}/registered_scripts` (a site holds 800 at most, in one answer). */
export const registeredScripts = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/sites/${siteId}/registered_scripts` }, Registered), (r) => r.registeredScripts)

/** What registering a script takes, beside its code or location. */
interface Registration {
  readonly siteId: string
  readonly displayName: string
  readonly version: string
  readonly canCopy?: boolean | undefined
}

/** `POST /sites/{id}/registered_scripts/hosted`. */
export const registerHosted = (client: ProviderClient.ProviderClient, script: Registration & { hostedLocation: string; integrityHash: string }) =>
  client.json({
    method: "POST",
    path: path`/sites/${script.siteId}/registered_scripts/hosted`,
    body: ProviderRequest.jsonBody({
      displayName: script.displayName,
      version: script.version,
      hostedLocation: script.hostedLocation,
      integrityHash: script.integrityHash,
      canCopy: script.canCopy
    })
  }, RegisteredScript)

/** `POST /sites/{id}/registered_scripts/inline`. */
export const registerInline = (client: ProviderClient.ProviderClient, script: Registration & { sourceCode: string }) =>
  client.json({
    method: "POST",
    path: path`/sites/${script.siteId}/registered_scripts/inline`,
    body: ProviderRequest.jsonBody({ displayName: script.displayName, version: script.version, sourceCode: script.sourceCode, canCopy: script.canCopy })
  }, RegisteredScript)

/** The custom code of a site (`/sites/{id}/custom_code`) or of a page (`/pages/{id}/custom_code`). */
export type Target = { readonly siteId: string } | { readonly pageId: string }
const customCodePath = (target: Target) =>
  "siteId" in target ? path`/sites/${target.siteId}/custom_code` : path`/pages/${target.pageId}/custom_code`

export const getCustomCode = (client: ProviderClient.ProviderClient, target: Target) =>
  client.json({ method: "GET", path: customCodePath(target) }, CustomCode)

/** `PUT …/custom_code`: these scripts become the app's whole list there (a script left out is removed). */
export const upsertCustomCode = (client: ProviderClient.ProviderClient, target: Target, scripts: ReadonlyArray<AppliedScript>) =>
  client.json({
    method: "PUT",
    path: customCodePath(target),
    body: ProviderRequest.jsonBody({ scripts: scripts.map(({ attributes, id, location, version }) => ({ id, version, location, attributes })) })
  }, CustomCode)

/** `DELETE …/custom_code` (204): every script the app applied there; they stay registered. */
export const deleteCustomCode = (client: ProviderClient.ProviderClient, target: Target) =>
  client.void({ method: "DELETE", path: customCodePath(target) })

/** `GET /sites/{id}/custom_code/blocks`, every page up to `maxItems`. */
export const blocks = (client: ProviderClient.ProviderClient, siteId: string, maxItems?: number) =>
  paged(client, { path: path`/sites/${siteId}/custom_code/blocks`, key: "blocks", maxItems }, CustomCodeBlock)
