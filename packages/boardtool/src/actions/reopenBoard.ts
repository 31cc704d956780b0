import { Action } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const reopenBoard = Action.make({
  name: "reopenBoard",
  title: "Reopen Board",
  impact: "write", idempotent: true,
  description: "Reopens a closed board.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.closedBoards })
  },
  output: Boards.Board,
  run: ({ idBoard }, { client }) => Boards.updateBoard(client, idBoard, { closed: false })
})
