import { Action } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getPageCustomCode = Action.make({
  name: "getPageCustomCode",
  title: "Get Page Custom Code",
  impact: "read",
  description: "Reads the registered scripts the app applied to one page: id, version, header or footer, attributes.",
  props: {
    siteId: Props.siteId(false),
    pageId: Props.pageId
  },
  output: CustomCode.CustomCode,
  // pages:read for the page dropdown, as sites:read for the site's.
  scopes: [Scopes.customCodeRead, Scopes.pagesRead, Scopes.sitesRead],
  run: ({ pageId }, { client }) => CustomCode.getCustomCode(client, { pageId })
})
