import { Action, Property } from "@x/core"
import * as Users from "../api/users.js"
import * as UserOptions from "../options/users.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const inviteUser = Action.make({
  name: "inviteUser",
  title: "Invite Site User",
  description: "Creates a site user and emails them an invitation, in the given access groups.",
  props: {
    siteId: Props.siteId(true),
    email: Property.string({ title: "Email", required: true, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, patternMessage: "must be an email address", maxLength: 254 }),
    accessGroups: {
      ...Property.array({
        title: "Access groups",
        description: "The slugs of the site's access groups to put the user in.",
        items: Property.string({ title: "Access group", minLength: 1 }),
        maxItems: 100
      }),
      dynamicOptions: UserOptions.accessGroups
    }
  },
  output: Users.User,
  scopes: [Scopes.usersWrite, Scopes.usersRead, Scopes.sitesRead],
  run: (invite, { client }) => Users.inviteUser(client, invite)
})
