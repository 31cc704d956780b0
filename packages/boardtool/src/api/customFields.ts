/**
 * Custom fields (Trello REST API 1): a board's fields (text, number, date, checkbox, or a list
 * of options), and a card's values of them. Trello carries every value as text
 * (`{"number": "42"}`, `{"checked": "true"}`) and a list field's value as its option's id.
 */
import { ConnectorError, ProviderClient, ProviderRequest } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const { path } = ProviderRequest

export const kinds = ["text", "number", "date", "checkbox", "list"] as const
export type Kind = typeof kinds[number]

/** A list field's option: its id is what a card's value holds; its text absent when Trello leaves it out, its colour `none`. */
export const Option = Schema.Struct({
  id: Schema.String,
  value: Schema.optional(Schema.Struct({ text: Schema.optional(Schema.String) })),
  color: Schema.optionalWith(Schema.String, { default: () => "none" })
})

/**
 * A board's custom field. Its `type` says how its values are read and written, so it is
 * required with the id; a name left out is empty, no options `[]`, shown on the card front
 * unless said; `idModel` is then absent.
 */
export const CustomField = Schema.Struct({
  id: Schema.String,
  idModel: Schema.optional(Schema.String),
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  type: Schema.Literal(...kinds),
  options: Schema.optionalWith(Schema.Array(Option), { default: () => [] }),
  display: Schema.optionalWith(Schema.Struct({ cardFront: Schema.Boolean }), { default: () => ({ cardFront: true }) })
})
export type CustomField = typeof CustomField.Type

/**
 * A card's value of a field: `value` (text, number, date or checked, as text) or `idValue` (a
 * list option), each null when left out. The field's id says what it is the value of, so it is
 * required with the id; `idModel` (the card) is then absent.
 */
export const CustomFieldItem = Schema.Struct({
  id: Schema.String,
  idCustomField: Schema.String,
  idModel: Schema.optional(Schema.String),
  value: Schema.optionalWith(
    Schema.NullOr(Schema.Struct({
      text: Schema.optional(Schema.String),
      number: Schema.optional(Schema.String),
      date: Schema.optional(Schema.String),
      checked: Schema.optional(Schema.String)
    })),
    { default: () => null }
  ),
  idValue: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
})
export type CustomFieldItem = typeof CustomFieldItem.Type

export const boardCustomFields = (client: ProviderClient.ProviderClient, idBoard: string) =>
  client.json({ method: "GET", path: path`/boards/${idBoard}/customFields` }, Schema.Array(CustomField))

/** One request, options included (a JSON body: Trello's options are objects). */
export const createCustomField = (
  client: ProviderClient.ProviderClient,
  field: { idBoard: string; name: string; type: Kind; options?: ReadonlyArray<string> | undefined; cardFront?: boolean | undefined }
) =>
  client.json({
    method: "POST",
    path: "/customFields",
    body: ProviderRequest.jsonBody({
      idModel: field.idBoard,
      modelType: "board",
      name: field.name,
      type: field.type,
      pos: "bottom",
      display_cardFront: field.cardFront ?? true,
      ...(field.options === undefined
        ? {}
        : { options: field.options.map((text, i) => ({ value: { text }, color: "none", pos: (i + 1) * 16384 })) })
    })
  }, CustomField)

export const deleteCustomField = (client: ProviderClient.ProviderClient, id: string) =>
  client.void({ method: "DELETE", path: path`/customFields/${id}` })

export const cardCustomFieldItems = (client: ProviderClient.ProviderClient, idCard: string) =>
  client.json({ method: "GET", path: path`/cards/${idCard}/customFieldItems` }, Schema.Array(CustomFieldItem))

/** What a card's value is set to: a field's value by its key (text, number, date, checked), or a list option's id. */
export type Value =
  | { readonly value: { readonly text: string } | { readonly number: string } | { readonly date: string } | { readonly checked: string } }
  | { readonly idValue: string }

// --- dropdown options ---

/** A list option's colours: Trello's label colours (the document's Color), or `none`. */
export const optionColors = ["none", "green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"] as const

/** A list field's option as its own record (`/customFields/{id}/options`): the option, its field and its position. */
export const FieldOption = Schema.Struct({
  ...Option.fields,
  idCustomField: Schema.optional(Schema.String),
  pos: Schema.optional(Schema.Number)
})
export type FieldOption = typeof FieldOption.Type

export const getCustomField = (client: ProviderClient.ProviderClient, id: string) =>
  client.json({ method: "GET", path: path`/customFields/${id}` }, CustomField)

export const fieldOptions = (client: ProviderClient.ProviderClient, idCustomField: string) =>
  client.json({ method: "GET", path: path`/customFields/${idCustomField}/options` }, Schema.Array(FieldOption))

/**
 * Adds an option to a list field, as a JSON body `{value: {text}, color, pos}` (as Trello's
 * guide writes options). The field is read first: only a list field has options, and another
 * kind is refused with the field named, before anything is written.
 */
export const addFieldOption = (
  client: ProviderClient.ProviderClient,
  idCustomField: string,
  option: { text: string; color: string; pos: string | number }
) =>
  Effect.flatMap(getCustomField(client, idCustomField), (field) => {
    if (field.type !== "list") {
      const message = `"${field.name}" is a ${field.type} field: only a list (dropdown) field has options`
      return Effect.fail(new ConnectorError.InvalidInput({ message, issues: [{ path: "idCustomField", message }] }))
    }
    return client.json({
      method: "POST",
      path: path`/customFields/${idCustomField}/options`,
      body: ProviderRequest.jsonBody({ value: { text: option.text }, color: option.color, pos: option.pos })
    }, FieldOption)
  })

export const setCardCustomFieldItem = (client: ProviderClient.ProviderClient, idCard: string, idCustomField: string, value: Value) =>
  client.json({
    method: "PUT",
    path: path`/cards/${idCard}/customField/${idCustomField}/item`,
    body: ProviderRequest.jsonBody(value)
  }, CustomFieldItem)
