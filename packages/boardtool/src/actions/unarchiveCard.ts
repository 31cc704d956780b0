import { Action } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const unarchiveCard = Action.make({
  name: "unarchiveCard",
  title: "Unarchive Card",
  impact: "write", idempotent: true,
  description: "Restores an archived card to its list.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Cards.CardDetails,
  run: ({ id }, { client }) => Cards.updateCard(client, id, { closed: false })
})
