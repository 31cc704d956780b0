import { Action } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const moveListToBoard = Action.make({
  name: "moveListToBoard",
  title: "Move List to Board",
  impact: "write", idempotent: true,
  description: "Moves a list, with its cards, to another board (at the bottom unless a position is given).",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists }),
    toBoard: Props.trelloId({ title: "To board", required: true, dynamicOptions: BoardOptions.boards }),
    pos: Props.position
  },
  output: Lists.List,
  run: ({ toBoard, idList, pos }, { client }) =>
    Lists.updateList(client, idList, { idBoard: toBoard, pos: pos ?? "bottom" })
})
