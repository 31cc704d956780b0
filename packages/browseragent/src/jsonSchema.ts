/**
 * The first place where a value does not follow a JSON Schema, as generators write them (zod's,
 * Pydantic's): `type`, `enum`, `const`, `properties`/`required`/`additionalProperties: false`,
 * `items`, `minItems`/`maxItems`, `minimum`/`maximum`, `minLength`/`maxLength`, `pattern`,
 * `anyOf`/`oneOf`/`allOf` and local `$ref`s. What it does not know it accepts: a task's output
 * is checked, not a schema.
 */
type JsonSchema = Readonly<Record<string, any>>

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value

const hasType = (value: unknown, type: string): boolean => {
  const actual = typeOf(value)
  return actual === type || (type === "number" && actual === "integer")
}

const at = (path: string, key: string | number) => typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`

/** Where `value` does not follow `schema` (`$.a.b[0]: …`), or undefined when it does. */
export const mismatch = (schema: JsonSchema, value: unknown, path = "$", root: JsonSchema = schema, depth = 0): string | undefined => {
  if (depth > 50) return undefined
  const check = (s: JsonSchema, v: unknown, p = path) => mismatch(s, v, p, root, depth + 1)
  if (typeof schema["$ref"] === "string" && schema["$ref"].startsWith("#")) {
    const target = schema["$ref"].slice(2).split("/").filter((k: string) => k !== "").reduce((node: any, key: string) => node?.[key], root)
    if (target !== undefined) return check(target, value)
  }
  if (Array.isArray(schema["allOf"])) {
    for (const part of schema["allOf"]) {
      const problem = check(part, value)
      if (problem !== undefined) return problem
    }
  }
  for (const union of ["anyOf", "oneOf"]) {
    const branches = schema[union]
    if (Array.isArray(branches) && branches.length > 0) {
      const problems = branches.map((branch: JsonSchema) => check(branch, value))
      if (problems.every((p: string | undefined) => p !== undefined)) return problems[0]
    }
  }
  if (Array.isArray(schema["enum"]) && !schema["enum"].some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    return `${path}: expected one of ${schema["enum"].map((e: unknown) => JSON.stringify(e)).join(", ")}, got ${JSON.stringify(value)}`
  }
  if ("const" in schema && JSON.stringify(schema["const"]) !== JSON.stringify(value)) {
    return `${path}: expected ${JSON.stringify(schema["const"])}, got ${JSON.stringify(value)}`
  }
  const types: ReadonlyArray<string> | undefined = typeof schema["type"] === "string" ? [schema["type"]] : schema["type"]
  if (Array.isArray(types) && !types.some((t) => hasType(value, t))) return `${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`
  if (typeof value === "string") {
    if (typeof schema["minLength"] === "number" && value.length < schema["minLength"]) return `${path}: shorter than ${schema["minLength"]} characters`
    if (typeof schema["maxLength"] === "number" && value.length > schema["maxLength"]) return `${path}: longer than ${schema["maxLength"]} characters`
    if (typeof schema["pattern"] === "string" && !new RegExp(schema["pattern"], "u").test(value)) return `${path}: does not match ${schema["pattern"]}`
  }
  if (typeof value === "number") {
    if (typeof schema["minimum"] === "number" && value < schema["minimum"]) return `${path}: less than ${schema["minimum"]}`
    if (typeof schema["maximum"] === "number" && value > schema["maximum"]) return `${path}: greater than ${schema["maximum"]}`
  }
  if (Array.isArray(value)) {
    if (typeof schema["minItems"] === "number" && value.length < schema["minItems"]) return `${path}: fewer than ${schema["minItems"]} items`
    if (typeof schema["maxItems"] === "number" && value.length > schema["maxItems"]) return `${path}: more than ${schema["maxItems"]} items`
    if (typeof schema["items"] === "object" && schema["items"] !== null && !Array.isArray(schema["items"])) {
      for (const [index, item] of value.entries()) {
        const problem = check(schema["items"], item, at(path, index))
        if (problem !== undefined) return problem
      }
    }
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>
    const properties: Record<string, JsonSchema> = schema["properties"] ?? {}
    for (const key of Array.isArray(schema["required"]) ? schema["required"] as ReadonlyArray<string> : []) {
      if (!(key in object)) return `${at(path, key)}: missing`
    }
    for (const [key, item] of Object.entries(object)) {
      const declared = properties[key]
      if (declared !== undefined) {
        const problem = check(declared, item, at(path, key))
        if (problem !== undefined) return problem
      } else if (schema["additionalProperties"] === false) {
        return `${at(path, key)}: not allowed`
      } else if (typeof schema["additionalProperties"] === "object") {
        const problem = check(schema["additionalProperties"], item, at(path, key))
        if (problem !== undefined) return problem
      }
    }
  }
  return undefined
}
