import { Action } from "@x/core"
import * as Comments from "../api/comments.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const addComment = Action.make({
  name: "addComment",
  title: "Add Comment",
  impact: "write", idempotent: false,
  description: "Comments on a card.",
  props: { idBoard: Props.idBoard, idCard: Content.idCard, text: Content.commentText },
  output: Comments.Comment,
  run: ({ idCard, text }, { client }) => Comments.addComment(client, idCard, text)
})
