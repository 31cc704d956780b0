/**
 * Members: a member (by id, username or `me`), member search, a board's members (add by id
 * with a role, invite by email, remove) and a card's members (add, remove). Every change is
 * recorded as Trello records it: addMemberToBoard, makeAdminOfBoard / makeNormalMemberOfBoard /
 * makeObserverOfBoard, removeMemberFromBoard, addMemberToCard, removeMemberFromCard.
 */
import { HttpError, invalid, isId, lookup, notFound, pick, required, type Route } from "../http.js"
import type { Member, Membership } from "../store.js"
import type { Context } from "./context.js"

const roles = ["admin", "normal", "observer"] as const
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, members } = store
  const roleOf = (p: Map<string, string>, fallback?: Membership["memberType"]) => {
    const type = p.get("type") ?? fallback
    if (type === undefined || !(roles as ReadonlyArray<string>).includes(type)) throw invalid("type")
    return type as Membership["memberType"]
  }
  /** A member by id, username or `me`. */
  const memberOf = (given: string): Member => {
    if (given === "me") return store.current()
    if (isId(given)) return lookup(members, given)
    const found = [...members.values()].find((m) => m.username === given.toLowerCase())
    if (found === undefined) throw notFound()
    return found
  }
  const admins = (idBoard: string) =>
    [...store.memberships.values()].filter((m) => m.idBoard === idBoard && m.memberType === "admin").length
  const memberJson = (m: Member, fields: string | undefined) => {
    const json = { ...store.memberJson(m), ...(m.id === store.current().id ? { email: m.email } : {}) }
    return pick(json, fields)
  }

  return [
    { method: "GET", path: "/members/:id", handle: ({ p, path }) => memberJson(memberOf(path["id"]!), p.get("fields")) },
    {
      // Members whose username, name or email contains the query; a board's members first.
      method: "GET",
      path: "/search/members",
      handle: ({ p }) => {
        const query = required(p, "query").toLowerCase()
        if (query.length > 16384) throw invalid("query")
        const limit = Number(p.get("limit") ?? 8)
        if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw invalid("limit")
        const idBoard = p.get("idBoard")
        const board = idBoard === undefined ? undefined : lookup(boards, idBoard)
        const found = [...members.values()].filter((m) =>
          [m.username, m.fullName, m.email].some((text) => text.toLowerCase().includes(query))
        )
        const onBoard = (m: Member) => board !== undefined && store.membershipOf(board.id, m.id) !== undefined ? 0 : 1
        return found.sort((a, b) => onBoard(a) - onBoard(b)).slice(0, limit).map((m) => store.memberJson(m))
      }
    },
    {
      method: "GET",
      path: "/boards/:id/members",
      handle: ({ path }) =>
        store.boardMembers(lookup(boards, path["id"]!).id).map((m) => ({ id: m.id, fullName: m.fullName, username: m.username }))
    },
    {
      method: "PUT",
      path: "/boards/:id/members/:idMember",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        const member = lookup(members, path["idMember"]!)
        const type = roleOf(p)
        // A board keeps an admin: its last one cannot step down.
        const current = store.membershipOf(board.id, member.id)
        if (current?.memberType === "admin" && type !== "admin" && admins(board.id) === 1) throw new HttpError(403, "Not enough admins")
        store.addToBoard(board, member, type)
        return store.boardMembersJson(board)
      }
    },
    {
      // An invitation by email: the member with that address, or a new unconfirmed one.
      method: "PUT",
      path: "/boards/:id/members",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        const email = required(p, "email").toLowerCase()
        if (!emailPattern.test(email)) throw invalid("email")
        const type = roleOf(p, "normal")
        const fullName = p.get("fullName")
        if (fullName !== undefined && (fullName.trim() !== fullName || fullName === "")) throw invalid("fullName")
        const existing = [...members.values()].find((m) => m.email.toLowerCase() === email)
        const member = existing ?? store.addMember({
          username: email.split("@")[0]!.toLowerCase().replace(/[^a-z0-9_]/g, "") + Math.floor(Math.random() * 1000),
          fullName: fullName ?? email.split("@")[0]!,
          email,
          confirmed: false
        })
        store.addToBoard(board, member, type)
        return store.boardMembersJson(board)
      }
    },
    {
      method: "DELETE",
      path: "/boards/:id/members/:idMember",
      handle: ({ path }) => {
        const board = lookup(boards, path["id"]!)
        const member = lookup(members, path["idMember"]!)
        const membership = store.membershipOf(board.id, member.id)
        if (membership === undefined) throw new HttpError(400, "member not on board")
        if (membership.memberType === "admin" && admins(board.id) === 1) throw new HttpError(403, "Not enough admins")
        store.removeFromBoard(board, member)
        return store.boardMembersJson(board)
      }
    },
    {
      method: "GET",
      path: "/cards/:id/members",
      handle: ({ p, path }) =>
        lookup(cards, path["id"]!).idMembers.flatMap((id) => {
          const m = members.get(id)
          return m === undefined ? [] : [pick(store.memberJson(m), p.get("fields"))]
        })
    },
    {
      // Only a member of the card's board can be assigned; Trello answers the card's members.
      method: "POST",
      path: "/cards/:id/idMembers",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const value = required(p, "value")
        if (!isId(value)) throw invalid("value")
        const member = members.get(value.toLowerCase())
        if (member === undefined || store.membershipOf(card.idBoard, member.id) === undefined) throw new HttpError(400, "member not on board")
        if (card.idMembers.includes(member.id)) throw new HttpError(400, "member is already on the card")
        store.addToCard(card, member)
        return card.idMembers.flatMap((id) => members.has(id) ? [store.memberJson(members.get(id)!)] : [])
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id/idMembers/:idMember",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const member = lookup(members, path["idMember"]!)
        if (!card.idMembers.includes(member.id)) throw new HttpError(400, "member is not on the card")
        store.removeFromCard(card, member)
        return card.idMembers.flatMap((id) => members.has(id) ? [store.memberJson(members.get(id)!)] : [])
      }
    }
  ]
}
