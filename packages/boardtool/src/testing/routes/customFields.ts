/**
 * Custom fields: a board's fields (create with a list's options, delete), and a card's values
 * (read, set, clear), as Trello takes them in a JSON body: `{"value": {"number": "42"}}`, or a
 * list option's `{"idValue": "…"}`; `""` clears. Recorded as createCustomField,
 * deleteCustomField and updateCustomFieldItem (with the `old` value). A list field's options
 * are listed and added on their own (`/customFields/{id}/options`, `{value: {text}, color, pos}`).
 */
import { booleanOf, HttpError, invalid, isId, lookup, positionOf, required, type Route } from "../http.js"
import type { CustomField } from "../store.js"
import type { Context } from "./context.js"

const kinds = ["text", "number", "date", "checkbox", "list"] as const
/** A list option's colours: Trello's label colours, or none. */
const optionColors = ["none", "green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"]
/** The key of a field's value, by its kind. */
const keyOf = { text: "text", number: "number", date: "date", checkbox: "checked" } as const

const parsed = (text: string, name: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    throw invalid(name)
  }
}
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const scalar = (u: unknown) => typeof u === "string" || typeof u === "number" || typeof u === "boolean" ? String(u) : undefined

export const routes = ({ store }: Context): ReadonlyArray<Route> => {
  const { boards, cards, customFields } = store

  /** A list field's options: `[{"value": {"text": …}, "color": …, "pos": …}]` (or their texts). */
  const optionsOf = (p: Map<string, string>) => {
    const given = p.get("options")
    if (given === undefined) return undefined
    const options = parsed(given, "options")
    if (!Array.isArray(options)) throw invalid("options")
    return options.map((o) => {
      const text = isRecord(o) && isRecord(o["value"]) ? o["value"]["text"] : o
      if (typeof text !== "string" || text === "" || text.length > 16384) throw invalid("options")
      const color = isRecord(o) && typeof o["color"] === "string" ? o["color"] : "none"
      return { text, color }
    })
  }

  /** A card's value of a field: its key and text, checked against the field's kind. */
  const valueOf = (field: CustomField, given: string): Record<string, string> | null => {
    if (given === "") return null
    const value = parsed(given, "value")
    if (!isRecord(value) || field.type === "list") throw invalid("value")
    const key = keyOf[field.type]
    const entries = Object.entries(value)
    const text = entries.length === 1 && entries[0]![0] === key ? scalar(entries[0]![1]) : undefined
    if (text === undefined) throw invalid("value")
    if (field.type === "number" && (text.trim() === "" || !Number.isFinite(Number(text)))) throw invalid("value")
    if (field.type === "checkbox" && text !== "true" && text !== "false") throw invalid("value")
    if (field.type === "date") {
      const time = Date.parse(text)
      if (Number.isNaN(time)) throw invalid("value")
      return { date: new Date(time).toISOString() }
    }
    return { [key]: text }
  }

  return [
    {
      method: "GET",
      path: "/boards/:id/customFields",
      handle: ({ path }) => {
        const board = lookup(boards, path["id"]!)
        return [...customFields.values()].filter((f) => f.idBoard === board.id).sort((a, b) => a.pos - b.pos).map(store.customFieldJson)
      }
    },
    {
      method: "POST",
      path: "/customFields",
      handle: ({ p }) => {
        const idModel = required(p, "idModel")
        if (!isId(idModel)) throw invalid("idModel")
        const board = lookup(boards, idModel)
        if (p.get("modelType") !== "board") throw invalid("modelType")
        const name = required(p, "name")
        if (name.length > 16384) throw invalid("name")
        const type = required(p, "type") as CustomField["type"]
        if (!kinds.includes(type)) throw invalid("type")
        const options = optionsOf(p)
        if (options !== undefined && type !== "list") throw invalid("options")
        const onBoard = [...customFields.values()].filter((f) => f.idBoard === board.id)
        // Trello's limit of custom fields on a board.
        if (onBoard.length >= 50) throw new HttpError(403, "Board has reached the maximum number of custom fields")
        const pos = positionOf(p, onBoard.map((f) => f.pos))
        const cardFront = booleanOf(p, "display_cardFront")
        return store.customFieldJson(store.addCustomField(board, {
          name, type, ...(pos === undefined ? {} : { pos }), ...(cardFront === undefined ? {} : { cardFront }), ...(options === undefined ? {} : { options })
        }))
      }
    },
    { method: "GET", path: "/customFields/:id", handle: ({ path }) => store.customFieldJson(lookup(customFields, path["id"]!)) },
    {
      // A field of another kind has none.
      method: "GET",
      path: "/customFields/:id/options",
      handle: ({ path }) => {
        const field = lookup(customFields, path["id"]!)
        return [...field.options].sort((a, b) => a.pos - b.pos).map((o) => store.optionJson(field, o))
      }
    },
    {
      method: "POST",
      path: "/customFields/:id/options",
      handle: ({ p, path }) => {
        const field = lookup(customFields, path["id"]!)
        if (field.type !== "list") throw new HttpError(400, "custom field is not a list")
        const value = parsed(required(p, "value"), "value")
        const text = isRecord(value) ? value["text"] : undefined
        if (typeof text !== "string" || text === "" || text.length > 16384) throw invalid("value")
        const color = p.get("color") ?? "none"
        if (!optionColors.includes(color)) throw invalid("color")
        const pos = positionOf(p, field.options.map((o) => o.pos)) ?? Math.max(0, ...field.options.map((o) => o.pos)) + 16384
        const option = { id: store.nextId(), text, color, pos }
        field.options.push(option)
        return store.optionJson(field, option)
      }
    },
    {
      method: "DELETE",
      path: "/customFields/:id",
      handle: ({ path }) => {
        store.deleteCustomField(lookup(customFields, path["id"]!))
        return {}
      }
    },
    {
      method: "GET",
      path: "/cards/:id/customFieldItems",
      handle: ({ path }) => {
        const card = lookup(cards, path["id"]!)
        return [...store.customFieldItems.values()].filter((i) => i.idCard === card.id).map(store.customFieldItemJson)
      }
    },
    {
      method: "PUT",
      path: "/cards/:idCard/customField/:idCustomField/item",
      handle: ({ p, path }) => {
        const card = lookup(cards, path["idCard"]!)
        const field = lookup(customFields, path["idCustomField"]!)
        // A field of another board is not the card's.
        if (field.idBoard !== card.idBoard) throw new HttpError(400, "custom field is not on the card's board")
        const [value, idValue] = [p.get("value"), p.get("idValue")]
        if (field.type === "list") {
          if (idValue === undefined && value !== "") throw invalid("idValue")
          if (idValue !== undefined && idValue !== "" && !field.options.some((o) => o.id === idValue.toLowerCase())) throw invalid("idValue")
          const id = idValue === undefined || idValue === "" ? null : idValue.toLowerCase()
          return store.customFieldItemJson(store.setCustomFieldItem(card, field, null, id))
        }
        if (value === undefined) throw invalid("value")
        return store.customFieldItemJson(store.setCustomFieldItem(card, field, valueOf(field, value), null))
      }
    }
  ]
}
