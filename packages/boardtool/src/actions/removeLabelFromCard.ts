import { Action } from "@x/core"
import * as Labels from "../api/labels.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const removeLabelFromCard = Action.make({
  name: "removeLabelFromCard",
  title: "Remove Label from Card",
  impact: "write", idempotent: false,
  description: "Takes a label off a card (the label stays on the board).",
  props: { idBoard: Props.idBoard, idCard: Content.idCard, idLabel: Content.idLabel },
  run: ({ idCard, idLabel }, { client }) => Labels.removeLabelFromCard(client, idCard, idLabel)
})
