import { Action, Property } from "@x/core"
import * as Cards from "../api/cards.js"
import * as BoardOptions from "../options/boards.js"
import * as ContentOptions from "../options/content.js"
import * as MemberOptions from "../options/members.js"
import * as Props from "../props/shared.js"

/** What a copy keeps of its source card (Trello's `keepFromSource`). */
export const keepable = ["attachments", "checklists", "comments", "customFields", "due", "start", "labels", "members", "stickers"] as const

export const createCard = Action.make({
  name: "createCard",
  title: "Create Card",
  impact: "write", idempotent: false,
  description: "Creates a card in a list: at a position, with dates, members, labels, a link attached, or copied from another card.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists }),
    name: Property.string({ title: "Name", maxLength: 16384 }),
    desc: Property.string({ title: "Description", maxLength: 16384 }),
    pos: Props.position,
    start: Property.dateTime({ title: "Start date" }),
    due: Property.dateTime({ title: "Due date" }),
    dueComplete: Property.boolean({ title: "Due date complete" }),
    idMembers: Props.trelloIds({ title: "Members", description: "Members of the board.", dynamicOptions: MemberOptions.boardMembers }),
    idLabels: Props.trelloIds({ title: "Labels", description: "Labels of the board.", dynamicOptions: ContentOptions.labels }),
    urlSource: Property.string({
      title: "Link to attach",
      pattern: /^https?:\/\//,
      patternMessage: "must start with http:// or https://",
      maxLength: 2048
    }),
    idCardSource: Props.trelloId({ title: "Copy from card", dynamicOptions: BoardOptions.cards }),
    keepFromSource: Property.array({
      title: "Keep from the copied card",
      description: `Any of ${keepable.join(", ")} (default: all).`,
      items: Property.string({ title: "Part", choices: keepable.map((value) => ({ label: value, value })) })
    })
  },
  validate: ({ idCardSource, keepFromSource }) =>
    keepFromSource !== undefined && idCardSource === undefined
      ? [{ path: "keepFromSource", message: "applies only to a copy: give idCardSource" }]
      : [],
  output: Cards.CardDetails,
  // The board only narrows the choice of list: createCard sends the card's own fields.
  run: (card, { client }) => Cards.createCard(client, { ...card, pos: Props.positionValue(card.pos) }),
  // A create cut short: the card of that name in that list created since the attempt began.
  reconcile: ({ idList, name }, { client }, { since }) => Cards.findCreatedCard(client, { idList, name }, since)
})
