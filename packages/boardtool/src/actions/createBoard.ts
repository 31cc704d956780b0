import { Action, Choice, Property } from "@x/core"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const createBoard = Action.make({
  name: "createBoard",
  title: "Create Board",
  impact: "write", idempotent: false,
  description: "Creates a board: empty or with Trello's default lists and labels, in a workspace, or copied from another board.",
  props: {
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 }),
    defaultLists: Property.boolean({ title: "Default lists", description: "To Do, Doing, Done (Trello's default: yes)." }),
    defaultLabels: Property.boolean({ title: "Default labels", description: "Six coloured labels (Trello's default: yes)." }),
    idOrganization: Props.idWorkspace,
    permissionLevel: Property.string({
      title: "Visibility",
      description: "private (Trello's default), org (the workspace's members) or public.",
      choices: Choice.of(Boards.permissionLevels)
    }),
    idBoardSource: Props.trelloId({ title: "Copy from board", description: "Starts with this board's lists and labels.", dynamicOptions: BoardOptions.boards }),
    keepCards: Property.boolean({ title: "Copy its cards too", description: "With a board to copy: its cards as well." })
  },
  validate: ({ idBoardSource, keepCards }) =>
    keepCards !== undefined && idBoardSource === undefined ? [{ path: "keepCards", message: "needs a board to copy (idBoardSource)" }] : [],
  output: Boards.Board,
  run: (board, { client }) => Boards.createBoard(client, board),
  // A create cut short: the member's open board of that name created since the attempt began.
  reconcile: ({ name }, { client }, { since }) => Boards.findCreatedBoard(client, name, since)
})
