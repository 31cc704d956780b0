import { Action, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Labels from "../api/labels.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const listBoardLabels = Action.make({
  name: "listBoardLabels",
  title: "List Board Labels",
  impact: "read",
  description: "Lists a board's labels (Trello answers up to 1000 at once, without pages).",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    limit: Property.integer({ title: "Limit", description: "The most labels returned.", minimum: 1, maximum: 1000, defaultValue: 1000 })
  },
  output: Schema.Struct({ labels: Schema.Array(Labels.Label) }),
  run: ({ idBoard, limit }, { client }) => Effect.map(Labels.boardLabels(client, idBoard, limit), (labels) => ({ labels }))
})
