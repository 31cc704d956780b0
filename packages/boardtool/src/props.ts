/** The properties the actions and triggers share: Trello ids, and the board. */
import { Property } from "@x/core"
import * as Options from "./options.js"

/** A Trello id (the spec's TrelloID): 24 hexadecimal digits. */
/** A Trello id: 24 hexadecimal digits. */
export const trelloIdPattern = /^[0-9a-fA-F]{24}$/

export const trelloId = Property.patterned(trelloIdPattern, "must be a Trello id (24 hexadecimal digits)")

/** The board, for choosing a list or card; not sent. */
export const idBoard = trelloId({ title: "Board", dynamicOptions: Options.boards })
