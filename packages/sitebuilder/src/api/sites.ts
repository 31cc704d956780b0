/** Sites: `GET /sites`. */
import type { ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export const Site = Schema.Struct({ id: Schema.String, displayName: Schema.String })

export const listSites = (client: ProviderClient.ProviderClient) =>
  Effect.map(client.json({ method: "GET", path: "/sites" }, Schema.Struct({ sites: Schema.Array(Site) })), (r) => r.sites)
