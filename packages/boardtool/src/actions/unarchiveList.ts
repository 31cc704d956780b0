import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const unarchiveList = Action.make({
  name: "unarchiveList",
  title: "Unarchive List",
  description: "Brings an archived list (and its cards) back to its board.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: Options.closedLists })
  },
  output: Lists.List,
  run: ({ idList }, { client }) => Lists.updateList(client, idList, { closed: false })
})
