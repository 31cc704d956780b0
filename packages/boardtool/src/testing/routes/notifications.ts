/**
 * Notifications: a member's own, listed newest first (`filter` by type, `read_filter`, `fields`,
 * `limit` 0 to 1000 (default 50), `page` 0 to 100, `before` and `since` a notification id), one
 * read or marked read or unread, all marked read. Only the acting member's: another's are
 * Trello's 401 `unauthorized permission requested`. They are made by the store, from the actions
 * of other members that concern this one.
 */
import { booleanOf, HttpError, invalid, isId, lookup, notFound, pick, type Route } from "../http.js"
import type { Member, Notification } from "../store.js"
import type { Context } from "./context.js"

/** The types Trello's filter takes (its "Notification Types" guide). */
const types = new Set([
  "addAdminToBoard", "addAdminToOrganization", "addedAttachmentToCard", "addedMemberToCard", "addedToBoard", "addedToCard",
  "addedToOrganization", "cardDueSoon", "changeCard", "closeBoard", "commentCard", "createdCard", "declinedInvitationToBoard",
  "declinedInvitationToOrganization", "invitedToBoard", "invitedToOrganization", "makeAdminOfBoard", "makeAdminOfOrganization",
  "memberJoinedTrello", "mentionedOnCard", "removedFromBoard", "removedFromCard", "removedFromOrganization", "removedMemberFromCard",
  "unconfirmedInvitedToBoard", "unconfirmedInvitedToOrganization", "updateCheckItemStateOnCard"
])
const readFilters = ["all", "read", "unread"] as const

const denied = () => new HttpError(401, "unauthorized permission requested")

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { members, notifications } = store
  /** A member by id, username or `me`: only the acting member may read theirs. */
  const self = (given: string): Member => {
    const member = given === "me"
      ? store.current()
      : isId(given)
      ? members.get(given.toLowerCase())
      : [...members.values()].find((m) => m.username === given.toLowerCase())
    if (member === undefined) throw notFound()
    if (member.id !== store.current().id) throw denied()
    return member
  }
  /** One of the acting member's notifications. */
  const own = (id: string): Notification => {
    const notification = lookup(notifications, id)
    if (notification.idMember !== store.current().id) throw denied()
    return notification
  }
  const integer = (p: Map<string, string>, name: string, fallback: number, max: number) => {
    const value = Number(p.get(name) ?? fallback)
    if (!Number.isInteger(value) || value < 0 || value > max) throw invalid(name)
    return value
  }
  const idParam = (p: Map<string, string>, name: string) => {
    const value = p.get(name)
    if (value !== undefined && !isId(value)) throw invalid(name)
    return value?.toLowerCase()
  }
  const setRead = (n: Notification, read: boolean) => {
    n.unread = !read
    n.dateRead = read ? new Date().toISOString() : null
  }

  return [
    {
      method: "GET",
      path: "/members/:id/notifications",
      handle: ({ p, path }) => {
        const member = self(path["id"]!)
        const filter = p.get("filter") ?? "all"
        const wanted = filter === "all" ? undefined : filter.split(",")
        if (wanted !== undefined && wanted.some((type) => !types.has(type))) throw invalid("filter")
        const readFilter = p.get("read_filter") ?? "all"
        if (!(readFilters as ReadonlyArray<string>).includes(readFilter)) throw invalid("read_filter")
        const limit = integer(p, "limit", 50, 1000)
        const page = integer(p, "page", 0, 100)
        const [before, since] = [idParam(p, "before"), idParam(p, "since")]
        const withCreator = booleanOf(p, "memberCreator") ?? true
        return [...notifications.values()]
          .filter((n) =>
            n.idMember === member.id &&
            (wanted === undefined || wanted.includes(n.type)) &&
            (readFilter === "all" || n.unread === (readFilter === "unread")) &&
            (before === undefined || n.id < before) &&
            (since === undefined || n.id > since)
          )
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(page * limit, (page + 1) * limit)
          .map((n) => pick(store.notificationJson(n, withCreator), p.get("fields")))
      }
    },
    { method: "GET", path: "/notifications/:id", handle: ({ p, path }) => pick(store.notificationJson(own(path["id"]!)), p.get("fields")) },
    {
      method: "PUT",
      path: "/notifications/:id",
      handle: ({ p, path }) => {
        const notification = own(path["id"]!)
        const unread = booleanOf(p, "unread")
        if (unread !== undefined) setRead(notification, !unread)
        return store.notificationJson(notification)
      }
    },
    {
      // All of the member's (or those of `ids`) marked read, or unread with `read=false`.
      method: "POST",
      path: "/notifications/all/read",
      handle: ({ p }) => {
        const read = booleanOf(p, "read") ?? true
        const ids = p.get("ids")?.split(",").filter((id) => id !== "")
        if (ids !== undefined && ids.some((id) => !isId(id))) throw invalid("ids")
        const chosen = ids === undefined ? undefined : new Set(ids.map((id) => id.toLowerCase()))
        for (const n of notifications.values()) {
          if (n.idMember === store.current().id && (chosen === undefined || chosen.has(n.id))) setRead(n, read)
        }
        return {}
      }
    }
  ]
}
