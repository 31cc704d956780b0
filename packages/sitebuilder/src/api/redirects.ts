/**
 * A site's 301 redirects (Enterprise workspaces only): the list, one created, changed and
 * deleted. Webflow lists them in one answer (the operation takes no paging parameters). A
 * redirect's id is Webflow's own, not always an objectid (the document's examples have
 * `6x9e7f8d9a4b1c2d3e4f5678`).
 */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest

/** A redirect: the path it takes (`fromUrl`) to where it sends (`toUrl`). */
export const Redirect = Schema.Struct({
  id: Schema.String,
  fromUrl: Schema.optional(Schema.String),
  toUrl: Schema.optional(Schema.String)
})
export type Redirect = typeof Redirect.Type

const Redirects = Schema.Struct({ redirects: Schema.optionalWith(Schema.Array(Redirect), { default: () => [] }) })

/** `GET /sites/{id}/redirects`. */
export const listRedirects = (client: ProviderClient.ProviderClient, siteId: string) =>
  Effect.map(client.json({ method: "GET", path: path`/sites/${siteId}/redirects` }, Redirects), (r) => r.redirects)

/** `POST /sites/{id}/redirects`. */
export const createRedirect = (client: ProviderClient.ProviderClient, siteId: string, redirect: { fromUrl: string; toUrl: string }) =>
  client.json({ method: "POST", path: path`/sites/${siteId}/redirects`, body: ProviderRequest.jsonBody(redirect) }, Redirect)

/** `PATCH /sites/{id}/redirects/{id}`: only what is given. */
export const updateRedirect = (
  client: ProviderClient.ProviderClient,
  redirect: { siteId: string; redirectId: string; fromUrl?: string | undefined; toUrl?: string | undefined }
) =>
  client.json({
    method: "PATCH",
    path: path`/sites/${redirect.siteId}/redirects/${redirect.redirectId}`,
    body: ProviderRequest.jsonBody({ fromUrl: redirect.fromUrl, toUrl: redirect.toUrl })
  }, Redirect)

/** `DELETE /sites/{id}/redirects/{id}`: Webflow answers the redirects left, which are not needed here. */
export const deleteRedirect = (client: ProviderClient.ProviderClient, siteId: string, redirectId: string) =>
  client.void({ method: "DELETE", path: path`/sites/${siteId}/redirects/${redirectId}` })
