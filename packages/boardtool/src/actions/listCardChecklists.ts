import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Checklists from "../api/checklists.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const listCardChecklists = Action.make({
  name: "listCardChecklists",
  title: "List Card Checklists",
  impact: "read",
  description: "Lists a card's checklists with their items (Trello answers them all at once).",
  props: { idBoard: Props.idBoard, idCard: Content.idCard },
  output: Schema.Struct({ checklists: Schema.Array(Checklists.Checklist) }),
  run: ({ idCard }, { client }) => Effect.map(Checklists.cardChecklists(client, idCard), (checklists) => ({ checklists }))
})
