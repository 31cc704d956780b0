import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const unarchiveList = Action.make({
  name: "unarchiveList",
  title: "Unarchive List",
  impact: "write", idempotent: true,
  description: "Brings an archived list (and its cards) back to its board.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.closedLists })
  },
  output: Lists.List,
  run: ({ idList }, { client }) => Lists.updateList(client, idList, { closed: false })
})
