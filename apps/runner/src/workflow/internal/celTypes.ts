/**
 * The CEL types of workflow variables, derived from JSON Schemas: the model the values are
 * converted by, the object types the checker knows field by field, and their CEL names.
 *
 * @internal
 */
import { Environment } from "@marcbachmann/cel-js"

/** A CEL type as this module models it: enough to check field names and convert JSON values. */
export type CelType =
  | { readonly _tag: "Dyn" }
  | { readonly _tag: "Scalar"; readonly name: ScalarName }
  | { readonly _tag: "List"; readonly element: CelType }
  | { readonly _tag: "Map"; readonly value: CelType }
  | { readonly _tag: "Object"; readonly name: string }

type ScalarName =
  | "bool"
  | "int"
  | "uint"
  | "double"
  | "string"
  | "bytes"
  | "null_type"
  | "google.protobuf.Timestamp"
  | "google.protobuf.Duration"

const scalarNames: ReadonlySet<string> = new Set<ScalarName>([
  "bool",
  "int",
  "uint",
  "double",
  "string",
  "bytes",
  "null_type",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration"
])

export const dyn: CelType = { _tag: "Dyn" }
const scalar = (name: ScalarName): CelType => ({ _tag: "Scalar", name })

/** Object types by name, each type's fields; a type's field types are registered before it. */
export type ObjectTypes = ReadonlyMap<string, ReadonlyMap<string, CelType>>

/** The name the CEL checker prints for a type (its messages and `check().type` use the same). */
export const nameOf = (type: CelType): string => {
  switch (type._tag) {
    case "Dyn":
      return "dyn"
    case "Scalar":
    case "Object":
      return type.name
    case "List":
      return `list<${nameOf(type.element)}>`
    case "Map":
      return `map<string, ${nameOf(type.value)}>`
  }
}

/** Splits `a, map<b, c>` at its top-level commas. */
const topLevelParts = (text: string): ReadonlyArray<string> => {
  const parts: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "<") depth++
    else if (c === ">") depth--
    else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  parts.push(text.slice(start).trim())
  return parts
}

/**
 * A type named as the checker names it (`list<Trigger.Card>`, `map<string, dyn>`, `list`, …), or
 * `dyn` for anything this model has no use for (the value then passes unconverted but for numbers).
 */
export const parseName = (text: string, objects: ObjectTypes): CelType => {
  const name = text.trim()
  if (scalarNames.has(name)) return scalar(name as ScalarName)
  if (objects.has(name)) return { _tag: "Object", name }
  if (name === "list") return { _tag: "List", element: dyn }
  if (name === "map") return { _tag: "Map", value: dyn }
  const generic = /^(list|map)<(.*)>$/.exec(name)
  if (generic === null) return dyn
  const parts = topLevelParts(generic[2]!)
  if (generic[1] === "list" && parts.length === 1) return { _tag: "List", element: parseName(parts[0]!, objects) }
  if (generic[1] === "map" && parts.length === 2) return { _tag: "Map", value: parseName(parts[1]!, objects) }
  return dyn
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A CEL-friendly name segment: a capitalised identifier. */
const segment = (text: string): string => {
  const clean = text.replace(/[^A-Za-z0-9_]/g, "_")
  const safe = /^[A-Za-z_]/.test(clean) ? clean : `_${clean}`
  return safe.charAt(0).toUpperCase() + safe.slice(1)
}

const fieldsKey = (fields: ReadonlyMap<string, CelType>): string =>
  JSON.stringify([...fields].map(([name, type]) => [name, nameOf(type)]))

const usable = new Map<string, boolean>()

/** Whether the library takes a type of this name: not one letter (a type parameter), not a built-in type (`CelNamespace`, …). */
const usableTypeName = (name: string): boolean => {
  let known = usable.get(name)
  if (known === undefined) {
    try {
      new Environment().registerType({ name, fields: {} })
      known = true
    } catch {
      known = false
    }
    usable.set(name, known)
  }
  return known
}

/** JSON Schema keywords that make a value one of several shapes: CEL reads such a value as dyn. */
const unionKeywords = ["anyOf", "oneOf", "allOf", "not", "if"] as const

/** How deep a schema is followed (through `$ref`s too) before the rest is read as dyn. */
const maxSchemaDepth = 24

/**
 * The CEL type of values of a JSON Schema, registering its object types (those with
 * `properties`) into `objects` under names derived from `path` (`Trigger.Card`,
 * `Overdue.Cards.Item`); a name already taken by a different type gets a number.
 */
export const fromJsonSchema = (schema: unknown, path: string, objects: Map<string, ReadonlyMap<string, CelType>>): CelType => {
  const root = schema
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith("#")) return undefined
    let node: unknown = root
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")
      if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined
      node = node[key]
    }
    return node
  }

  const register = (name: string, fields: ReadonlyMap<string, CelType>): string => {
    const key = fieldsKey(fields)
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}${n}`
      if (!usableTypeName(candidate)) continue
      const existing = objects.get(candidate)
      if (existing === undefined) {
        objects.set(candidate, fields)
        return candidate
      }
      if (fieldsKey(existing) === key) return candidate
    }
  }

  const go = (node: unknown, name: string, depth: number): CelType => {
    if (!isRecord(node) || depth > maxSchemaDepth) return dyn
    if (typeof node.$ref === "string") return go(resolve(node.$ref), name, depth + 1)
    if (node.nullable === true || unionKeywords.some((k) => Object.hasOwn(node, k))) return dyn
    const declared = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]
    const kinds = declared.filter((t) => t !== "null")
    if (kinds.length !== declared.length || kinds.length > 1) return dyn
    const kind = kinds[0] ?? (isRecord(node.properties) ? "object" : node.items !== undefined ? "array" : undefined)
    switch (kind) {
      case "integer":
        return scalar("int")
      case "number":
        return scalar("double")
      case "boolean":
        return scalar("bool")
      case "string":
        return scalar("string")
      case "array":
        return { _tag: "List", element: isRecord(node.items) ? go(node.items, `${name}.Item`, depth + 1) : dyn }
      case "object": {
        if (!isRecord(node.properties) || Object.keys(node.properties).length === 0) {
          const values = node.additionalProperties
          return { _tag: "Map", value: isRecord(values) ? go(values, `${name}.Value`, depth + 1) : dyn }
        }
        const fields = new Map<string, CelType>()
        for (const [field, fieldSchema] of Object.entries(node.properties)) {
          fields.set(field, go(fieldSchema, `${name}.${segment(field)}`, depth + 1))
        }
        return { _tag: "Object", name: register(name, fields) }
      }
      default:
        return dyn
    }
  }
  return go(schema, segment(path), 0)
}
