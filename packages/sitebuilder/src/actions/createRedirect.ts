import { Action } from "@x/core"
import * as Redirects from "../api/redirects.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const createRedirect = Action.make({
  name: "createRedirect",
  title: "Create Redirect",
  impact: "write", idempotent: false,
  description: "Adds a 301 redirect to a site (Enterprise workspaces): a path of the site to another path or a URL.",
  props: {
    siteId: Props.siteId(true),
    fromUrl: Props.redirectFrom(true),
    toUrl: Props.redirectTo(true)
  },
  validate: ({ fromUrl, toUrl }) => fromUrl === toUrl ? [{ path: "toUrl", message: "must not be the path redirected (a loop)" }] : [],
  output: Redirects.Redirect,
  scopes: [Scopes.sitesWrite, Scopes.sitesRead],
  run: ({ fromUrl, siteId, toUrl }, { client }) => Redirects.createRedirect(client, siteId, { fromUrl, toUrl })
})
