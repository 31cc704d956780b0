/**
 * The simulator's CMS schema: a collection's fields as `GET /collections/{id}` describes them,
 * and `fieldData` checked the way Webflow checks it (an unknown field, a value of the wrong
 * type or outside the field's validations, a missing required field), each problem a detail
 * `{param: "fieldData.<slug>", description}` of one 400 `validation_error`.
 */
import { webflowIdPattern } from "../ids.js"

export interface CollectionField {
  id: string
  slug: string
  displayName: string
  type: string
  isRequired: boolean
  isEditable: boolean
  helpText: string | null
  validations: Record<string, unknown> | null
}

export interface Detail {
  readonly param: string
  readonly description: string
}

const isUrl = (u: unknown) => typeof u === "string" && /^https?:\/\/\S+$/.test(u) && URL.canParse(u)
const isAsset = (u: unknown) => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return false
  const { alt, fileId, url } = u as Record<string, unknown>
  return (isUrl(url) || typeof fileId === "string") && (alt === undefined || alt === null || typeof alt === "string")
}

/** What is wrong with one value of this field (undefined: nothing); `exists` says whether an item is in a collection. */
const problemOf = (field: CollectionField, value: unknown, exists: (collectionId: string, itemId: string) => boolean): string | undefined => {
  const v = field.validations ?? {}
  const num = (key: string) => typeof v[key] === "number" ? v[key] as number : undefined
  const reference = (id: unknown) =>
    typeof id === "string" && webflowIdPattern.test(id) && (typeof v["collectionId"] !== "string" || exists(v["collectionId"], id))
  switch (field.type) {
    case "PlainText":
    case "RichText": {
      if (typeof value !== "string") return "Expected a string"
      if (num("maxLength") !== undefined && value.length > num("maxLength")!) return `Must be at most ${num("maxLength")} characters`
      if (num("minLength") !== undefined && value.length < num("minLength")!) return `Must be at least ${num("minLength")} characters`
      if (field.slug === "slug" && !/^[a-z0-9][a-z0-9-]*$/.test(value)) return "Slug must contain only lowercase letters, numbers and hyphens"
      return undefined
    }
    case "Number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "Expected a number"
      if (v["format"] === "integer" && !Number.isInteger(value)) return "Expected an integer"
      if (v["allowNegative"] === false && value < 0) return "Must not be negative"
      if (v["allowZero"] === false && value === 0) return "Must not be zero"
      if (num("minValue") !== undefined && value < num("minValue")!) return `Must be at least ${num("minValue")}`
      if (num("maxValue") !== undefined && value > num("maxValue")!) return `Must be at most ${num("maxValue")}`
      return undefined
    }
    case "Switch":
      return typeof value === "boolean" ? undefined : "Expected a boolean"
    case "DateTime":
    case "Date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? undefined : "Expected an ISO 8601 date"
    case "Option": {
      const options = Array.isArray(v["options"]) ? v["options"] as ReadonlyArray<{ id: string }> : []
      return options.some((o) => o.id === value) ? undefined : "Expected the id of one of the field's options"
    }
    case "Reference":
      return reference(value) ? undefined : "Expected the id of an item of the referenced collection"
    case "MultiReference":
      return Array.isArray(value) && value.every(reference) ? undefined : "Expected an array of ids of items of the referenced collection"
    case "Email":
      return typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : "Expected an email address"
    case "Phone":
      return typeof value === "string" && /^\+?[0-9][0-9 ().-]{2,}$/.test(value) ? undefined : "Expected a phone number"
    case "Link":
    case "VideoLink":
      return isUrl(value) ? undefined : "Expected a URL"
    case "Color":
      return typeof value === "string" && /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value) ? undefined : "Expected a hex color"
    case "Image":
    case "File":
      return isAsset(value) ? undefined : "Expected an object with a url (and an optional alt)"
    case "MultiImage":
      return Array.isArray(value) && value.every(isAsset) ? undefined : "Expected an array of objects with a url"
    default:
      return undefined
  }
}

/**
 * The problems of an item's `fieldData`: on create, every required field must be there; on
 * update, only the fields given are checked (null clears a field that is not required).
 */
export const check = (
  fields: ReadonlyArray<CollectionField>,
  fieldData: unknown,
  create: boolean,
  exists: (collectionId: string, itemId: string) => boolean
): ReadonlyArray<Detail> => {
  if (typeof fieldData !== "object" || fieldData === null || Array.isArray(fieldData)) {
    return create || fieldData !== undefined ? [{ param: "fieldData", description: "Expected an object" }] : []
  }
  const data = fieldData as Record<string, unknown>
  const bySlug = new Map(fields.map((field) => [field.slug, field]))
  const details: Array<Detail> = []
  for (const slug of Object.keys(data)) {
    if (!bySlug.has(slug)) details.push({ param: `fieldData.${slug}`, description: "Field not described in schema" })
  }
  for (const field of fields) {
    const value = data[field.slug]
    const param = `fieldData.${field.slug}`
    if (value === undefined || value === null || value === "") {
      if (field.isRequired && (create || value !== undefined)) details.push({ param, description: "Field is required" })
      continue
    }
    if (!field.isEditable) {
      details.push({ param, description: "Field is not editable" })
      continue
    }
    const problem = problemOf(field, value, exists)
    if (problem !== undefined) details.push({ param, description: problem })
  }
  return details
}
