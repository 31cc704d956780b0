import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listListCards = Action.make({
  name: "listListCards",
  title: "List Cards in List",
  impact: "read",
  description: "Lists a list's open cards in their order (Trello answers them all at once; the limit keeps the first ones).",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists }),
    limit: Pagination.limit({ description: "The most cards returned.", defaultValue: 1000 })
  },
  output: Schema.Struct({ cards: Schema.Array(Cards.CardDetails) }),
  run: ({ idList, limit }, { client }) => Effect.map(Cards.listCards(client, idList), (cards) => ({ cards: cards.slice(0, limit ?? 1000) }))
})
