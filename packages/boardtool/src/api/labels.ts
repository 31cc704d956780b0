/** A board's labels and the labels on cards: wire calls and records. */
import { type ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { nullOr } from "./shared.js"

const { path } = ProviderRequest

/** Trello's label colours (the document's `Color`); a label may have none (null). */
export const colors = ["green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"] as const
export type Color = (typeof colors)[number]

/** A label: a name null or left out is empty (Trello answers null for a label never named), a colour left out none (null). */
export const Label = Schema.Struct({
  id: Schema.String,
  idBoard: Schema.optional(Schema.String),
  name: Schema.optionalWith(Schema.String, { nullable: true, default: () => "" }),
  color: nullOr(Schema.String)
})
export type Label = typeof Label.Type

/** A colour on the wire: the word, or `null` for none. */
const wireColor = (color: Color | null | undefined) => (color === undefined ? undefined : color ?? "null")

export const boardLabels = (client: ProviderClient.ProviderClient, idBoard: string, limit = 1000) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/labels`, query: { limit } }, Schema.Array(Label))

export const getLabel = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/labels/${id}` }, Label)

export const createLabel = (client: ProviderClient.ProviderClient, label: { idBoard: string; name: string; color: Color | null }) =>
  client.json({
    method: "POST",
    path: "/labels",
    body: ProviderRequest.formBody({ idBoard: label.idBoard, name: label.name, color: wireColor(label.color) })
  }, Label)

export const updateLabel = (
  client: ProviderClient.ProviderClient,
  id: string,
  changes: { name?: string | undefined; color?: Color | null | undefined }
) => client.json({ method: "PUT", path: path`/labels/${id}`, body: ProviderRequest.formBody({ name: changes.name, color: wireColor(changes.color) }) }, Label)

export const deleteLabel = (client: ProviderClient.ProviderClient, id: string) => client.void({ method: "DELETE", path: path`/labels/${id}` })

/** The board a card is on. */
const boardOfCard = (client: ProviderClient.ProviderClient, idCard: string) =>
  Effect.map(
    client.json({ method: "GET", path: path`/cards/${idCard}`, query: { fields: "idBoard" } }, Schema.Struct({ idBoard: Schema.String })),
    (card) => card.idBoard
  )

/**
 * The label to put on a card: the one given by id, else the card's board's label of that name
 * (and colour, when one is given), else a new label on that board.
 */
export const labelFor = (
  client: ProviderClient.ProviderClient,
  idCard: string,
  wanted: { idLabel?: string | undefined; name?: string | undefined; color?: Color | null | undefined }
) =>
  wanted.idLabel !== undefined
    ? getLabel(client, wanted.idLabel)
    : Effect.flatMap(boardOfCard(client, idCard), (idBoard) =>
      Effect.flatMap(boardLabels(client, idBoard), (labels) => {
        const name = wanted.name ?? ""
        const found = labels.find((l) => l.name === name && (wanted.color === undefined || l.color === wanted.color))
        return found !== undefined ? Effect.succeed(found) : createLabel(client, { idBoard, name, color: wanted.color ?? null })
      }))

export const addLabelToCard = (client: ProviderClient.ProviderClient, idCard: string, idLabel: string) =>
  client.void({ method: "POST", path: path`/cards/${idCard}/idLabels`, body: ProviderRequest.formBody({ value: idLabel }) })

export const removeLabelFromCard = (client: ProviderClient.ProviderClient, idCard: string, idLabel: string) =>
  client.void({ method: "DELETE", path: path`/cards/${idCard}/idLabels/${idLabel}` })
