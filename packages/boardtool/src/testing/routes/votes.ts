/** Votes on cards: vote (as a member), withdraw a vote, list the voters; each recorded as Trello's voteOnCard. */
import { HttpError, invalid, isId, lookup, pick, required, type Route } from "../http.js"
import type { Card } from "../store.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, members } = store
  const recordVote = (card: Card, voted: boolean) =>
    store.record(card.idBoard, "voteOnCard", { card: store.cardRef(card), board: store.boardRef(boards.get(card.idBoard)!), voted })
  const voters = (card: Card, fields: string | undefined) =>
    card.idMembersVoted.flatMap((id) => {
      const member = members.get(id)
      return member === undefined ? [] : [pick(store.memberJson(member), fields ?? "avatarHash,fullName,initials,username")]
    })
  return [
    {
      method: "POST",
      path: "/cards/:id/membersVoted",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const idMember = required(p, "value").toLowerCase()
        if (!isId(idMember) || !members.has(idMember)) throw invalid("value")
        if (card.idMembersVoted.includes(idMember)) throw new HttpError(400, "member has already voted on the card")
        card.idMembersVoted.push(idMember)
        recordVote(card, true)
        return voters(card, undefined)
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id/membersVoted/:idMember",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const idMember = path["idMember"]!.toLowerCase()
        if (!isId(idMember)) throw new HttpError(400, "invalid id")
        if (!card.idMembersVoted.includes(idMember)) throw new HttpError(400, "member has not voted on the card")
        card.idMembersVoted = card.idMembersVoted.filter((id) => id !== idMember)
        recordVote(card, false)
        return { limits: {} }
      }
    },
    { method: "GET", path: "/cards/:id/membersVoted", handle: ({ p, path }) => voters(lookup(cards, path["id"]!), p.get("fields")) }
  ]
}
