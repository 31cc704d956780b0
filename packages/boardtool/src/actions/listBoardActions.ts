import { Action, Pagination, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as TrelloActivity from "../api/activity.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

/** Trello's own default page: 50 actions. */
const defaultLimit = 50

export const listBoardActions = Action.make({
  name: "listBoardActions",
  title: "List Board Actions",
  impact: "read",
  description: "Lists a board's activity (cards created, comments, updates), newest first, across pages up to the limit.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    filter: Property.string({
      title: "Types",
      description: "Comma-separated action types, e.g. createCard,commentCard (default: all).",
      pattern: /^[A-Za-z]+(,[A-Za-z]+)*$/,
      patternMessage: "must be action types separated by commas, e.g. createCard,commentCard"
    }),
    since: Property.dateTime({ title: "Since", description: "Only the actions after this date." }),
    limit: Pagination.limit({ description: "The most actions returned (Trello pages by 1000).", defaultValue: defaultLimit })
  },
  output: Schema.Struct({ actions: Schema.Array(TrelloActivity.BoardAction) }),
  run: ({ limit, ...query }, { client }) =>
    Effect.map(Pagination.collect(TrelloActivity.boardActions(client, query, limit ?? defaultLimit)), (actions) => ({ actions }))
})
