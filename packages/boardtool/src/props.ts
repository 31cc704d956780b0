/** The properties the actions and triggers share: Trello ids, and the board. */
import { Property } from "@x/core"
import { trelloIdPattern } from "./ids.js"
import * as Options from "./options.js"

export const trelloId = Property.patterned(trelloIdPattern, "must be a Trello id (24 hexadecimal digits)")

/** The board, for choosing a list or card; not sent. */
export const idBoard = trelloId({ title: "Board", dynamicOptions: Options.boards })
