import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Boards from "../api/boards.js"
import * as Search from "../api/search.js"
import * as Props from "../props/shared.js"

export const searchBoards = Action.make({
  name: "searchBoards",
  title: "Search Boards",
  impact: "read",
  description: "Finds boards whose name matches a query (Trello's search), optionally in one workspace.",
  props: {
    query: Property.string({ title: "Query", required: true, minLength: 1, maxLength: 16384 }),
    idOrganization: Props.idWorkspace,
    partial: Property.boolean({ title: "Match word starts", description: "\"dev\" finds \"Development\" too." }),
    // Trello answers at most 1000 boards and does not page them.
    limit: Property.integer({ title: "Limit", description: "The most boards returned (at most 1000).", minimum: 1, maximum: 1000, defaultValue: 10 })
  },
  output: Schema.Struct({ boards: Schema.Array(Boards.Board) }),
  run: ({ limit, ...search }, { client }) => Effect.map(Search.searchBoards(client, search, limit ?? 10), (boards) => ({ boards }))
})
