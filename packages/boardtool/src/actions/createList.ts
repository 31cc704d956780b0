import { Action, Property } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const createList = Action.make({
  name: "createList",
  title: "Create List",
  impact: "write", idempotent: false,
  description: "Creates a list on a board (at the bottom unless a position is given), optionally copying another list's cards.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    pos: Props.position,
    idListSource: Props.trelloId({ title: "Copy from list", description: "A list whose cards the new list starts with.", dynamicOptions: BoardOptions.lists })
  },
  output: Lists.List,
  run: (list, { client }) => Lists.createList(client, list),
  // A create cut short: the list of that name on that board created since the attempt began.
  reconcile: ({ idBoard, name }, { client }, { since }) => Lists.findCreatedList(client, { idBoard, name }, since)
})
