/** Workspaces (Trello's organizations): the member's, one workspace, and a workspace's boards. */
import { HttpError, invalid, lookup, pick, type Route } from "../http.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, organizations } = store
  const isMe = (id: string) => id === "me" || id === store.me.id || id === store.me.username
  return [
    {
      // The member belongs to every workspace here.
      method: "GET",
      path: "/members/:id/organizations",
      handle: ({ p, path }) => {
        if (!isMe(path["id"]!)) throw new HttpError(404, "The requested resource was not found.")
        const filter = p.get("filter") ?? "all"
        if (!["all", "members", "none", "public"].includes(filter)) throw invalid("filter")
        return filter === "none" ? [] : [...organizations.values()].map((o) => pick(store.organizationJson(o), p.get("fields")))
      }
    },
    { method: "GET", path: "/organizations/:id", handle: ({ p, path }) => pick(store.organizationJson(lookup(organizations, path["id"]!)), p.get("fields")) },
    {
      method: "GET",
      path: "/organizations/:id/boards",
      handle: ({ p, path }) => {
        const organization = lookup(organizations, path["id"]!)
        const filter = p.get("filter") ?? "all"
        if (!["all", "open", "closed", "members", "organization", "public"].includes(filter)) throw invalid("filter")
        return [...boards.values()]
          .filter((b) => b.idOrganization === organization.id)
          .filter((b) => filter === "open" ? !b.closed : filter === "closed" ? b.closed : filter === "public" ? b.permissionLevel === "public" : true)
          .map((b) => pick(store.boardJson(b), p.get("fields")))
      }
    }
  ]
}
