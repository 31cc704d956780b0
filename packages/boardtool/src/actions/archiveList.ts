import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const archiveList = Action.make({
  name: "archiveList",
  title: "Archive List",
  impact: "write", idempotent: true,
  description: "Archives a list (its cards go with it; unarchiving brings them back).",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists })
  },
  output: Lists.List,
  run: ({ idList }, { client }) => Lists.updateList(client, idList, { closed: true })
})
