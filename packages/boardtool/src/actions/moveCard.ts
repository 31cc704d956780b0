import { Action } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const moveCard = Action.make({
  name: "moveCard",
  title: "Move Card",
  impact: "write", idempotent: true,
  description:
    "Moves a card to a list of its board or of another board, at a position. To another board, Trello drops the labels of the old board and the members who are not on the new one.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    toBoard: Props.trelloId({ title: "To board", required: true, dynamicOptions: BoardOptions.boards }),
    toList: Props.trelloId({ title: "To list", required: true, dynamicOptions: BoardOptions.targetLists }),
    pos: Props.position
  },
  output: Cards.CardDetails,
  run: ({ id, pos, toBoard, toList }, { client }) =>
    Cards.updateCard(client, id, { idBoard: toBoard, idList: toList, pos: Props.positionValue(pos) })
})
