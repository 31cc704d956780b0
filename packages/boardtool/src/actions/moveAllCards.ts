import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const moveAllCards = Action.make({
  name: "moveAllCards",
  title: "Move All Cards in List",
  impact: "write", idempotent: true,
  description: "Moves every open card of a list to another list, of the same board or another, in one request (all or none).",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "From list", required: true, dynamicOptions: BoardOptions.lists }),
    toBoard: Props.trelloId({ title: "To board", required: true, dynamicOptions: BoardOptions.boards }),
    toList: Props.trelloId({ title: "To list", required: true, dynamicOptions: BoardOptions.targetLists })
  },
  validate: ({ idList, toList }) =>
    idList.toLowerCase() === toList.toLowerCase() ? [{ path: "toList", message: "must be another list" }] : [],
  output: Schema.Struct({ moved: Schema.Number, cards: Schema.Array(Cards.Card) }),
  run: ({ toBoard, idList, toList }, { client }) =>
    Effect.map(Lists.moveAllCards(client, idList, { idBoard: toBoard, idList: toList }), (cards) => ({ moved: cards.length, cards }))
})
