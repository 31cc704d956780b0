import { Action, Property } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as ContentOptions from "../options/content.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

const coverColors = ["pink", "yellow", "lime", "blue", "black", "orange", "red", "purple", "sky", "green"] as const
const choices = <V extends string>(values: ReadonlyArray<V>) => values.map((value) => ({ label: value, value }))

export const updateCard = Action.make({
  name: "updateCard",
  title: "Update Card",
  impact: "write", idempotent: true,
  description: "Changes a card: name, description, dates, position, list, members, labels, archived, cover. Only what is given changes.",
  props: {
    idBoard: Props.idBoard,
    id: Props.trelloId({ title: "Card", required: true, dynamicOptions: BoardOptions.cards }),
    name: Property.string({ title: "Name", minLength: 1, maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 }),
    start: Property.dateTime({ title: "Start date" }),
    due: Property.dateTime({ title: "Due date" }),
    removeStart: Property.boolean({ title: "Remove the start date" }),
    removeDue: Property.boolean({ title: "Remove the due date" }),
    dueComplete: Property.boolean({ title: "Due date complete" }),
    idList: Props.trelloId({ title: "List", description: "A list of the card's board.", dynamicOptions: BoardOptions.lists }),
    pos: Props.position,
    idMembers: Props.trelloIds({ title: "Members", description: "Replaces the card's members; [] removes them all.", dynamicOptions: MemberOptions.boardMembers }),
    idLabels: Props.trelloIds({ title: "Labels", description: "Replaces the card's labels; [] removes them all.", dynamicOptions: ContentOptions.labels }),
    closed: Property.boolean({ title: "Archived" }),
    cover: Property.object({
      title: "Cover",
      description: "A colour or an image attachment, its size and text brightness.",
      properties: {
        color: Property.string({ title: "Colour", choices: choices(coverColors) }),
        idAttachment: Props.trelloId({ title: "Image attachment" }),
        size: Property.string({ title: "Size", choices: choices(["normal", "full"] as const) }),
        brightness: Property.string({ title: "Text brightness", choices: choices(["dark", "light"] as const) })
      }
    })
  },
  validate: (p) => [
    ...(p.due !== undefined && p.removeDue === true ? [{ path: "removeDue", message: "give a due date or remove it, not both" }] : []),
    ...(p.start !== undefined && p.removeStart === true ? [{ path: "removeStart", message: "give a start date or remove it, not both" }] : []),
    ...(p.cover?.color !== undefined && p.cover.idAttachment !== undefined
      ? [{ path: "cover", message: "a cover is a colour or an attachment, not both" }]
      : [])
  ],
  output: Cards.CardDetails,
  run: ({ id, idBoard: _board, pos, removeDue, removeStart, ...changes }, { client }) =>
    Cards.updateCard(client, id, {
      ...changes,
      pos: Props.positionValue(pos),
      due: removeDue === true ? null : changes.due,
      start: removeStart === true ? null : changes.start
    })
})
