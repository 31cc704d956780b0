/**
 * Comments (commentCard actions): add, a card's actions paged as Trello pages them, update and
 * delete (each recorded: commentCard, updateComment, deleteComment), and reactions to a comment.
 */
import { HttpError, invalid, isId, lookup, notFound, required, type Route } from "../http.js"
import type { Action, Card, Emoji } from "../store.js"
import type { Context } from "./context.js"

/** The emoji the simulator knows, by short name (Trello's `/emoji` list has them all). */
const emoji: ReadonlyArray<Emoji> = [
  { unified: "1F44D", native: "👍", name: "THUMBS UP SIGN", shortName: "+1" },
  { unified: "1F44E", native: "👎", name: "THUMBS DOWN SIGN", shortName: "-1" },
  { unified: "2764-FE0F", native: "❤️", name: "HEAVY BLACK HEART", shortName: "heart" },
  { unified: "1F389", native: "🎉", name: "PARTY POPPER", shortName: "tada" },
  { unified: "1F604", native: "😄", name: "SMILING FACE WITH OPEN MOUTH AND SMILING EYES", shortName: "smile" },
  { unified: "1F440", native: "👀", name: "EYES", shortName: "eyes" },
  { unified: "1F680", native: "🚀", name: "ROCKET", shortName: "rocket" },
  { unified: "2705", native: "✅", name: "WHITE HEAVY CHECK MARK", shortName: "white_check_mark" }
]
/** Other names Trello takes for the same emoji. */
const aliases: Readonly<Record<string, string>> = { thumbsup: "+1", thumbsdown: "-1" }

/** Trello pages a card's actions 50 at a time, `page` 0 to 19. */
const pageSize = 50

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { actions, cards } = store
  const cardIdOf = (a: Action) => (a.data["card"] as { id?: string } | undefined)?.id
  /** A comment on this card, by its action id. */
  const commentOn = (card: Card, idAction: string) => {
    if (!isId(idAction)) throw new HttpError(400, "invalid id")
    const action = actions.find((a) => a.id === idAction.toLowerCase())
    if (action === undefined || action.type !== "commentCard" || cardIdOf(action) !== card.id) throw notFound()
    return action
  }
  const text = (p: Map<string, string>) => {
    const value = required(p, "text")
    if (value.length > 16384) throw invalid("text")
    return value
  }
  /** Whether an action matches a filter entry: a type, or `updateCard:<field>` (an update of that field). */
  const matches = (a: Action, entry: string) => {
    const [type, field] = entry.trim().split(":")
    if (a.type !== type) return false
    return field === undefined || (a.data["old"] as Record<string, unknown> | undefined)?.[field] !== undefined
  }

  return [
    {
      method: "POST",
      path: "/cards/:id/actions/comments",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        return store.actionJson(store.record(card.idBoard, "commentCard", { text: text(p), ...store.onCard(card) }))
      }
    },
    {
      // Newest first; the default filter is Trello's: comments and moves between lists.
      method: "GET",
      path: "/cards/:id/actions",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const page = Number(p.get("page") ?? 0)
        if (!Number.isInteger(page) || page < 0 || page > 19) throw invalid("page")
        const filter = (p.get("filter") ?? "commentCard,updateCard:idList").split(",")
        const all = filter.includes("all")
        const out: Array<unknown> = []
        let skipped = 0
        for (let i = actions.length - 1; i >= 0 && out.length < pageSize; i--) {
          const a = actions[i]!
          if (cardIdOf(a) !== card.id || !(all || filter.some((entry) => matches(a, entry)))) continue
          if (skipped++ < page * pageSize) continue
          out.push(store.actionJson(a))
        }
        return out
      }
    },
    {
      method: "PUT",
      path: "/cards/:id/actions/:idAction/comments",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const comment = commentOn(card, path["idAction"]!)
        const old = String(comment.data["text"])
        comment.data = { ...comment.data, text: text(p), textData: { emoji: {} }, dateLastEdited: new Date().toISOString() }
        store.record(card.idBoard, "updateComment", {
          action: { id: comment.id, text: comment.data["text"] },
          old: { text: old },
          ...store.onCard(card)
        })
        return store.actionJson(comment)
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id/actions/:idAction/comments",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const comment = commentOn(card, path["idAction"]!)
        actions.splice(actions.indexOf(comment), 1)
        for (const r of [...store.reactions.values()]) if (r.idAction === comment.id) store.reactions.delete(r.id)
        store.record(card.idBoard, "deleteComment", { action: { id: comment.id }, ...store.onCard(card) })
        return { _value: null }
      }
    },
    {
      // One reaction per member and emoji: reacting again answers the existing one.
      method: "POST",
      path: "/actions/:idAction/reactions",
      handle: ({ p, path }) => {
        const idAction = path["idAction"]!
        if (!isId(idAction)) throw new HttpError(400, "invalid id")
        const action = actions.find((a) => a.id === idAction.toLowerCase())
        if (action === undefined) throw notFound()
        if (action.type !== "commentCard") throw new HttpError(400, "Action does not support reactions")
        const shortName = p.get("shortName")
        const unified = p.get("unified")?.toUpperCase()
        const native = p.get("native")
        const found = emoji.find((e) =>
          shortName !== undefined
            ? e.shortName === (aliases[shortName] ?? shortName)
            : unified !== undefined
            ? e.unified === unified || e.unified.split("-")[0] === unified
            : e.native === native
        )
        if (found === undefined) throw new HttpError(400, "invalid emoji")
        const existing = [...store.reactions.values()].find((r) => r.idAction === action.id && r.idMember === store.me.id && r.emoji === found)
        if (existing !== undefined) return store.reactionJson(existing)
        const reaction = { id: store.nextId(), idAction: action.id, idMember: store.me.id, emoji: found }
        store.reactions.set(reaction.id, reaction)
        return store.reactionJson(reaction)
      }
    },
    {
      method: "GET",
      path: "/actions/:idAction/reactions",
      handle: ({ path }) => {
        const idAction = path["idAction"]!
        if (!isId(idAction)) throw new HttpError(400, "invalid id")
        if (!actions.some((a) => a.id === idAction.toLowerCase())) throw notFound()
        return [...store.reactions.values()].filter((r) => r.idAction === idAction.toLowerCase()).map(store.reactionJson)
      }
    }
  ]
}
