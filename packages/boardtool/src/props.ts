/** The properties the actions and triggers share: Trello ids, and the board. */
import { Choice, Property } from "@x/core"
import { trelloIdPattern } from "./ids.js"
import * as Options from "./options.js"

export const trelloId = Property.patterned(trelloIdPattern, "must be a Trello id (24 hexadecimal digits)")

/** The board, for choosing a list or card; not sent. */
export const idBoard = trelloId({ title: "Board", dynamicOptions: Options.boards })

// --- lists, boards, workspaces ---
/** Where a list goes: `top`, `bottom` or a position number (Trello's `pos`). */
export const position = Property.string({
  title: "Position",
  description: "top, bottom, or a positive number (lists and cards are ordered by it).",
  pattern: /^(top|bottom|\d+(\.\d+)?)$/,
  patternMessage: "must be top, bottom or a positive number"
})

/** Which lists or boards to read: open (default), archived, or all. */
export const state = Property.string({
  title: "State",
  description: "open (default), closed (archived) or all.",
  choices: Choice.of(["open", "closed", "all"]),
  defaultValue: "open"
})

/** The workspace (Trello's organization), optional. */
export const idWorkspace = trelloId({ title: "Workspace", dynamicOptions: Options.workspaces })
