import { Action } from "@x/core"
import * as Attachments from "../api/attachments.js"
import * as BoardOptions from "../options/boards.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

export const getAttachment = Action.make({
  name: "getAttachment",
  title: "Get Attachment",
  impact: "read",
  description: "Reads one of a card's attachments.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idAttachment: Props.trelloId({ title: "Attachment", required: true, dynamicOptions: MemberOptions.attachments })
  },
  output: Attachments.Attachment,
  run: ({ idAttachment, idCard }, { client }) => Attachments.getAttachment(client, idCard, idAttachment)
})
