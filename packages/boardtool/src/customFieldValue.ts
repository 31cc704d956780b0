/**
 * A card's value of a custom field as a typed input: a property group loaded from the board's
 * custom fields, whose one property is keyed and typed by the chosen field's kind (`text`,
 * `number`, `date`, `checked`, or `idValue`: one of a list field's options), as Trello's
 * `PUT /cards/{idCard}/customField/{idCustomField}/item` takes it.
 */
import { ConnectorError, type Property as P, Property, PropertyGroup } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api/customFields.js"

/** The property of a field's value, by the key Trello reads it from. */
export const propertiesOf = (field: Api.CustomField): P.Properties => {
  const common = { title: field.name, required: true } as const
  switch (field.type) {
    case "text":
      return { text: Property.string({ ...common, maxLength: 16384 }) }
    case "number":
      return { number: Property.number(common) }
    case "date":
      return { date: Property.dateTime(common) }
    case "checkbox":
      return { checked: Property.boolean(common) }
    case "list":
      return { idValue: Property.string({ ...common, choices: field.options.map((o) => ({ label: o.value?.text ?? o.id, value: o.id })) }) }
  }
}

const notOnBoard = (idCustomField: string) => {
  const message = `custom field ${idCustomField} is not one of the board's`
  return new ConnectorError.InvalidInput({ message, issues: [{ path: "idCustomField", message }] })
}

export const value = PropertyGroup.make({
  title: "Value",
  description: "The card's value, typed by the field's kind: {text}, {number}, {date}, {checked} or, for a list field, {idValue} (one of its options).",
  required: true,
  dependsOn: ["idBoard", "idCustomField"],
  cacheFor: "1 minute",
  load: ({ client, params }) =>
    Effect.flatMap(Api.boardCustomFields(client, String(params["idBoard"])), (fields) => {
      const id = String(params["idCustomField"]).toLowerCase()
      const field = fields.find((f) => f.id.toLowerCase() === id)
      return field === undefined ? Effect.fail(notOnBoard(id)) : Effect.succeed(propertiesOf(field))
    })
})

/** The group's decoded value as Trello's body: the option's id, or the value as text under its key. */
export const toWire = (given: Readonly<Record<string, unknown>>): Api.Value => {
  if (typeof given["idValue"] === "string") return { idValue: given["idValue"] }
  const [key, v] = Object.entries(given)[0] ?? ["text", ""]
  return { value: { [key]: String(v) } } as Api.Value
}
