import { Action } from "@x/core"
import * as Pages from "../api/pages.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getPageMetadata = Action.make({
  name: "getPageMetadata",
  title: "Get Page Metadata",
  impact: "read",
  description: "Reads a page's metadata: its title, slug, path, SEO title and description, and Open Graph title and description.",
  props: { siteId: Props.siteId(false), pageId: Props.pageId },
  output: Pages.Page,
  scopes: [Scopes.pagesRead, Scopes.sitesRead],
  run: ({ pageId }, { client }) => Pages.getPage(client, pageId)
})
