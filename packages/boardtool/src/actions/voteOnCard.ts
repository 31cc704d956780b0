import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const voteOnCard = Action.make({
  name: "voteOnCard",
  title: "Vote on Card",
  impact: "write", idempotent: false,
  description: "Votes for a card as a member of its board (the board must allow voting).",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idMember: Props.trelloId({ title: "Member", required: true, dynamicOptions: MemberOptions.boardMembers })
  },
  output: Schema.Struct({ idCard: Schema.String, idMember: Schema.String, voted: Schema.Literal(true) }),
  run: ({ idCard, idMember }, { client }) => Effect.as(Cards.vote(client, idCard, idMember), { idCard, idMember, voted: true as const })
})
