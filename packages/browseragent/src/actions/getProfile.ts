import { Action } from "@x/core"
import * as Profiles from "../api/profiles.js"
import * as Props from "../props.js"

export const getProfile = Action.make({
  name: "getProfile",
  title: "Get Profile",
  impact: "read",
  description: "Reads a profile: its name, user id, last use and the domains it has cookies for.",
  props: {
    profileId: Props.profileId({ title: "Profile", required: true })
  },
  output: Profiles.Profile,
  run: ({ profileId }, { client }) => Profiles.getProfile(client, profileId)
})
