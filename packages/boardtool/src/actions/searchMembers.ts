import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const searchMembers = Action.make({
  name: "searchMembers",
  title: "Search Members",
  impact: "read",
  description: "Finds members by name, username or email, optionally among a board's (Trello answers at most 20).",
  props: {
    query: Property.string({ title: "Query", required: true, minLength: 1, maxLength: 16384 }),
    idBoard: Props.trelloId({ title: "Board", description: "Rank this board's members first.", dynamicOptions: BoardOptions.boards }),
    limit: Property.integer({ title: "Limit", description: "The most members returned (Trello's cap: 20).", minimum: 1, maximum: 20, defaultValue: 8 })
  },
  output: Schema.Struct({ members: Schema.Array(Members.Member) }),
  run: (search, { client }) => Effect.map(Members.searchMembers(client, search), (members) => ({ members }))
})
