import { Action } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const deleteBoard = Action.make({
  name: "deleteBoard",
  title: "Delete Board",
  impact: "destroy", idempotent: false,
  description: "Deletes a board with its lists and cards, for good (Close Board can be undone; this cannot).",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards })
  },
  run: ({ idBoard }, { client }) => Boards.deleteBoard(client, idBoard)
})
