/** The properties comments, checklists and labels share: their ids (with dynamic options), colours and positions. */
import { Property } from "@x/core"
import * as Labels from "../api/labels.js"
import * as BoardOptions from "../options/boards.js"
import * as ContentOptions from "../options/content.js"
import * as Props from "./shared.js"

export const idCard = Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards })
/** The card, for choosing one of its comments or checklists; not sent. */
export const cardToChooseFrom = Props.trelloId({ title: "Card", dynamicOptions: BoardOptions.cards })
export const idComment = Props.trelloId({ title: "Comment", required: true, dynamicOptions: ContentOptions.comments })
/** The checklist, to choose an item from. */
export const idChecklist = Props.trelloId({ title: "Checklist", required: true, dynamicOptions: ContentOptions.checklists })
/** The checklist, for choosing one of its items; not sent. */
export const checklistToChooseFrom = Props.trelloId({ title: "Checklist", dynamicOptions: ContentOptions.checklists })
export const idCheckItem = Props.trelloId({ title: "Checklist item", required: true, dynamicOptions: ContentOptions.checkItems })
export const idLabel = Props.trelloId({ title: "Label", required: true, dynamicOptions: ContentOptions.labels })

export const commentText = Property.string({ title: "Text", required: true, minLength: 1, maxLength: 16384 })
export const name = Property.string({ title: "Name", minLength: 1, maxLength: 16384 })

/** A label's colour: one of Trello's, or `none` for a label without one. */
export const color = Property.string({
  title: "Colour",
  description: "One of Trello's label colours, or none.",
  choices: [...Labels.colors, "none"].map((value) => ({ label: value, value }))
})
/** The wire colour of the property's value: `none` is null. */
export const colorOf = (value: string | undefined): Labels.Color | null | undefined =>
  value === undefined ? undefined : value === "none" ? null : (value as Labels.Color)

/** Where a checklist goes on its card: the shared position, described for checklists (sent as `Props.positionValue`). */
export const checklistPosition = Property.extend(Props.position, { description: "top, bottom, or a positive number (a card's checklists are ordered by it)." })
/** Where an item goes in its checklist: the shared position, described for items (sent as `Props.positionValue`). */
export const checkItemPosition = Property.extend(Props.position, { description: "top, bottom, or a positive number (a checklist's items are ordered by it)." })
