/**
 * The actions of a list and of a workspace (organization), newest first, filtered by type as
 * Trello filters them: what the triggers' samples read. A list's are those about it (its own,
 * and its cards' while they were in it); a workspace's, those naming it (boards created in it
 * or added to it).
 */
import { invalid, lookup, type Route } from "../http.js"
import type { Action } from "../store.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const idsIn = (a: Action, keys: ReadonlyArray<string>) => keys.map((key) => (a.data[key] as { id?: unknown } | undefined)?.id)
  const newest = (p: Map<string, string>, about: (a: Action) => boolean) => {
    const limit = Number(p.get("limit") ?? 50)
    if (!Number.isInteger(limit) || limit < 0 || limit > 1000) throw invalid("limit")
    const filter = p.get("filter") ?? "all"
    const types = filter === "all" ? undefined : new Set(filter.split(","))
    const out: Array<unknown> = []
    for (let i = store.actions.length - 1; i >= 0 && out.length < limit; i--) {
      const a = store.actions[i]!
      if ((types === undefined || types.has(a.type)) && about(a)) out.push(store.actionJson(a))
    }
    return out
  }
  return [
    {
      method: "GET",
      path: "/lists/:id/actions",
      handle: ({ p, path }) => {
        const list = lookup(store.lists, path["id"]!)
        return newest(p, (a) => idsIn(a, ["list", "listBefore", "listAfter"]).includes(list.id))
      }
    },
    {
      method: "GET",
      path: "/organizations/:id/actions",
      handle: ({ p, path }) => {
        const organization = lookup(store.organizations, path["id"]!)
        return newest(p, (a) => idsIn(a, ["organization"]).includes(organization.id))
      }
    }
  ]
}
