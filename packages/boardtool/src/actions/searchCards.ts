import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Search from "../api/search.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

const defaultLimit = 50

export const searchCards = Action.make({
  name: "searchCards",
  title: "Search Cards",
  impact: "read",
  description:
    "Finds open cards matching a query (Trello's search syntax: words, \"label:urgent\", \"due:week\" ...), optionally on one board or in one list, across pages up to the limit.",
  props: {
    query: Property.string({ title: "Query", required: true, minLength: 1, maxLength: 16384 }),
    idBoard: Props.trelloId({ title: "Board", dynamicOptions: BoardOptions.boards }),
    idList: Props.trelloId({ title: "List", description: "Only this list's cards (needs the board).", dynamicOptions: BoardOptions.lists }),
    partial: Property.boolean({ title: "Match word starts", description: "\"dev\" finds \"development\" too." }),
    limit: Pagination.limit({ description: "The most cards returned (Trello pages by 1000, up to its 100th page).", defaultValue: defaultLimit })
  },
  validate: ({ idBoard, idList }) =>
    idList !== undefined && idBoard === undefined ? [{ path: "idBoard", message: "is needed with a list (idList)" }] : [],
  output: Schema.Struct({ cards: Schema.Array(Search.FoundCard) }),
  run: ({ limit, ...search }, { client }) => Effect.map(Search.searchCards(client, search, limit ?? defaultLimit), (cards) => ({ cards }))
})
