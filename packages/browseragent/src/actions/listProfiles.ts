import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Profiles from "../api/profiles.js"

export const listProfiles = Action.make({
  name: "listProfiles",
  title: "List Profiles",
  impact: "read",
  description: "Lists the profiles, across every page up to the limit.",
  props: {
    search: Property.string({ title: "Search", description: "Only the profiles whose name or user id contains this.", maxLength: 200 }),
    limit: Pagination.limit({ description: "The most profiles returned (Browser Use pages by 100).", defaultValue: 100 })
  },
  output: Schema.Struct({ profiles: Schema.Array(Profiles.Profile) }),
  run: ({ search, limit }, { client }) =>
    Effect.map(Pagination.collect(Profiles.profiles(client, { search, maxItems: limit ?? 100 })), (profiles) => ({ profiles }))
})
