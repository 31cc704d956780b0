import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listVoters = Action.make({
  name: "listVoters",
  title: "List Voters",
  impact: "read",
  description: "Lists the members who voted for a card.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Schema.Struct({ voters: Schema.Array(Cards.CardMember) }),
  run: ({ idCard }, { client }) => Effect.map(Cards.voters(client, idCard), (voters) => ({ voters }))
})
