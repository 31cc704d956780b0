import { Action } from "@x/core"
import * as Boards from "../api/boards.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const reopenBoard = Action.make({
  name: "reopenBoard",
  title: "Reopen Board",
  description: "Reopens a closed board.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: Options.closedBoards })
  },
  output: Boards.Board,
  run: ({ idBoard }, { client }) => Boards.updateBoard(client, idBoard, { closed: false })
})
