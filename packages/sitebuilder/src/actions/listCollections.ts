import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Collections from "../api/collections.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listCollections = Action.make({
  name: "listCollections",
  title: "List Collections",
  impact: "read",
  description: "Lists a site's CMS collections.",
  props: { siteId: Props.siteId(true) },
  output: Schema.Struct({ collections: Schema.Array(Collections.Collection) }),
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ siteId }, { client }) => Effect.map(Collections.listCollections(client, siteId), (collections) => ({ collections }))
})
