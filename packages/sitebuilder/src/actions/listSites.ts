import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Sites from "../api/sites.js"
import * as Scopes from "../scopes.js"

export const listSites = Action.make({
  name: "listSites",
  title: "List Sites",
  impact: "read",
  description: "Lists the sites the connection can reach, with their custom domains and when each was last published.",
  props: {},
  output: Schema.Struct({ sites: Schema.Array(Sites.Site) }),
  scopes: [Scopes.sitesRead],
  run: (_, { client }) => Effect.map(Sites.listSites(client), (sites) => ({ sites }))
})
