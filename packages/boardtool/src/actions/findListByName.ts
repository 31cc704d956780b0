import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Lists from "../api/lists.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const findListByName = Action.make({
  name: "findListByName",
  title: "Find List by Name",
  impact: "read",
  description: "Finds a board's list by its name (case ignored): found is false, and list null, when there is none.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    name: Property.string({ title: "Name", required: true, minLength: 1, maxLength: 16384 }),
    includeArchived: Property.boolean({ title: "Include archived lists", description: "Open lists are preferred when both match." })
  },
  output: Schema.Struct({ found: Schema.Boolean, list: Schema.NullOr(Lists.List) }),
  run: ({ idBoard, includeArchived, name }, { client }) =>
    Effect.map(Lists.findListByName(client, idBoard, name, includeArchived === true ? "all" : "open"), (list) => ({ found: list !== null, list }))
})
