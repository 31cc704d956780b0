import { Action, Files } from "@x/core"
import * as Schema from "effect/Schema"
import * as Attachments from "../api/attachments.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const downloadAttachment = Action.make({
  name: "downloadAttachment",
  title: "Download Attachment",
  impact: "read",
  description: "Downloads a file attached to a card to a local path (streamed, written 0600).",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    idAttachment: Props.trelloId({ title: "Attachment", required: true }),
    path: Files.downloadInputs.saveTo,
    overwrite: Files.downloadInputs.overwrite,
    maxBytes: Files.downloadInputs.maxBytes
  },
  output: Schema.Struct({
    path: Schema.String,
    size: Schema.Number,
    contentType: Schema.NullOr(Schema.String),
    name: Schema.String,
    fileName: Schema.String
  }),
  run: ({ idAttachment, idCard, maxBytes, overwrite, path }, { client }) =>
    Attachments.downloadAttachment(client, idCard, idAttachment, { to: path, overwrite, maxBytes })
})
