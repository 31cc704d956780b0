import { Action, Choice, Property } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const updateBoard = Action.make({
  name: "updateBoard",
  title: "Update Board",
  impact: "write", idempotent: true,
  description: "Renames a board, changes its description, workspace or visibility, or closes or reopens it.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    name: Property.string({ title: "Name", minLength: 1, maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 }),
    idOrganization: Props.idWorkspace,
    permissionLevel: Property.string({ title: "Visibility", choices: Choice.of(Boards.permissionLevels) }),
    closed: Property.boolean({ title: "Closed" })
  },
  validate: ({ idBoard: _, ...changes }) =>
    Object.values(changes).every((v) => v === undefined)
      ? [{ path: "name", message: "give at least one change: name, desc, idOrganization, permissionLevel or closed" }]
      : [],
  output: Boards.Board,
  run: ({ idBoard, ...changes }, { client }) => Boards.updateBoard(client, idBoard, changes)
})
