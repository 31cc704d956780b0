import { Action, Property } from "@x/core"
import * as Api from "../api.js"

export const createBoard = Action.make({
  name: "createBoard",
  title: "Create Board",
  description: "Creates a board.",
  props: {
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 })
  },
  run: (board, { client }) => Api.createBoard(client, board)
})
