import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"

export const getCard = Action.make({
  name: "getCard",
  title: "Get Card",
  description: "Reads a card.",
  props: {
    idBoard: Options.idBoard,
    id: Property.string({
      title: "Card",
      required: true,
      pattern: Api.idPattern,
      patternMessage: "must be a Trello id (24 hexadecimal digits)",
      dynamicOptions: Options.cards
    })
  },
  output: Api.Card,
  run: ({ id }, { client }) => Api.getCard(client, id)
})
