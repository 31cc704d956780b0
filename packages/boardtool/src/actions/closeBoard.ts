import { Action } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const closeBoard = Action.make({
  name: "closeBoard",
  title: "Close Board",
  impact: "write", idempotent: true,
  description: "Closes (archives) a board; it can be reopened.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards })
  },
  output: Boards.Board,
  run: ({ idBoard }, { client }) => Boards.updateBoard(client, idBoard, { closed: true })
})
