import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listCustomCodeBlocks = Action.make({
  name: "listCustomCodeBlocks",
  title: "List Custom Code Blocks",
  impact: "read",
  description: "Lists where scripts are applied on a site: the site itself and each page with scripts, across every page of the list up to the limit.",
  props: {
    siteId: Props.siteId(true),
    limit: Pagination.limit({ description: "The most blocks returned (Webflow lists them by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ blocks: Schema.Array(CustomCode.CustomCodeBlock) }),
  scopes: [Scopes.customCodeRead, Scopes.sitesRead],
  run: ({ limit, siteId }, { client }) => Effect.map(Pagination.collect(CustomCode.blocks(client, siteId, limit ?? 100)), (blocks) => ({ blocks }))
})
