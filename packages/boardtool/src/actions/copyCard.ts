import { Action, Property } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import { keepable } from "./createCard.js"

export const copyCard = Action.make({
  name: "copyCard",
  title: "Copy Card",
  impact: "write", idempotent: false,
  description: "Copies a card into a list (of any board), keeping what is chosen of it: by default all of it.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    toBoard: Props.trelloId({ title: "To board", required: true, dynamicOptions: BoardOptions.boards }),
    toList: Props.trelloId({ title: "To list", required: true, dynamicOptions: BoardOptions.targetLists }),
    name: Property.string({ title: "Name", description: "The copy's name (default: the card's).", maxLength: 16384 }),
    pos: Props.position,
    keep: Property.array({
      title: "Keep",
      description: `Any of ${keepable.join(", ")} (default: all).`,
      items: Property.string({ title: "Part", choices: keepable.map((value) => ({ label: value, value })) })
    })
  },
  output: Cards.CardDetails,
  run: ({ id, keep, name, pos, toList }, { client }) =>
    Cards.createCard(client, { idList: toList, idCardSource: id, keepFromSource: keep ?? ["all"], name, pos: Props.positionValue(pos) })
})
