import { Action, Property } from "@x/core"
import * as Profiles from "../api/profiles.js"

export const createProfile = Action.make({
  name: "createProfile",
  title: "Create Profile",
  impact: "write",
  idempotent: false,
  description: "Creates a profile: a browser state (cookies, logins) that sessions keep between tasks.",
  props: {
    name: Property.string({ title: "Name", maxLength: Profiles.nameMaxLength }),
    userId: Property.string({ title: "User ID", description: "Your own id for the user this profile belongs to, to find it again.", maxLength: Profiles.userIdMaxLength })
  },
  output: Profiles.Profile,
  run: (fields, { client }) => Profiles.createProfile(client, fields),
  // A create cut short: the profile of that name and user id created since the attempt began.
  reconcile: (fields, { client }, { since }) => Profiles.findCreatedProfile(client, fields, since)
})
