import * as Effect from "effect/Effect"
import { activityOf, NewBoard, refOf } from "../api/activity.js"
import * as Boards from "../api/boards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import * as Activity from "./activity.js"

export const newBoardInWorkspace = Activity.make({
  name: "newBoardInWorkspace",
  title: "New Board in Workspace",
  description: "Fires when a board is created in a workspace, or an existing board is added to it.",
  summary: "New boards",
  props: { idOrganization: Props.trelloId({ title: "Workspace", required: true, dynamicOptions: BoardOptions.workspaces }) },
  // The webhook is on the workspace (Trello's organization).
  model: ({ idOrganization }) => ({ kind: "organization", id: idOrganization }),
  types: ["createBoard", "addToOrganizationBoard"],
  matches: (action, { idOrganization }) => refOf(action, "board") !== undefined && Activity.same(refOf(action, "organization")?.id, idOrganization),
  output: NewBoard,
  // The action names the board: its description, URL and permission level are read back.
  read: (action, { client }) => Effect.map(Boards.getBoard(client, refOf(action, "board")!.id), (board) => ({ action: activityOf(action), board }))
})
