import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listBoardCards = Action.make({
  name: "listBoardCards",
  title: "List Cards on Board",
  impact: "read",
  description: "Lists a board's cards: the open ones, the archived ones, or all (Trello answers them all at once; the limit keeps the first ones).",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    filter: Property.string({
      title: "Which cards",
      choices: [{ label: "Open", value: "open" }, { label: "Archived", value: "closed" }, { label: "All", value: "all" }],
      defaultValue: "open"
    }),
    limit: Pagination.limit({ description: "The most cards returned.", defaultValue: 1000 })
  },
  output: Schema.Struct({ cards: Schema.Array(Cards.CardDetails) }),
  run: ({ filter, idBoard, limit }, { client }) =>
    Effect.map(Cards.boardCards(client, idBoard, filter ?? "open"), (cards) => ({ cards: cards.slice(0, limit ?? 1000) }))
})
