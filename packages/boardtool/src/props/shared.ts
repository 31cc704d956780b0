/** The properties the actions and triggers share: Trello ids (one or several), the board and the workspace, a position, a state. */
import { Choice, type DynamicOptions, Property } from "@x/core"
import { trelloIdPattern } from "../ids.js"
import * as BoardOptions from "../options/boards.js"

export const trelloId = Property.patterned(trelloIdPattern, "must be a Trello id (24 hexadecimal digits)")

/** The board, for choosing a list or card; not sent. */
export const idBoard = trelloId({ title: "Board", dynamicOptions: BoardOptions.boards })

/** Several Trello ids, chosen from dynamic options (a multi-select): the array carries the options, each item the id format. */
export const trelloIds = ({ dynamicOptions, ...config }: {
  readonly title: string
  readonly description?: string
  readonly dynamicOptions: DynamicOptions.DynamicOptions
}) => Property.extend(Property.array({ ...config, items: trelloId({ title: config.title }), maxItems: 100 }), { dynamicOptions })

/**
 * Where a card goes in its list, or a list on its board: `top`, `bottom`, or a positive number
 * (Trello's `pos`). What orders something else (checklists, a field's options) is this property
 * with a description of its own: `Property.extend(position, { description })`.
 */
export const position = Property.string({
  title: "Position",
  description: "top, bottom, or a positive number (lists and cards are ordered by it).",
  pattern: /^(top|bottom|\d+(\.\d+)?)$/,
  patternMessage: "must be top, bottom or a positive number"
})
/** A position as Trello takes it: a number sent as one. */
export const positionValue = (pos: string | undefined) => pos === undefined || pos === "top" || pos === "bottom" ? pos : Number(pos)

/** Which lists or boards to read: open (default), archived, or all. */
export const state = Property.string({
  title: "State",
  description: "open (default), closed (archived) or all.",
  choices: Choice.of(["open", "closed", "all"]),
  defaultValue: "open"
})

/** The workspace (Trello's organization), optional. */
export const idWorkspace = trelloId({ title: "Workspace", dynamicOptions: BoardOptions.workspaces })
