/**
 * Decoding a record of parameters: a Schema that reports every problem with its path, and a
 * fast path that checks well-formed input property by property and returns it as it is.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type Issue, invalidInput, type InvalidInput } from "../ConnectorError.js"
import type { Params, Properties, Validate } from "./property.js"

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// Declared rather than a Schema.Record: a Record is rebuilt by assignment, which turns a key
// "__proto__" (as JSON.parse makes it) into the prototype and drops it unseen; the object
// given is kept as it is, so that such a key is refused as unknown like any other.
export const JsonObject = Schema.declare(isPlainObject, { message: () => "must be an object" })

export const struct = <P extends Properties>(properties: P): Schema.Schema<Params<P>, any> => {
  const fields: Record<string, Schema.Schema.All | Schema.PropertySignature.All> = {}
  const optional = new Set<string>()
  for (const [key, property] of Object.entries(properties)) {
    const defaultValue = property.defaultValue
    if (!property.required) optional.add(key)
    // A required property with a default always has a value: the default when none is given.
    fields[key] = property.required && defaultValue === undefined
      ? property.schema
      : defaultValue === undefined
      ? Schema.optionalWith(property.schema, { exact: true })
      : Schema.optionalWith(property.schema, { exact: true, default: () => defaultValue })
  }
  // A null or undefined optional value means "not given": it is dropped before decoding, so
  // that a wrong value is reported once, by its own schema.
  return Schema.transform(JsonObject, Schema.Struct(fields as any), {
    strict: false,
    decode: (input) => {
      let output: Record<string, unknown> | undefined
      for (const key in input) {
        if ((input[key] === null || input[key] === undefined) && optional.has(key)) {
          output ??= { ...input }
          delete output[key]
        }
      }
      return output ?? input
    },
    encode: (value) => value
  }) as any
}

export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<Issue> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: formatPath(issue.path),
    message: issue._tag === "Missing"
      ? "is required"
      : issue._tag === "Unexpected"
      ? "is not a known parameter"
      : issue.message
  }))

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

const parseOptions = { errors: "all", onExcessProperty: "error" } as const

export const decoder = <P extends Properties>(
  properties: P,
  context: string,
  validate?: Validate<P>
): (input: unknown) => Either.Either<Params<P>, InvalidInput> => {
  const decode = decoderOfProperties(properties, context)
  if (validate === undefined) return decode
  return (input) =>
    Either.flatMap(decode(input), (params) => {
      const issues = validate(params)
      return issues.length === 0 ? Either.right(params) : Either.left(invalidInput(issues, context))
    })
}

const decoderOfProperties = <P extends Properties>(
  properties: P,
  context: string
): (input: unknown) => Either.Either<Params<P>, InvalidInput> => {
  const decode = Schema.decodeUnknownEither(struct(properties), parseOptions)
  const entries = Object.entries(properties)
  const required = entries.filter(([, p]) => p.required && p.defaultValue === undefined).map(([key]) => key)
  const defaults = entries.filter(([, p]) => p.defaultValue !== undefined)
  // Well-formed input is checked property by property and returned as it is; anything else
  // goes through Schema, which names every problem.
  const fast = (input: Record<string, unknown>): Params<P> | undefined => {
    for (const key in input) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined
      if (property?.accepts === undefined || !property.accepts(input[key])) return undefined
    }
    for (const key of required) if (!(key in input)) return undefined
    let output = input
    for (const [key, property] of defaults) {
      if (!(key in input)) {
        if (output === input) output = { ...input }
        output[key] = property.defaultValue
      }
    }
    return output as Params<P>
  }
  return (input) => {
    if (!isPlainObject(input)) {
      return Either.left(invalidInput([{ path: "", message: "parameters must be an object" }], context))
    }
    const accepted = fast(input)
    if (accepted !== undefined) return Either.right(accepted)
    return Either.mapLeft(decode(input), (error) => invalidInput(issuesOf(error), context))
  }
}
