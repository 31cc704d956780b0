import { Property, Trigger } from "@x/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as Shared from "../api/shared.js"
import { connection } from "../connection.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

/** A card still to do whose due date lies in `(from, to]`, as an event; its id changes with the due date. */
const dueBetween = (cards: ReadonlyArray<Cards.DatedCard>, from: number, to: number) =>
  cards.flatMap(({ closed, due, dueComplete, ...card }) => {
    const at = due === null ? Number.NaN : Date.parse(due)
    return due === null || dueComplete || closed || !(at > from && at <= to) ? [] : [{ id: `${card.id}:${due}`, output: { ...card, due } }]
  })

export const cardDueSoon = Trigger.polling({
  name: "cardDueSoon",
  title: "Card Due Soon",
  description: "Fires once for a card when its due date comes within the lead time (again if the due date changes); " +
    "completed and archived cards are skipped.",
  connection,
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({
      title: "List",
      description: "Only cards in this list (else: anywhere on the board).",
      dynamicOptions: BoardOptions.lists
    }),
    hours: Property.integer({
      title: "Hours before due",
      description: "How long before its due date a card fires.",
      minimum: 1,
      maximum: 24 * 30,
      defaultValue: 24
    })
  },
  validate: ({ idBoard, idList }) =>
    idBoard === undefined && idList === undefined ? [{ path: "idBoard", message: "a board or a list is required" }] : [],
  output: Cards.DueCard,
  interval: "5 minutes",
  // When the last poll ran, and the events in the window then: a card already announced is not
  // announced again while it stays there, and one whose due date passed between two polls is not missed.
  cursor: Schema.Struct({ polledAt: Schema.Number, inWindow: Schema.Array(Schema.String) }),

  poll: ({ client, cursor, params }) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const due = dueBetween(yield* Cards.datedCardsOf(client, params), cursor?.polledAt ?? now, now + (params.hours ?? 24) * 3600_000)
      const announced = new Set(cursor?.inWindow)
      return { events: due.filter((event) => !announced.has(event.id)), cursor: { polledAt: now, inWindow: due.map((event) => event.id) } }
    }),

  // The cards still to do whose due date is nearest to now, before or after.
  sample: ({ client, params }) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const dated = dueBetween(yield* Cards.datedCardsOf(client, params), Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)
      const distance = (event: { readonly output: { readonly due: string } }) => Math.abs(Date.parse(event.output.due) - now)
      return dated.sort((a, b) => distance(a) - distance(b)).slice(0, Shared.sampleSize)
    })
})
