import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Pages from "../api/pages.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listPages = Action.make({
  name: "listPages",
  title: "List Pages",
  impact: "read",
  description: "Lists a site's pages with their SEO and Open Graph metadata, across every page of the list up to the limit.",
  props: {
    siteId: Props.siteId(true),
    limit: Pagination.limit({ description: "The most pages returned (Webflow lists them by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ pages: Schema.Array(Pages.Page) }),
  scopes: [Scopes.pagesRead, Scopes.sitesRead],
  run: ({ limit, siteId }, { client }) => Effect.map(Pagination.collect(Pages.pages(client, siteId, limit ?? 100)), (pages) => ({ pages }))
})
