import { Action } from "@x/core"
import * as Users from "../api/users.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const getUser = Action.make({
  name: "getUser",
  title: "Get Site User",
  description: "Reads a site user: status, access groups and data (custom fields kept).",
  props: { siteId: Props.siteId(true), userId: Props.userId },
  output: Users.User,
  scopes: [Scopes.usersRead, Scopes.sitesRead],
  run: ({ siteId, userId }, { client }) => Users.getUser(client, siteId, userId)
})
