import { Action } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const getCard = Action.make({
  name: "getCard",
  title: "Get Card",
  description: "Reads a card.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: Options.cards })
  },
  output: Api.Card,
  run: ({ id }, { client }) => Api.getCard(client, id)
})
