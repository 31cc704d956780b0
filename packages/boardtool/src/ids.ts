/**
 * Trello's id of a board, list or card (the spec's TrelloID): 24 hexadecimal digits. A module
 * of its own, with no imports, so that the simulator (`@x/boardtool/testing`) checks ids
 * without loading the component.
 */
export const trelloIdPattern = /^[0-9a-fA-F]{24}$/
