import { Property } from "@x/core"
import { CardUpdated, recordOf } from "../api/activity.js"
import * as Activity from "./activity.js"
import * as Cards from "./cardActivity.js"

/** The card fields whose change Trello records in an updateCard (`data.old`). */
export const cardFields = ["name", "desc", "due", "start", "dueComplete", "closed", "pos", "idList", "cover", "idAttachmentCover", "dueReminder"] as const

export const cardUpdated = Activity.make({
  name: "cardUpdated",
  title: "Card Updated",
  description: "Fires when a card of the board changes (name, description, dates, list, position, archived, cover ...), optionally only when chosen fields change.",
  summary: "Card updates",
  props: {
    ...Cards.props,
    fields: Property.array({
      title: "Fields",
      description: `Only when one of these changes: any of ${cardFields.join(", ")} (else: any change).`,
      items: Property.string({ title: "Field", choices: cardFields.map((value) => ({ label: value, value })) })
    })
  },
  model: Cards.board,
  types: ["updateCard"],
  matches: (action, params) => {
    const changed = Object.keys(recordOf(action, "old"))
    return Cards.onCard(action, params) && changed.length > 0 &&
      (params.fields === undefined || params.fields.length === 0 || changed.some((field) => (params.fields as ReadonlyArray<string>).includes(field)))
  },
  output: CardUpdated,
  read: (action, { client }) => {
    const old = recordOf(action, "old")
    return Cards.cardEvent(client, action, { changed: Object.keys(old), old })
  }
})
