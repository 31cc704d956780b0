/** Cards: create, get, update (name, description, dates, archived), and a list's open cards. */
import { booleanOf, dateOf, invalid, isId, lookup, notFound, pick, required, type Route, textOf } from "../http.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { cards, lists } = store
  return [
    {
      method: "POST",
      path: "/cards",
      handle: ({ p }) => {
        const idList = required(p, "idList")
        if (!isId(idList)) throw invalid("idList")
        const list = lists.get(idList.toLowerCase())
        if (list === undefined) throw notFound()
        const name = textOf(p, "name") ?? ""
        const desc = textOf(p, "desc") ?? ""
        return store.cardJson(store.addCard(list.id, { name, desc, due: dateOf(p, "due") ?? null, dueComplete: booleanOf(p, "dueComplete") ?? false }))
      }
    },
    { method: "GET", path: "/cards/:id", handle: ({ p, path }) => pick(store.cardJson(lookup(cards, path["id"]!)), p.get("fields")) },
    {
      method: "PUT",
      path: "/cards/:id",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        // Checked before anything changes: Trello applies all of an update or none.
        const [name, desc, due, dueComplete, closed] = [textOf(p, "name"), textOf(p, "desc"), dateOf(p, "due"), booleanOf(p, "dueComplete"), booleanOf(p, "closed")]
        if (name !== undefined) card.name = name
        if (desc !== undefined) card.desc = desc
        if (due !== undefined) card.due = due
        if (dueComplete !== undefined) card.dueComplete = dueComplete
        if (closed !== undefined) card.closed = closed
        card.dateLastActivity = new Date().toISOString()
        return store.cardJson(card)
      }
    },
    {
      // A list's open cards, in their order (the default filter is "open").
      method: "GET",
      path: "/lists/:id/cards",
      handle: ({ p, path }) => {
        const list = lookup(lists, path["id"]!)
        return [...cards.values()].filter((x) => x.idList === list.id && !x.closed).sort((x, y) => x.pos - y.pos)
          .map((x) => pick(store.cardJson(x), p.get("fields")))
      }
    }
  ]
}
