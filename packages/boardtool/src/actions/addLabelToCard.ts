import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Labels from "../api/labels.js"
import * as ContentOptions from "../options/content.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const addLabelToCard = Action.make({
  name: "addLabelToCard",
  title: "Add Label to Card",
  impact: "write", idempotent: false,
  description:
    "Puts a label on a card: an existing label, or the card's board's label of a name (and colour), created when the board has none.",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.idCard,
    idLabel: Props.trelloId({ title: "Label", dynamicOptions: ContentOptions.labels }),
    name: Property.string({ title: "Label name", description: "Instead of a label: its name, found or created on the card's board.", minLength: 1, maxLength: 16384 }),
    color: Content.color
  },
  validate: ({ idLabel, name }) =>
    (idLabel === undefined) === (name === undefined) ? [{ path: "idLabel", message: "give either a label or a label name" }] : [],
  output: Labels.Label,
  run: ({ color, idCard, idLabel, name }, { client }) =>
    Effect.tap(
      Labels.labelFor(client, idCard, { idLabel, name, color: Content.colorOf(color) }),
      (label) => Labels.addLabelToCard(client, idCard, label.id)
    )
})
