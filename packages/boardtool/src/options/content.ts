/** Dynamic options of comments, checklists and labels: a card's comments and checklists, a checklist's items, a board's labels. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Checklists from "../api/checklists.js"
import * as Comments from "../api/comments.js"
import * as Labels from "../api/labels.js"

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

/** A card's latest comments (one page of Trello's), by their text. */
export const comments = DynamicOptions.make(["idCard"], ({ client, params }) =>
  Effect.map(
    Pagination.collect(Comments.cardComments(client, DynamicOptions.dependency(params, "idCard"), Comments.commentsPageSize)),
    (items) => Choice.fromRecords(items, (c) => excerpt(c.data.text ?? c.id), (c) => c.id)
  ))

export const checklists = DynamicOptions.make(["idCard"], ({ client, params }) =>
  Effect.map(Checklists.cardChecklists(client, DynamicOptions.dependency(params, "idCard")), (items) => Choice.fromRecords(items, (c) => c.name, (c) => c.id)))

export const checkItems = DynamicOptions.make(["idChecklist"], ({ client, params }) =>
  Effect.map(Checklists.checkItems(client, DynamicOptions.dependency(params, "idChecklist")), (items) => Choice.fromRecords(items, (i) => i.name, (i) => i.id)))

/** A board's labels, by name and colour (a label may have neither name nor colour). */
export const labels = DynamicOptions.make(["idBoard"], ({ client, params }) =>
  Effect.map(Labels.boardLabels(client, DynamicOptions.dependency(params, "idBoard")), (items) =>
    Choice.fromRecords(items, (l) => [l.name, l.color === null ? "" : `(${l.color})`].filter((s) => s !== "").join(" ") || "(no name, no colour)", (l) => l.id)))
