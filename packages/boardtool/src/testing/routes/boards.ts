/** Boards: the member's boards, create, get, and a board's lists, cards and actions (paged as Trello pages them). */
import { booleanOf, HttpError, invalid, isId, lookup, pick, required, type Route, textOf } from "../http.js"
import type { Action, Board } from "../store.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, lists } = store
  /**
   * `before`/`since`: an action id (compared with ids) or a date (YYYY-MM-DDThh:mm:ssZ, compared
   * with dates), as the key of an action and the value it is compared with.
   */
  const bound = (p: Map<string, string>, name: string) => {
    const value = p.get(name)
    if (value === undefined || value === "") return undefined
    if (isId(value)) return { key: (a: Action) => a.id, value: value.toLowerCase() }
    if (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))) {
      return { key: (a: Action) => a.date, value: new Date(value).toISOString() }
    }
    throw invalid(name)
  }
  const boardActions = (board: Board, p: Map<string, string>) => {
    const limit = Number(p.get("limit") ?? 50)
    if (!Number.isInteger(limit) || limit < 0 || limit > 1000) throw invalid("limit")
    const filter = p.get("filter") ?? "all"
    const types = filter === "all" ? undefined : new Set(filter.split(","))
    const [before, since] = [bound(p, "before"), bound(p, "since")]
    const out: Array<unknown> = []
    // Newest first.
    for (let i = store.actions.length - 1; i >= 0 && out.length < limit; i--) {
      const a = store.actions[i]!
      if (a.idBoard !== board.id || (types !== undefined && !types.has(a.type))) continue
      if (before !== undefined && !(before.key(a) < before.value)) continue
      if (since !== undefined && !(since.key(a) > since.value)) continue
      out.push(store.actionJson(a))
    }
    return out
  }
  const isMe = (id: string) => id === "me" || id === store.me.id || id === store.me.username

  return [
    {
      method: "GET",
      path: "/members/:id/boards",
      handle: ({ p, path }) => {
        if (!isMe(path["id"]!)) throw new HttpError(404, "The requested resource was not found.")
        const filter = p.get("filter") ?? "all"
        return [...boards.values()]
          .filter((x) => filter === "all" || (filter === "open" ? !x.closed : filter === "closed" ? x.closed : true))
          .map((x) => pick(store.boardJson(x), p.get("fields")))
      }
    },
    {
      method: "POST",
      path: "/boards",
      handle: ({ p }) => {
        const name = required(p, "name")
        if (name.length > 16384) throw invalid("name")
        return store.boardJson(store.addBoard(name, textOf(p, "desc") ?? "", booleanOf(p, "defaultLists") !== false))
      }
    },
    { method: "GET", path: "/boards/:id", handle: ({ p, path }) => pick(store.boardJson(lookup(boards, path["id"]!)), p.get("fields")) },
    {
      method: "GET",
      path: "/boards/:id/lists",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        return [...lists.values()].filter((l) => l.idBoard === board.id && !l.closed).sort((x, y) => x.pos - y.pos)
          .map((l) => pick(store.listJson(l), p.get("fields")))
      }
    },
    {
      method: "GET",
      path: "/boards/:id/cards",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        return [...cards.values()].filter((x) => x.idBoard === board.id && !x.closed).map((x) => pick(store.cardJson(x), p.get("fields")))
      }
    },
    { method: "GET", path: "/boards/:id/actions", handle: ({ p, path }) => boardActions(lookup(boards, path["id"]!), p) }
  ]
}
