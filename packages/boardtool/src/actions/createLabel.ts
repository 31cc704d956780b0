import { Action, Property } from "@x/core"
import * as Labels from "../api/labels.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const createLabel = Action.make({
  name: "createLabel",
  title: "Create Label",
  impact: "write", idempotent: false,
  description: "Creates a label on a board, in one of Trello's colours or none.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    name: Property.string({ title: "Name", required: true, maxLength: 16384 }),
    color: Content.color
  },
  output: Labels.Label,
  run: ({ color, idBoard, name }, { client }) => Labels.createLabel(client, { idBoard, name, color: Content.colorOf(color) ?? null })
})
