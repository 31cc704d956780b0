import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Attachments from "../api/attachments.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listAttachments = Action.make({
  name: "listAttachments",
  title: "List Attachments",
  impact: "read",
  description: "Lists a card's attachments: uploaded files and links.",
  props: {
    idBoard: Props.idBoard,
    idCard: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
  },
  output: Schema.Struct({ attachments: Schema.Array(Attachments.Attachment) }),
  run: ({ idCard }, { client }) => Effect.map(Attachments.listAttachments(client, idCard), (attachments) => ({ attachments }))
})
