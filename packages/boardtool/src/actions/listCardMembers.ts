import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listCardMembers = Action.make({
  name: "listCardMembers",
  title: "List Card Members",
  impact: "read",
  description: "Lists the members assigned to a card.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Schema.Struct({ members: Schema.Array(Members.Member) }),
  run: ({ idCard }, { client }) => Effect.map(Members.cardMembers(client, idCard), (members) => ({ members }))
})
