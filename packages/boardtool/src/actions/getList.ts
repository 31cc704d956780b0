import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const getList = Action.make({
  name: "getList",
  title: "Get List",
  impact: "read",
  description: "Reads a list: its name, board, position and whether it is archived.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists })
  },
  output: Lists.List,
  run: ({ idList }, { client }) => Lists.getList(client, idList)
})
