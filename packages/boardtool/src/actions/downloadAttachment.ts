import { Action, Property } from "@x/core"
import * as Schema from "effect/Schema"
import * as Api from "../api.js"
import * as Options from "../options.js"
import * as Props from "../props.js"

export const downloadAttachment = Action.make({
  name: "downloadAttachment",
  title: "Download Attachment",
  description: "Downloads a file attached to a card to a local path (streamed, written 0600).",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: Options.cards }),
    idAttachment: Props.trelloId({ title: "Attachment", required: true }),
    path: Property.string({
      title: "Save to",
      description: "The file to write, inside the files directory (relative to it, or absolute); its directory must exist.",
      required: true,
      minLength: 1
    }),
    overwrite: Property.boolean({ title: "Overwrite", description: "Replace a file already at the path (default: the download is refused)." }),
    maxBytes: Property.integer({ title: "Largest size (bytes)", minimum: 1 })
  },
  output: Schema.Struct({
    path: Schema.String,
    size: Schema.Number,
    contentType: Schema.NullOr(Schema.String),
    name: Schema.String,
    fileName: Schema.String
  }),
  run: ({ idAttachment, idCard, maxBytes, overwrite, path }, { client }) =>
    Api.downloadAttachment(client, idCard, idAttachment, { to: path, overwrite, maxBytes })
})
