import { Action, Choice, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Users from "../api/users.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const listUsers = Action.make({
  name: "listUsers",
  title: "List Site Users",
  description: "Lists a site's users (memberships) with their access groups, sorted as asked, across every page up to the limit.",
  props: {
    siteId: Props.siteId(true),
    sort: Property.string({ title: "Sort", description: "By a key; `-` first for descending (e.g. -CreatedOn).", choices: Choice.of(Users.sorts) }),
    limit: Pagination.limit({ description: "The most users returned (Webflow pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ users: Schema.Array(Users.User) }),
  scopes: [Scopes.usersRead, Scopes.sitesRead],
  run: ({ limit, siteId, sort }, { client }) =>
    Effect.map(Pagination.collect(Users.users(client, siteId, sort, limit ?? 100)), (users) => ({ users }))
})
