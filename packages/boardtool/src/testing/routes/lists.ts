/** Lists: create (optionally copying a list's cards), get, update (name, position, archived, board), and move all of a list's cards. */
import { booleanOf, invalid, isId, lookup, notFound, pick, positionOf, required, type Route, textOf } from "../http.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, lists } = store
  /** An id parameter naming a record of `map`: 400 `invalid value for <name>` when malformed, 404 when unknown. */
  const named = <A>(map: Map<string, A>, p: Map<string, string>, name: string) => {
    const id = required(p, name)
    if (!isId(id)) throw invalid(name)
    const found = map.get(id.toLowerCase())
    if (found === undefined) throw notFound()
    return found
  }
  const positions = (idBoard: string) => store.listsOf(idBoard).map((l) => l.pos)

  return [
    {
      method: "POST",
      path: "/lists",
      handle: ({ p }) => {
        const name = required(p, "name")
        if (name.length > 16384) throw invalid("name")
        const board = named(boards, p, "idBoard")
        const source = p.get("idListSource") === undefined ? undefined : named(lists, p, "idListSource")
        // At the bottom unless told otherwise.
        const pos = positionOf(p, positions(board.id)) ?? positionOf(new Map([["pos", "bottom"]]), positions(board.id))!
        const list = store.addList(board.id, name, pos)
        if (source !== undefined) {
          for (const card of [...cards.values()].filter((c) => c.idList === source.id && !c.closed).sort((a, b) => a.pos - b.pos)) {
            store.addCard(list.id, { name: card.name, desc: card.desc, due: card.due, start: card.start, dueComplete: card.dueComplete })
          }
        }
        return store.listJson(list)
      }
    },
    { method: "GET", path: "/lists/:id", handle: ({ p, path }) => pick(store.listJson(lookup(lists, path["id"]!)), p.get("fields")) },
    {
      // Checked whole before anything changes: Trello applies all of an update or none.
      method: "PUT",
      path: "/lists/:id",
      handle: ({ p, path }) => {
        const list = lookup(lists, path["id"]!)
        const name = textOf(p, "name")
        if (name === "") throw invalid("name")
        const closed = booleanOf(p, "closed")
        booleanOf(p, "subscribed")
        const target = p.get("idBoard") === undefined ? undefined : named(boards, p, "idBoard")
        const pos = positionOf(p, store.listsOf(target?.id ?? list.idBoard).filter((l) => l !== list).map((l) => l.pos))
        return store.listJson(store.updateList(list, {
          ...(name === undefined ? {} : { name }),
          ...(closed === undefined ? {} : { closed }),
          ...(pos === undefined ? {} : { pos }),
          ...(target === undefined ? {} : { idBoard: target.id })
        }))
      }
    },
    {
      // Moves the list's open cards to a list of `idBoard`; answers the cards moved.
      method: "POST",
      path: "/lists/:id/moveAllCards",
      handle: ({ p, path }) => {
        const from = lookup(lists, path["id"]!)
        const board = named(boards, p, "idBoard")
        const to = named(lists, p, "idList")
        if (to.idBoard !== board.id) throw invalid("idList")
        if (to.id === from.id) throw invalid("idList")
        return store.moveAllCards(from, to).map(store.cardJson)
      }
    }
  ]
}
