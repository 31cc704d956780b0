import { Action } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const getBoard = Action.make({
  name: "getBoard",
  title: "Get Board",
  impact: "read",
  description: "Reads a board: name, description, workspace, visibility, whether it is closed, and its links.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards })
  },
  output: Boards.Board,
  run: ({ idBoard }, { client }) => Boards.getBoard(client, idBoard)
})
