/** Dynamic options of the redirects actions: a site's redirects, as "from → to". */
import { Choice, DynamicOptions } from "@x/core"
import * as Effect from "effect/Effect"
import * as Redirects from "../api/redirects.js"

export const redirects = DynamicOptions.make(["siteId"], ({ client, params }) =>
  Effect.map(Redirects.listRedirects(client, DynamicOptions.dependency(params, "siteId")), (items) =>
    Choice.fromRecords(items, (r) => `${r.fromUrl ?? "?"} → ${r.toUrl ?? "?"}`, (r) => r.id)))
