import { LabelAddedToCard, labelRefOf } from "../api/activity.js"
import * as ContentOptions from "../options/content.js"
import * as Props from "../props/shared.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

export const labelAddedToCard = Activity.make({
  name: "labelAddedToCard",
  title: "Label Added to Card",
  description: "Fires when a label is put on a card of the board, optionally only a chosen label.",
  summary: "Labels added to cards",
  props: {
    ...Cards.props,
    idLabel: Props.trelloId({ title: "Label", description: "Only this label (else: any label).", dynamicOptions: ContentOptions.labels })
  },
  model: Cards.board,
  types: ["addLabelToCard"],
  matches: (action, params) => {
    const label = labelRefOf(action)
    return Cards.onCard(action, params) && label !== undefined && (params.idLabel === undefined || Activity.same(label.id, params.idLabel))
  },
  output: LabelAddedToCard,
  read: (action, { client }) => Cards.cardEvent(client, action, { label: labelRefOf(action)! })
})
