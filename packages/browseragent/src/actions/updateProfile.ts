import { Action, Property } from "@x/core"
import * as Profiles from "../api/profiles.js"
import * as Props from "../props.js"

export const updateProfile = Action.make({
  name: "updateProfile",
  title: "Update Profile",
  impact: "write",
  idempotent: true,
  description: "Renames a profile or sets its user id; the fields left empty stay as they are.",
  props: {
    profileId: Props.profileId({ title: "Profile", required: true }),
    name: Property.string({ title: "Name", maxLength: Profiles.nameMaxLength }),
    userId: Property.string({ title: "User ID", maxLength: Profiles.userIdMaxLength })
  },
  validate: ({ name, userId }) => (name === undefined && userId === undefined ? [{ path: "name", message: "give a name or a user id to change" }] : []),
  output: Profiles.Profile,
  run: ({ profileId, ...fields }, { client }) => Profiles.updateProfile(client, profileId, fields)
})
