/**
 * Labels: a board's labels, create, get, update, delete (taken off every card), and the labels
 * on a card. Each change recorded as Trello records it: createLabel, updateLabel, deleteLabel,
 * addLabelToCard, removeLabelFromCard.
 */
import { HttpError, invalid, isId, lookup, notFound, pick, required, type Route } from "../http.js"
import { type Board, type Card, changer, type Label } from "../store.js"
import type { Context } from "./context.js"

/** The colours Trello takes (the document's `Color`), and the shades of its newer palette. */
const colors = new Set(["green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"].flatMap((c) => [c, `${c}_dark`, `${c}_light`]))

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, labels } = store
  /** `color`: a colour, or `null` (or empty) for none; `undefined` when not given. */
  const colorOf = (p: Map<string, string>): string | null | undefined => {
    const value = p.get("color")
    if (value === undefined) return undefined
    if (value === "" || value === "null") return null
    if (!colors.has(value)) throw invalid("color")
    return value
  }
  const nameOf = (p: Map<string, string>) => {
    const value = p.get("name")
    if (value !== undefined && value.length > 16384) throw invalid("name")
    return value
  }
  const create = (board: Board, p: Map<string, string>) => {
    if (!p.has("name")) throw invalid("name")
    const color = colorOf(p)
    if (color === undefined) throw invalid("color")
    return store.labelJson(store.addLabel(board.id, nameOf(p)!, color))
  }
  const onCard = (card: Card, label: Label) => ({ label: store.labelRef(label), ...store.onCard(card) })

  return [
    {
      method: "GET",
      path: "/boards/:id/labels",
      handle: ({ p, path }) => {
        const board = lookup(boards, path["id"]!)
        const limit = Number(p.get("limit") ?? 50)
        if (!Number.isInteger(limit) || limit < 0 || limit > 1000) throw invalid("limit")
        return [...labels.values()].filter((l) => l.idBoard === board.id).slice(0, limit).map((l) => pick(store.labelJson(l), p.get("fields")))
      }
    },
    { method: "POST", path: "/boards/:id/labels", handle: ({ p, path }) => create(lookup(boards, path["id"]!), p) },
    {
      method: "POST",
      path: "/labels",
      handle: ({ p }) => {
        const idBoard = required(p, "idBoard")
        if (!isId(idBoard)) throw invalid("idBoard")
        return create(lookup(boards, idBoard), p)
      }
    },
    { method: "GET", path: "/labels/:id", handle: ({ p, path }) => pick(store.labelJson(lookup(labels, path["id"]!)), p.get("fields")) },
    {
      method: "PUT",
      path: "/labels/:id",
      handle: ({ p, path }) => {
        const label = lookup(labels, path["id"]!)
        const [name, color] = [nameOf(p), colorOf(p)]
        const old: Record<string, unknown> = {}
        const set = changer(label, old)
        set("name", name)
        set("color", color)
        if (Object.keys(old).length > 0) {
          store.record(label.idBoard, "updateLabel", { label: store.labelRef(label), board: store.boardRef(boards.get(label.idBoard)!), old })
        }
        return store.labelJson(label)
      }
    },
    {
      method: "DELETE",
      path: "/labels/:id",
      handle: ({ path }) => {
        const label = lookup(labels, path["id"]!)
        labels.delete(label.id)
        for (const card of cards.values()) card.idLabels = card.idLabels.filter((id) => id !== label.id)
        store.record(label.idBoard, "deleteLabel", { label: { id: label.id }, board: store.boardRef(boards.get(label.idBoard)!) })
        return {}
      }
    },
    {
      // An existing label of the card's board; Trello answers the card's label ids.
      method: "POST",
      path: "/cards/:id/idLabels",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const value = required(p, "value")
        if (!isId(value)) throw invalid("value")
        const label = labels.get(value.toLowerCase())
        if (label === undefined || label.idBoard !== card.idBoard) throw invalid("value")
        if (card.idLabels.includes(label.id)) throw new HttpError(400, "that label is already on the card")
        card.idLabels.push(label.id)
        card.dateLastActivity = new Date().toISOString()
        store.record(card.idBoard, "addLabelToCard", onCard(card, label))
        return [...card.idLabels]
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id/idLabels/:idLabel",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const label = lookup(labels, path["idLabel"]!)
        if (!card.idLabels.includes(label.id)) throw notFound()
        card.idLabels = card.idLabels.filter((id) => id !== label.id)
        card.dateLastActivity = new Date().toISOString()
        store.record(card.idBoard, "removeLabelFromCard", onCard(card, label))
        return { _value: null }
      }
    }
  ]
}
