import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as TrelloActivity from "../api/activity.js"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

const defaultLimit = 50

export const listCardActivity = Action.make({
  name: "listCardActivity",
  title: "List Card Activity",
  impact: "read",
  description: "Lists a card's actions (comments, moves, updates), newest first, page after page (Trello keeps the newest 1000 reachable).",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    filter: Property.string({
      title: "Types",
      description: "Comma-separated action types, e.g. commentCard,updateCard:idList (default: all).",
      pattern: /^[A-Za-z]+(:[A-Za-z]+)?(,[A-Za-z]+(:[A-Za-z]+)?)*$/,
      patternMessage: "must be action types separated by commas, e.g. commentCard,updateCard:idList"
    }),
    limit: Pagination.limit({ description: "The most actions returned (Trello pages by 50, up to 20 pages).", defaultValue: defaultLimit })
  },
  output: Schema.Struct({ actions: Schema.Array(TrelloActivity.BoardAction) }),
  run: ({ filter, id, limit }, { client }) =>
    Effect.map(Pagination.collect(Cards.cardActions(client, id, filter ?? "all", limit ?? defaultLimit, TrelloActivity.BoardAction)), (actions) => ({ actions }))
})
