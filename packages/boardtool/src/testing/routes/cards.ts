/**
 * Cards: create (at a position, with dates, members, labels, a link, or copied from a card),
 * get (with nested attachments, members, checklists, custom field values), update (fields,
 * a move to a list or another board's list, archive, cover), delete, a list's and a board's
 * cards, a card's actions (paged by 50); each change recorded as Trello records it.
 */
import * as Attachments from "../attachments.js"
import { booleanOf, dateOf, invalid, isId, lookup, notFound, pick, positionOf, required, type Route, textOf } from "../http.js"
import { type Board, type Card, type CardCover, changer, type List } from "../store.js"
import type { Context } from "./context.js"

const keepable = new Set(["all", "attachments", "checklists", "comments", "customFields", "due", "start", "labels", "members", "stickers"])
const coverColors = new Set(["pink", "yellow", "lime", "blue", "black", "orange", "red", "purple", "sky", "green"])

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { attachments, boards, cards, labels, lists, memberships } = store
  const onBoard = (idBoard: string, idMember: string) =>
    [...memberships.values()].some((m) => m.idBoard === idBoard && m.idMember === idMember)
  /** A comma-separated list of ids, each passing `valid` (of the board), else `invalid value for <name>`. */
  const idsOf = (p: Map<string, string>, name: string, valid: (id: string) => boolean): Array<string> | undefined => {
    const value = p.get(name)
    if (value === undefined) return undefined
    if (value === "" || value === "null") return []
    const ids = [...new Set(value.split(",").map((id) => id.trim().toLowerCase()))]
    if (!ids.every((id) => isId(id) && valid(id))) throw invalid(name)
    return ids
  }
  const memberIds = (p: Map<string, string>, idBoard: string) => idsOf(p, "idMembers", (id) => onBoard(idBoard, id))
  const labelIds = (p: Map<string, string>, idBoard: string) => idsOf(p, "idLabels", (id) => labels.get(id)?.idBoard === idBoard)
  const positions = (idList: string, except?: string) =>
    [...cards.values()].filter((c) => c.idList === idList && !c.closed && c.id !== except).map((c) => c.pos)
  const where = (card: Card) => ({ list: store.listRef(lists.get(card.idList)!), board: store.boardRef(boards.get(card.idBoard)!) })
  const memberRef = (id: string) => ({ id, name: store.members.get(id)?.fullName ?? "" })
  const labelRef = (id: string) => {
    const label = labels.get(id)!
    return { id: label.id, name: label.name, color: label.color }
  }
  const coverOf = (p: Map<string, string>, card: Card): CardCover | undefined => {
    const text = p.get("cover")
    if (text === undefined) return undefined
    let given: Record<string, unknown>
    try {
      given = JSON.parse(text) as Record<string, unknown>
    } catch {
      throw invalid("cover")
    }
    if (typeof given !== "object" || given === null) throw invalid("cover")
    const { brightness = "dark", color = null, idAttachment = null, size = "normal" } = given
    const attachment = typeof idAttachment === "string" ? attachments.get(idAttachment.toLowerCase()) : undefined
    if (
      (color !== null && !coverColors.has(color as string)) || (color !== null && idAttachment !== null) ||
      (idAttachment !== null && attachment?.idCard !== card.id) ||
      (size !== "normal" && size !== "full") || (brightness !== "dark" && brightness !== "light")
    ) throw invalid("cover")
    return { color: color as string | null, idAttachment: attachment?.id ?? null, size, brightness }
  }

  /** What a copy takes of its source, by `keepFromSource` (Trello's default: all of it). */
  const copyOf = async (source: Card, p: Map<string, string>, list: List, card: Card) => {
    const keep = new Set((p.get("keepFromSource") ?? "all").split(","))
    if (![...keep].every((k) => keepable.has(k))) throw invalid("keepFromSource")
    const kept = (part: string) => keep.has("all") || keep.has(part)
    if (kept("due")) [card.due, card.dueComplete] = [source.due, source.dueComplete]
    if (kept("start")) card.start = source.start
    // Labels and members only where the copy's board has them.
    if (kept("labels")) card.idLabels = source.idLabels.filter((id) => labels.get(id)?.idBoard === list.idBoard)
    if (kept("members")) card.idMembers = source.idMembers.filter((id) => onBoard(list.idBoard, id))
    if (kept("attachments")) {
      for (const a of [...attachments.values()].filter((a) => a.idCard === source.id)) {
        const id = store.nextId()
        attachments.set(id, { ...a, id, idCard: card.id, url: a.url.replace(`${a.idCard}/attachments/${a.id}`, `${card.id}/attachments/${id}`) })
      }
    }
  }

  /** Moves a card to another board: Trello drops the old board's labels and the members who are not on the new one. */
  const moveToBoard = (card: Card, target: Board, list: List) => {
    const from = boards.get(card.idBoard)!
    card.idLabels = []
    card.idMembers = card.idMembers.filter((id) => onBoard(target.id, id))
    card.idMembersVoted = card.idMembersVoted.filter((id) => onBoard(target.id, id))
    card.idBoard = target.id
    card.idList = list.id
    store.record(from.id, "moveCardFromBoard", { card: store.cardRef(card), board: store.boardRef(from), boardTarget: { id: target.id } })
    store.record(target.id, "moveCardToBoard", {
      card: store.cardRef(card), board: store.boardRef(target), boardSource: { id: from.id }, list: store.listRef(list)
    })
  }

  return [
    {
      method: "POST",
      path: "/cards",
      handle: async ({ p }) => {
        const idList = required(p, "idList")
        if (!isId(idList)) throw invalid("idList")
        const list = lists.get(idList.toLowerCase())
        if (list === undefined) throw notFound()
        const idCardSource = p.get("idCardSource")
        const source = idCardSource === undefined ? undefined : lookup(cards, idCardSource)
        if (source === undefined && p.has("keepFromSource")) throw invalid("keepFromSource")
        // Checked before anything is made: Trello creates all of a card or nothing.
        const fields = {
          name: textOf(p, "name") ?? source?.name ?? "",
          desc: textOf(p, "desc") ?? source?.desc ?? "",
          due: dateOf(p, "due") ?? null,
          start: dateOf(p, "start") ?? null,
          dueComplete: booleanOf(p, "dueComplete") ?? false,
          pos: positionOf(p, positions(list.id))
        }
        const [idMembers, idLabels] = [memberIds(p, list.idBoard), labelIds(p, list.idBoard)]
        const urlSource = p.get("urlSource")
        if (urlSource !== undefined && !/^https?:\/\//.test(urlSource)) throw invalid("urlSource")
        const { pos, ...rest } = fields
        const card = store.addCard(list.id, pos === undefined ? rest : { ...rest, pos }, source)
        if (source !== undefined) await copyOf(source, p, list, card)
        if (idMembers !== undefined) card.idMembers = idMembers
        if (idLabels !== undefined) card.idLabels = idLabels
        if (urlSource !== undefined) {
          const link = await Attachments.attach(attachments, store.nextId, card, store.me.id, new Map([["url", urlSource]]), undefined)
          attachments.set(link.id, link)
        }
        return store.cardJson(card)
      }
    },
    {
      method: "GET",
      path: "/cards/:id",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        const withAttachments = p.get("attachments")
        if (withAttachments !== undefined && !["true", "false", "cover"].includes(withAttachments)) throw invalid("attachments")
        const checklists = p.get("checklists") ?? "none"
        if (checklists !== "all" && checklists !== "none") throw invalid("checklists")
        const [members, customFieldItems] = [booleanOf(p, "members"), booleanOf(p, "customFieldItems")]
        const ofCard = [...attachments.values()].filter((a) => a.idCard === card.id)
        return {
          ...pick(store.cardJson(card), p.get("fields")),
          ...(withAttachments === "true" ? { attachments: ofCard.map(Attachments.json) } : {}),
          ...(withAttachments === "cover" ? { attachments: ofCard.filter((a) => a.id === card.cover?.idAttachment).map(Attachments.json) } : {}),
          ...(members === true ? { members: card.idMembers.flatMap((id) => { const m = store.members.get(id); return m === undefined ? [] : [store.memberJson(m)] }) } : {}),
          ...(checklists === "all" ? { checklists: store.checklistsOfCard(card.id).map(store.checklistJson) } : {}),
          ...(customFieldItems === true
            ? { customFieldItems: [...store.customFieldItems.values()].filter((i) => i.idCard === card.id).map(store.customFieldItemJson) }
            : {})
        }
      }
    },
    {
      method: "PUT",
      path: "/cards/:id",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["id"]!)
        // Everything is checked before anything changes: Trello applies all of an update or none.
        const [name, desc, due, start, dueComplete, closed] = [
          textOf(p, "name"), textOf(p, "desc"), dateOf(p, "due"), dateOf(p, "start"), booleanOf(p, "dueComplete"), booleanOf(p, "closed")
        ]
        if (name === "") throw invalid("name")
        const idBoard = p.get("idBoard")
        const targetBoard = idBoard === undefined ? boards.get(card.idBoard)! : boards.get(isId(idBoard) ? idBoard.toLowerCase() : "")
        if (targetBoard === undefined) throw invalid("idBoard")
        const idList = p.get("idList")
        let targetList = lists.get(card.idList)!
        if (idList !== undefined) {
          const list = isId(idList) ? lists.get(idList.toLowerCase()) : undefined
          // A list of another board than the card's (or than the idBoard given) is refused.
          if (list === undefined || list.idBoard !== targetBoard.id) throw invalid("idList")
          targetList = list
        } else if (targetBoard.id !== card.idBoard) {
          // To another board without a list: its first open list.
          const first = [...lists.values()].filter((l) => l.idBoard === targetBoard.id && !l.closed).sort((a, b) => a.pos - b.pos)[0]
          if (first === undefined) throw invalid("idList")
          targetList = first
        }
        const pos = positionOf(p, positions(targetList.id, card.id))
        const [idMembers, idLabels] = [memberIds(p, targetBoard.id), labelIds(p, targetBoard.id)]
        const cover = coverOf(p, card)

        if (targetBoard.id !== card.idBoard) moveToBoard(card, targetBoard, targetList)
        const old: Record<string, unknown> = {}
        const change = changer(card, old)
        change("name", name)
        change("desc", desc)
        change("due", due)
        change("start", start)
        change("dueComplete", dueComplete)
        change("closed", closed)
        const listBefore = lists.get(card.idList)!
        if (targetList.id !== card.idList) {
          old["idList"] = card.idList
          card.idList = targetList.id
          // Moved without a position: to the bottom of its new list.
          if (pos === undefined) card.pos = Math.max(0, ...positions(targetList.id, card.id)) + 16384
        }
        change("pos", pos)
        if (cover !== undefined) {
          old["cover"] = card.cover ?? null
          card.cover = cover
        }
        card.dateLastActivity = new Date().toISOString()
        if (Object.keys(old).length > 0) {
          const changed = Object.fromEntries(Object.keys(old).map((key) => [key, (card as unknown as Record<string, unknown>)[key]]))
          store.record(card.idBoard, "updateCard", {
            card: { ...store.cardRef(card), ...changed },
            old,
            ...("idList" in old ? { listBefore: store.listRef(listBefore), listAfter: store.listRef(targetList) } : {}),
            ...where(card)
          })
        }
        // Members and labels: an action for each one added or removed, as Trello records them.
        if (idMembers !== undefined) {
          for (const id of idMembers.filter((m) => !card.idMembers.includes(m))) {
            store.record(card.idBoard, "addMemberToCard", { card: store.cardRef(card), member: memberRef(id), idMember: id, ...where(card) })
          }
          for (const id of card.idMembers.filter((m) => !idMembers.includes(m))) {
            store.record(card.idBoard, "removeMemberFromCard", { card: store.cardRef(card), member: memberRef(id), idMember: id, ...where(card) })
          }
          card.idMembers = idMembers
        }
        if (idLabels !== undefined) {
          for (const id of idLabels.filter((l) => !card.idLabels.includes(l))) {
            store.record(card.idBoard, "addLabelToCard", { card: store.cardRef(card), label: labelRef(id), ...where(card) })
          }
          for (const id of card.idLabels.filter((l) => !idLabels.includes(l))) {
            store.record(card.idBoard, "removeLabelFromCard", { card: store.cardRef(card), label: labelRef(id), ...where(card) })
          }
          card.idLabels = idLabels
        }
        return store.cardJson(card)
      }
    },
    {
      method: "DELETE",
      path: "/cards/:id",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        const { board, list } = where(card)
        cards.delete(card.id)
        for (const a of [...attachments.values()]) if (a.idCard === card.id) attachments.delete(a.id)
        store.record(card.idBoard, "deleteCard", { card: { id: card.id, idShort: card.idShort, shortLink: card.shortLink }, list, board })
        return { limits: {} }
      }
    },
    {
      // A list's open cards, in their order (the default filter is "open").
      method: "GET",
      path: "/lists/:id/cards",
      handle: ({ p, path }) => {
        const list = lookup(lists, path["id"]!)
        return [...cards.values()].filter((x) => x.idList === list.id && !x.closed).sort((x, y) => x.pos - y.pos)
          .map((x) => pick(store.cardJson(x), p.get("fields")))
      }
    },
    {
      method: "GET",
      path: "/boards/:id/cards/:filter",
      handle: ({ path }) => {
        const board = lookup(boards, path["id"]!)
        const filters: Record<string, (c: Card) => boolean> = {
          all: () => true,
          open: (c) => !c.closed,
          visible: (c) => !c.closed,
          closed: (c) => c.closed,
          complete: (c) => c.dueComplete,
          incomplete: (c) => !c.dueComplete,
          none: () => false
        }
        const filter = filters[path["filter"]!]
        if (filter === undefined) throw invalid("filter")
        const order = (c: Card) => lists.get(c.idList)?.pos ?? 0
        return [...cards.values()].filter((c) => c.idBoard === board.id && filter(c))
          .sort((a, b) => order(a) - order(b) || a.pos - b.pos).map(store.cardJson)
      }
    }
  ]
}
