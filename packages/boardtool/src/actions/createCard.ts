import { Action, Property } from "@x/core"
import * as Api from "../api.js"
import * as Options from "../options.js"

export const createCard = Action.make({
  name: "createCard",
  title: "Create Card",
  description: "Creates a card in a list.",
  props: {
    idBoard: Options.idBoard,
    idList: Property.string({
      title: "List",
      required: true,
      pattern: Api.idPattern,
      patternMessage: "must be a Trello id (24 hexadecimal digits)",
      dynamicOptions: Options.lists
    }),
    name: Property.string({ title: "Name", maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 })
  },
  output: Api.Card,
  run: ({ desc, idList, name }, { client }) => Api.createCard(client, { idList, name, desc })
})
