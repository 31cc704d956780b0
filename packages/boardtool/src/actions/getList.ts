import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const getList = Action.make({
  name: "getList",
  title: "Get List",
  description: "Reads a list: its name, board, position and whether it is archived.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: Options.lists })
  },
  output: Lists.List,
  run: ({ idList }, { client }) => Lists.getList(client, idList)
})
