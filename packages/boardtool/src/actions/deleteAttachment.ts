import { Action } from "@x/core"
import * as Attachments from "../api/attachments.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const deleteAttachment = Action.make({
  name: "deleteAttachment",
  title: "Delete Attachment",
  impact: "destroy", idempotent: false,
  description: "Deletes one of a card's attachments.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idAttachment: Props.trelloId({ title: "Attachment", required: true, dynamicOptions: MemberOptions.attachments })
  },
  run: ({ idAttachment, idCard }, { client }) => Attachments.deleteAttachment(client, idCard, idAttachment)
})
