import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const createCard = Action.make({
  name: "createCard",
  title: "Create Card",
  description: "Creates a card in a list.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: Options.lists }),
    name: Property.string({ title: "Name", maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 })
  },
  output: Api.Card,
  run: ({ desc, idList, name }, { client }) => Api.createCard(client, { idList, name, desc })
})
