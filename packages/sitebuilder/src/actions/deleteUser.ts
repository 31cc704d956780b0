import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Users from "../api/users.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const deleteUser = Action.make({
  name: "deleteUser",
  title: "Delete Site User",
  description: "Deletes a site user (their account and access) for good.",
  props: { siteId: Props.siteId(true), userId: Props.userId },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }),
  scopes: [Scopes.usersWrite, Scopes.usersRead, Scopes.sitesRead],
  run: ({ siteId, userId }, { client }) => Effect.as(Users.deleteUser(client, siteId, userId), { id: userId, deleted: true as const })
})
