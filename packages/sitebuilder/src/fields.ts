/**
 * A collection's fields as typed inputs: each field of `GET /collections/{id}` (its `slug`,
 * `displayName`, `type`, `isRequired`, `validations`) becomes a core property with the rules
 * Webflow gives it, and the item's `fieldData` a property group loaded from `collectionId`.
 */
import { type Property as P, Property, PropertyGroup } from "@x/core"
import * as Effect from "effect/Effect"
import * as Collections from "./api/collections.js"
import { webflowIdPattern } from "./ids.js"

/** What an item write needs: every required field on create; on update, only what changes. */
export type Mode = "create" | "update"

/** The entries whose value is given (the config types take no explicit `undefined`). */
const given = <A extends Record<string, unknown>>(a: A) =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

const numeric = (validations: Readonly<Record<string, unknown>>, key: string) =>
  typeof validations[key] === "number" ? validations[key] : undefined

const url = /^https?:\/\/\S+$/
const itemId = { pattern: webflowIdPattern, patternMessage: "must be a Webflow item id (24 hexadecimal digits)" }
/** An image or a file, given by URL: Webflow fetches and hosts it. */
const asset = (common: { title: string; required: boolean }) =>
  Property.object({
    ...common,
    properties: {
      url: Property.string({ title: "URL", required: true, pattern: url, patternMessage: "must be an http(s) URL" }),
      alt: Property.string({ title: "Alt text" })
    }
  })

/** The property of one field; `undefined` for a type this does not write (e.g. ExtFileRef). */
export const propertyOf = (field: Collections.Field, mode: Mode): P.AnyProperty | undefined => {
  const v = field.validations ?? {}
  const common = {
    title: field.displayName ?? field.slug,
    ...given({ description: field.helpText || undefined }),
    required: mode === "create" && field.isRequired
  }
  const text = given({ minLength: numeric(v, "minLength"), maxLength: numeric(v, "maxLength") })
  switch (field.type) {
    case "PlainText":
    case "RichText":
      return Property.string({
        ...common,
        ...text,
        // Webflow's rule for the item's URL slug.
        ...(field.slug === "slug" ? { pattern: /^[a-z0-9][a-z0-9-]*$/, patternMessage: "must be lowercase letters, numbers and hyphens" } : {})
      })
    case "Number": {
      const whole = v["format"] === "integer"
      const positive = v["allowNegative"] === false
      // Without negatives or zero, a whole number starts at 1; a decimal one only above 0, which Webflow checks.
      const floor = positive ? (whole && v["allowZero"] === false ? 1 : 0) : undefined
      const minValue = numeric(v, "minValue")
      const bounds = given({ minimum: floor === undefined ? minValue : Math.max(floor, minValue ?? floor), maximum: numeric(v, "maxValue") })
      return whole ? Property.integer({ ...common, ...bounds }) : Property.number({ ...common, ...bounds })
    }
    case "Switch":
      return Property.boolean(common)
    case "DateTime":
    case "Date":
      return Property.dateTime(common)
    case "Option": {
      const options = Array.isArray(v["options"]) ? v["options"] as ReadonlyArray<{ name?: unknown; id?: unknown }> : []
      const choices = options.filter((o) => typeof o.id === "string").map((o) => ({ label: String(o.name ?? o.id), value: String(o.id) }))
      return Property.string({ ...common, choices })
    }
    case "Reference":
      return Property.string({ ...common, ...itemId })
    case "MultiReference":
      return Property.array({ ...common, items: Property.string({ title: "Item", ...itemId }) })
    case "Email":
      return Property.string({ ...common, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, patternMessage: "must be an email address" })
    case "Phone":
      return Property.string({ ...common, pattern: /^\+?[0-9][0-9 ().-]{2,}$/, patternMessage: "must be a phone number" })
    case "Link":
    case "VideoLink":
      return Property.string({ ...common, pattern: url, patternMessage: "must be an http(s) URL" })
    case "Color":
      return Property.string({ ...common, pattern: /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, patternMessage: "must be a hex color such as #db4b68" })
    case "Image":
    case "File":
      return asset(common)
    case "MultiImage":
      return Property.array({ ...common, items: asset({ title: "Image", required: true }) })
    default:
      return undefined
  }
}

/** Every field that can be written, by slug. */
export const propertiesOf = (fields: ReadonlyArray<Collections.Field>, mode: Mode): P.Properties =>
  Object.fromEntries(fields.flatMap((field) => {
    const property = field.isEditable === false ? undefined : propertyOf(field, mode)
    return property === undefined ? [] : [[field.slug, property] as const]
  }))

/** An item's `fieldData`: the collection's fields, loaded from `collectionId` (kept a minute). */
export const fieldData = <const M extends Mode>(mode: M) =>
  PropertyGroup.make({
    title: "Fields",
    description: mode === "create"
      ? "The item's fields by slug: name, slug and every other required field of the collection."
      : "The fields to change, by slug; the others keep their value.",
    required: (mode === "create") as M extends "create" ? true : false,
    dependsOn: ["collectionId"],
    cacheFor: "1 minute",
    load: ({ client, params }) => Effect.map(Collections.collectionFields(client, String(params["collectionId"])), (fields) => propertiesOf(fields, mode))
  })
