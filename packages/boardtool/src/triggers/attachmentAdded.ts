import * as Effect from "effect/Effect"
import * as Attachments from "../api/attachments.js"
import { AttachmentAdded, refOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const attachmentAdded = Activity.make({
  name: "attachmentAdded",
  title: "Attachment Added",
  description: "Fires when a file or a link is attached to a card of the board (or of a list, or one card).",
  summary: "Attachments",
  props: Cards.props,
  model: Cards.board,
  types: ["addAttachmentToCard"],
  matches: (action, params) => Cards.onCard(action, params) && refOf(action, "attachment") !== undefined,
  output: AttachmentAdded,
  // The delivery names the attachment: its size, type and date are read back with the card.
  read: (action, { client }) => {
    const idCard = refOf(action, "card")!.id
    return Effect.flatMap(Attachments.getAttachment(client, idCard, refOf(action, "attachment")!.id), (attachment) =>
      Cards.cardEvent(client, action, { attachment }))
  }
})
