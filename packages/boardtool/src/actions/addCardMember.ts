import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const addCardMember = Action.make({
  name: "addCardMember",
  title: "Add Member to Card",
  impact: "write", idempotent: false,
  description: "Assigns a board's member to a card; outputs the card's members.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idMember: Props.trelloId({ title: "Member", description: "A member of the card's board.", required: true, dynamicOptions: MemberOptions.boardMembers })
  },
  output: Schema.Struct({ members: Schema.Array(Members.Member) }),
  run: ({ idCard, idMember }, { client }) => Effect.map(Members.addCardMember(client, idCard, idMember), (members) => ({ members }))
})
