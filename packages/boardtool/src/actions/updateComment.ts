import { Action } from "@x/core"
import * as Comments from "../api/comments.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const updateComment = Action.make({
  name: "updateComment",
  title: "Update Comment",
  impact: "write", idempotent: true,
  description: "Replaces the text of a comment on a card.",
  props: { idBoard: Props.idBoard, idCard: Content.idCard, idAction: Content.idComment, text: Content.commentText },
  output: Comments.Comment,
  run: ({ idAction, idCard, text }, { client }) => Comments.updateComment(client, idCard, idAction, text)
})
