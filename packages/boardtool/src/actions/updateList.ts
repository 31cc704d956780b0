import { Action, Property } from "@x/core"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const updateList = Action.make({
  name: "updateList",
  title: "Update List",
  impact: "write", idempotent: true,
  description: "Renames a list, moves it within its board, archives or unarchives it, or changes whether you follow it.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists }),
    name: Property.string({ title: "Name", minLength: 1, maxLength: 16384 }),
    pos: Props.position,
    closed: Property.boolean({ title: "Archived" }),
    subscribed: Property.boolean({ title: "Following" })
  },
  validate: ({ closed, name, pos, subscribed }) =>
    [name, pos, closed, subscribed].every((v) => v === undefined)
      ? [{ path: "name", message: "give at least one change: name, pos, closed or subscribed" }]
      : [],
  output: Lists.List,
  run: ({ idBoard: _, idList, ...changes }, { client }) => Lists.updateList(client, idList, changes)
})
