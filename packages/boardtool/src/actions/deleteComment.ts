import { Action } from "@x/core"
import * as Comments from "../api/comments.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const deleteComment = Action.make({
  name: "deleteComment",
  title: "Delete Comment",
  impact: "destroy", idempotent: false,
  description: "Deletes a comment from a card.",
  props: { idBoard: Props.idBoard, idCard: Content.idCard, idAction: Content.idComment },
  run: ({ idAction, idCard }, { client }) => Comments.deleteComment(client, idCard, idAction)
})
