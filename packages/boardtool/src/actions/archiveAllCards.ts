import { Action, Bulk } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Cards from "../api/cards.js"
import * as Names from "../api/names.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const archiveAllCards = Action.make({
  name: "archiveAllCards",
  title: "Archive All Cards in List",
  impact: "write", idempotent: true,
  description:
    "Archives every open card of a list, several at once within the token's rate limit; reports each card's result, so a failure says which cards were archived.",
  props: {
    idBoard: Props.idBoard,
    idList: Props.trelloId({ title: "List", required: true, dynamicOptions: BoardOptions.lists })
  },
  output: Schema.Struct({
    archived: Schema.Number,
    failed: Schema.Number,
    results: Schema.Array(Bulk.ResultSchema(Names.Named))
  }),
  run: ({ idList }, { client }) =>
    Names.openCardsOfList(client, idList).pipe(
      Effect.flatMap((cards) => Bulk.forEach(cards, (card) => Cards.archiveCard(client, card.id), { id: (card) => card.id })),
      Effect.map(({ failed, results, succeeded }) => ({ archived: succeeded, failed, results }))
    )
})
