import { Action } from "@x/core"
import * as Redirects from "../api/redirects.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const updateRedirect = Action.make({
  name: "updateRedirect",
  title: "Update Redirect",
  impact: "write", idempotent: true,
  description: "Changes a 301 redirect's path or destination (Enterprise workspaces); what is not given is kept.",
  props: {
    siteId: Props.siteId(true),
    redirectId: Props.redirectId,
    fromUrl: Props.redirectFrom(false),
    toUrl: Props.redirectTo(false)
  },
  validate: ({ fromUrl, toUrl }) =>
    fromUrl === undefined && toUrl === undefined
      ? [{ path: "fromUrl", message: "give fromUrl, toUrl or both" }]
      : fromUrl !== undefined && fromUrl === toUrl
      ? [{ path: "toUrl", message: "must not be the path redirected (a loop)" }]
      : [],
  output: Redirects.Redirect,
  scopes: [Scopes.sitesWrite, Scopes.sitesRead],
  run: (redirect, { client }) => Redirects.updateRedirect(client, redirect)
})
