import { Action, Property } from "@x/core"
import * as Labels from "../api/labels.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const updateLabel = Action.make({
  name: "updateLabel",
  title: "Update Label",
  impact: "write", idempotent: true,
  description: "Renames a label or changes its colour (none removes it).",
  props: { idBoard: Props.idBoard, id: Content.idLabel, name: Property.string({ title: "Name", maxLength: 16384 }), color: Content.color },
  validate: ({ color, name }) => (color === undefined && name === undefined ? [{ path: "name", message: "give a name or a colour" }] : []),
  output: Labels.Label,
  run: ({ color, id, name }, { client }) => Labels.updateLabel(client, id, { name, color: Content.colorOf(color) })
})
