import { Action } from "@x/core"
import * as Collections from "../api/collections.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getCollection = Action.make({
  name: "getCollection",
  title: "Get Collection",
  impact: "read",
  description: "Reads a CMS collection with its fields: each one's slug, type, whether it is required, and its validations.",
  props: { siteId: Props.siteId(false), collectionId: Props.collectionId },
  output: Collections.CollectionDetails,
  scopes: [Scopes.cmsRead, Scopes.sitesRead],
  run: ({ collectionId }, { client }) => Collections.getCollection(client, collectionId)
})
