import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Profiles from "../api/profiles.js"
import * as Props from "../props.js"

export const deleteProfile = Action.make({
  name: "deleteProfile",
  title: "Delete Profile",
  impact: "destroy",
  idempotent: false,
  description: "Deletes a profile and its saved browser state, for good.",
  props: {
    profileId: Props.profileId({ title: "Profile", required: true })
  },
  output: Schema.Struct({ id: Schema.String, deleted: Schema.Boolean }),
  run: ({ profileId }, { client }) => Effect.as(Profiles.deleteProfile(client, profileId), { id: profileId, deleted: true })
})
