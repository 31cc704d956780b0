/**
 * Checklists on cards and their items: create (empty or copied from another checklist), list,
 * update, delete; add, update (name, state, position, due, member) and delete an item. Each
 * change recorded as Trello records it: addChecklistToCard, updateChecklist,
 * removeChecklistFromCard, createCheckItem, updateCheckItem, updateCheckItemStateOnCard, deleteCheckItem.
 */
import { booleanOf, dateOf, HttpError, invalid, isId, lookup, notFound, positionOf, type Request, required, type Route, textOf } from "../http.js"
import { type Card, type CheckItem, type Checklist, changer } from "../store.js"
import type { Context } from "./context.js"

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { cards, checkItems, checklists } = store
  const cardOf = (l: Checklist) => cards.get(l.idCard)!
  const onChecklist = (l: Checklist) => ({ checklist: store.checklistRef(l), ...store.onCard(cardOf(l)) })
  const nameOf = (p: Map<string, string>, name = "name") => {
    const value = textOf(p, name)
    if (value === "") throw invalid(name)
    return value
  }
  /** A member to assign an item to: one of the card's board's members. */
  const memberOf = (p: Map<string, string>, card: Card): string | null | undefined => {
    const value = p.get("idMember")
    if (value === undefined) return undefined
    if (value === "" || value === "null") return null
    if (!isId(value)) throw invalid("idMember")
    const onBoard = [...store.memberships.values()].some((m) => m.idBoard === card.idBoard && m.idMember === value.toLowerCase())
    if (!onBoard) throw invalid("idMember")
    return value.toLowerCase()
  }

  const create = (card: Card, p: Map<string, string>) => {
    const name = nameOf(p)
    const given = p.get("idChecklistSource")
    const source = given === undefined || given === "" ? undefined : lookup(checklists, given)
    const pos = positionOf(p, store.checklistsOfCard(card.id).map((l) => l.pos)) ??
      Math.max(0, ...store.checklistsOfCard(card.id).map((l) => l.pos)) + 16384
    const checklist: Checklist = { id: store.nextId(), idCard: card.id, idBoard: card.idBoard, name: name ?? source?.name ?? "Checklist", pos }
    checklists.set(checklist.id, checklist)
    // A copy gets the source's items, in their states.
    for (const item of source === undefined ? [] : store.itemsOf(source.id)) {
      const copy: CheckItem = { ...item, id: store.nextId(), idChecklist: checklist.id }
      checkItems.set(copy.id, copy)
    }
    store.record(card.idBoard, "addChecklistToCard", onChecklist(checklist))
    return store.checklistJson(checklist)
  }
  const remove = (checklist: Checklist) => {
    for (const item of store.itemsOf(checklist.id)) checkItems.delete(item.id)
    checklists.delete(checklist.id)
    store.record(checklist.idBoard, "removeChecklistFromCard", onChecklist(checklist))
    return { _value: null }
  }
  const removeItem = (item: CheckItem) => {
    const checklist = checklists.get(item.idChecklist)!
    checkItems.delete(item.id)
    store.record(checklist.idBoard, "deleteCheckItem", { checkItem: store.checkItemRef(item), ...onChecklist(checklist) })
    return { _value: null }
  }
  /** An item of one of this card's checklists. */
  const itemOnCard = ({ path }: Request) => {
    const card = lookup(cards, path["id"]!)
    const item = lookup(checkItems, path["idCheckItem"]!)
    if (checklists.get(item.idChecklist)?.idCard !== card.id) throw notFound()
    return { card, item }
  }
  const itemOfChecklist = ({ path }: Request) => {
    const checklist = lookup(checklists, path["id"]!)
    const item = lookup(checkItems, path["idCheckItem"]!)
    if (item.idChecklist !== checklist.id) throw notFound()
    return item
  }

  return [
    { method: "POST", path: "/cards/:id/checklists", handle: ({ p, path }) => create(lookup(cards, path["id"]!), p) },
    {
      method: "POST",
      path: "/checklists",
      handle: ({ p }) => {
        const idCard = required(p, "idCard")
        if (!isId(idCard)) throw invalid("idCard")
        return create(lookup(cards, idCard), p)
      }
    },
    { method: "GET", path: "/cards/:id/checklists", handle: ({ path }) => store.checklistsOfCard(lookup(cards, path["id"]!).id).map(store.checklistJson) },
    { method: "GET", path: "/checklists/:id", handle: ({ path }) => store.checklistJson(lookup(checklists, path["id"]!)) },
    {
      method: "PUT",
      path: "/checklists/:id",
      handle: ({ p, path }) => {
        const checklist = lookup(checklists, path["id"]!)
        const name = nameOf(p)
        const pos = positionOf(p, store.checklistsOfCard(checklist.idCard).filter((l) => l !== checklist).map((l) => l.pos))
        const old: Record<string, unknown> = {}
        const set = changer(checklist, old)
        set("name", name)
        set("pos", pos)
        if (Object.keys(old).length > 0) store.record(checklist.idBoard, "updateChecklist", { ...onChecklist(checklist), old })
        return store.checklistJson(checklist)
      }
    },
    { method: "DELETE", path: "/checklists/:id", handle: ({ path }) => remove(lookup(checklists, path["id"]!)) },
    {
      method: "DELETE",
      path: "/cards/:id/checklists/:idChecklist",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const checklist = lookup(checklists, path["idChecklist"]!)
        if (checklist.idCard !== card.id) throw notFound()
        return remove(checklist)
      }
    },
    { method: "GET", path: "/checklists/:id/checkItems", handle: ({ path }) => store.itemsOf(lookup(checklists, path["id"]!).id).map(store.checkItemJson) },
    {
      method: "POST",
      path: "/checklists/:id/checkItems",
      handle: ({ p, path }) => {
        const checklist = lookup(checklists, path["id"]!)
        const name = required(p, "name")
        if (name.length > 16384) throw invalid("name")
        const taken = store.itemsOf(checklist.id).map((i) => i.pos)
        const item: CheckItem = {
          id: store.nextId(),
          idChecklist: checklist.id,
          name,
          state: booleanOf(p, "checked") === true ? "complete" : "incomplete",
          pos: positionOf(p, taken) ?? Math.max(0, ...taken) + 16384,
          due: dateOf(p, "due") ?? null,
          idMember: memberOf(p, cardOf(checklist)) ?? null
        }
        if (store.itemsOf(checklist.id).length >= 200) throw new HttpError(400, "Too many checkItems on this checklist")
        checkItems.set(item.id, item)
        store.record(checklist.idBoard, "createCheckItem", { checkItem: store.checkItemRef(item), ...onChecklist(checklist) })
        return store.checkItemJson(item)
      }
    },
    { method: "GET", path: "/checklists/:id/checkItems/:idCheckItem", handle: (request) => store.checkItemJson(itemOfChecklist(request)) },
    { method: "DELETE", path: "/checklists/:id/checkItems/:idCheckItem", handle: (request) => removeItem(itemOfChecklist(request)) },
    { method: "GET", path: "/cards/:id/checkItem/:idCheckItem", handle: (request) => store.checkItemJson(itemOnCard(request).item) },
    {
      // A change of state is recorded as updateCheckItemStateOnCard, any other change as updateCheckItem.
      method: "PUT",
      path: "/cards/:id/checkItem/:idCheckItem",
      handle: (request) => {
        const { card, item } = itemOnCard(request)
        const { p } = request
        // Checked before anything changes: Trello applies all of an update or none.
        const name = nameOf(p)
        const stateGiven = p.get("state")
        if (stateGiven !== undefined && !["complete", "incomplete", "true", "false"].includes(stateGiven)) throw invalid("state")
        const state = stateGiven === undefined ? undefined : stateGiven === "complete" || stateGiven === "true" ? "complete" : "incomplete"
        const pos = positionOf(p, store.itemsOf(item.idChecklist).filter((i) => i !== item).map((i) => i.pos))
        const due = dateOf(p, "due")
        const idMember = memberOf(p, card)
        const given = p.get("idChecklist")
        const target = given === undefined ? undefined : lookup(checklists, given)
        if (target !== undefined && target.idCard !== card.id) throw invalid("idChecklist")
        const old: Record<string, unknown> = {}
        const set = changer(item, old)
        set("name", name)
        set("pos", pos)
        set("due", due)
        set("idMember", idMember)
        set("idChecklist", target?.id)
        const checklist = checklists.get(item.idChecklist)!
        if (Object.keys(old).length > 0) {
          store.record(card.idBoard, "updateCheckItem", { checkItem: store.checkItemRef(item), ...onChecklist(checklist), old })
        }
        if (state !== undefined && state !== item.state) {
          item.state = state
          store.record(card.idBoard, "updateCheckItemStateOnCard", { checkItem: store.checkItemRef(item), ...onChecklist(checklist) })
        }
        return store.checkItemJson(item)
      }
    },
    { method: "DELETE", path: "/cards/:id/checkItem/:idCheckItem", handle: (request) => removeItem(itemOnCard(request).item) }
  ]
}
