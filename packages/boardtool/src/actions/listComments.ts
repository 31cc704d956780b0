import { Action, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Comments from "../api/comments.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const listComments = Action.make({
  name: "listComments",
  title: "List Comments",
  impact: "read",
  description: "Lists a card's comments, newest first, across Trello's pages (50 each, 1000 at most) up to the limit.",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.idCard,
    limit: Pagination.limit({ description: "The most comments returned (Trello gives 1000 at most).", defaultValue: 50 })
  },
  output: Schema.Struct({ comments: Schema.Array(Comments.Comment) }),
  run: ({ idCard, limit }, { client }) =>
    Effect.map(Pagination.collect(Comments.cardComments(client, idCard, limit ?? 50)), (comments) => ({ comments }))
})
