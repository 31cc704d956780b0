import { Action } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const archiveCard = Action.make({
  name: "archiveCard",
  title: "Archive Card",
  impact: "write", idempotent: true,
  description: "Archives a card (Trello's closed: it leaves its list, and can be restored).",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Cards.CardDetails,
  run: ({ id }, { client }) => Cards.updateCard(client, id, { closed: true })
})
