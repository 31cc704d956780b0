import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listBoardMembers = Action.make({
  name: "listBoardMembers",
  title: "List Board Members",
  impact: "read",
  description: "Lists a board's members.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards })
  },
  output: Schema.Struct({ members: Schema.Array(Members.Member) }),
  run: ({ idBoard }, { client }) => Effect.map(Members.boardMembers(client, idBoard), (members) => ({ members }))
})
