/**
 * Boards: the member's boards, create (with default lists and labels, in a workspace, copied
 * from a board), get, update, delete, and a board's lists, cards and actions (paged as Trello
 * pages them).
 */
import { booleanOf, HttpError, invalid, isId, lookup, pick, required, type Route, textOf } from "../http.js"
import type { Action, Board } from "../store.js"
import type { Context } from "./context.js"

/** `{ [name]: value }` when given, else nothing (an update changes only what is given). */
const optional = <K extends string, V>(name: K, value: V | undefined) => (value === undefined ? {} : { [name]: value } as { [k in K]: V })

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
  /** `open`, `closed` or `all` (Trello's view filter; `none` answers nothing). */
  const byState = (p: Map<string, string>, fallback: string, ...more: ReadonlyArray<string>) => {
    const filter = p.get("filter") ?? fallback
    if (!["all", "open", "closed", "none", ...more].includes(filter)) throw invalid("filter")
    return (x: { closed: boolean }) => filter === "all" || (filter === "open" ? !x.closed : filter === "closed" ? x.closed : false)
  }
  const oneOf = (p: Map<string, string>, name: string, values: ReadonlyArray<string>) => {
    const value = p.get(name)
    if (value !== undefined && !values.includes(value)) throw invalid(name)
    return value
  }
  const workspaceOf = (p: Map<string, string>, name: string) => {
    const id = p.get(name)
    if (id === undefined) return undefined
    if (!isId(id) || !store.organizations.has(id.toLowerCase())) throw invalid(name)
    return id.toLowerCase()
  }

  return [
    {
      method: "GET",
      path: "/members/:id/boards",
      handle: ({ p, path }) => {
        if (!isMe(path["id"]!)) throw new HttpError(404, "The requested resource was not found.")
        const shown = byState(p, "all", "members", "organization", "public", "starred")
        const filter = p.get("filter")
        // The member is on every board here; "starred" boards there are none.
        return [...boards.values()]
          .filter((x) => filter === "members" || filter === "organization" ? true : filter === "public" ? x.permissionLevel === "public" : shown(x))
          .map((x) => pick(store.boardJson(x), p.get("fields")))
      }
    },
    {
      method: "POST",
      path: "/boards",
      handle: ({ p }) => {
        const name = required(p, "name")
        if (name.length > 16384) throw invalid("name")
        const desc = textOf(p, "desc") ?? ""
        const idOrganization = workspaceOf(p, "idOrganization")
        const permissionLevel = oneOf(p, "prefs_permissionLevel", ["private", "org", "public"]) ?? "private"
        const keepFromSource = oneOf(p, "keepFromSource", ["cards", "none"])
        const idSource = p.get("idBoardSource")
        const source = idSource === undefined ? undefined : boards.get(isId(idSource) ? idSource.toLowerCase() : "")
        if (idSource !== undefined && source === undefined) throw invalid("idBoardSource")
        // A copy starts with its source's lists and labels, not the default ones.
        const more = { defaultLabels: source === undefined && booleanOf(p, "defaultLabels") !== false, ...(idOrganization === undefined ? {} : { idOrganization }) }
        const board = store.addBoard(name, desc, source === undefined && booleanOf(p, "defaultLists") !== false, permissionLevel, more)
        if (source !== undefined) store.copyBoardContent(source, board, keepFromSource === "cards")
        return store.boardJson(board)
      }
    },
    { method: "GET", path: "/boards/:id", handle: ({ p, path }) => pick(store.boardJson(lookup(boards, path["id"]!)), p.get("fields")) },
    {
      // Checked whole before anything changes: Trello applies all of an update or none.
      method: "PUT",
      path: "/boards/:id",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        const name = textOf(p, "name")
        if (name === "") throw invalid("name")
        const changes = {
          ...(name === undefined ? {} : { name }),
          ...optional("desc", textOf(p, "desc")),
          ...optional("closed", booleanOf(p, "closed")),
          ...optional("idOrganization", workspaceOf(p, "idOrganization")),
          ...optional("permissionLevel", oneOf(p, "prefs/permissionLevel", ["private", "org", "public"]))
        }
        return store.boardJson(store.updateBoard(board, changes))
      }
    },
    {
      method: "DELETE",
      path: "/boards/:id",
      handle: ({ path }) => {
        store.deleteBoard(lookup(boards, path["id"]!))
        return { _value: null }
      }
    },
    {
      method: "GET",
      path: "/boards/:id/lists",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        const shown = byState(p, "open")
        return [...lists.values()].filter((l) => l.idBoard === board.id && shown(l)).sort((x, y) => x.pos - y.pos)
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
