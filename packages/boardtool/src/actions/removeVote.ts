import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const removeVote = Action.make({
  name: "removeVote",
  title: "Remove Vote",
  impact: "write", idempotent: false,
  description: "Withdraws a member's vote on a card.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idMember: Props.trelloId({ title: "Member", required: true, dynamicOptions: MemberOptions.boardMembers })
  },
  output: Schema.Struct({ idCard: Schema.String, idMember: Schema.String, voted: Schema.Literal(false) }),
  run: ({ idCard, idMember }, { client }) => Effect.as(Cards.removeVote(client, idCard, idMember), { idCard, idMember, voted: false as const })
})
