/**
 * JSON values into CEL's runtime representation and back. In: by the declared type, integers
 * become `bigint` (CEL's `int`) and objects `Map`s (read by key, never through a prototype).
 * Out: JSON only, a value JSON cannot hold exactly is an error rather than a silent change.
 *
 * @internal
 */
import { Duration as CelDuration, UnsignedInt } from "@marcbachmann/cel-js/evaluator"
import * as Either from "effect/Either"
import type { CelType } from "./celTypes.js"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const entriesOf = (value: Record<string, unknown>): Map<string, unknown> => new Map(Object.entries(value))

/** A JSON value with no declared type: whole numbers are CEL ints (so `x > 1` type-checks at run time), others doubles. */
const fromJsonDyn = (value: unknown): unknown => {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value
  if (Array.isArray(value)) return value.map(fromJsonDyn)
  if (isRecord(value)) return new Map(Object.entries(value).map(([k, v]) => [k, fromJsonDyn(v)]))
  return value
}

/**
 * A JSON value as CEL reads a value of `type`. A value that does not fit its type is converted
 * as dyn: CEL then reports the mismatch where the expression reads it.
 */
export const fromJson = (
  value: unknown,
  type: CelType,
  objects: ReadonlyMap<string, ReadonlyMap<string, CelType>>,
  construct: (typeName: string, fields: Map<string, unknown>) => unknown
): unknown => {
  const go = (value: unknown, type: CelType): unknown => {
    switch (type._tag) {
      case "Dyn":
        return fromJsonDyn(value)
      case "Scalar":
        switch (type.name) {
          case "int":
            return typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : fromJsonDyn(value)
          case "double":
            return typeof value === "number" ? value : fromJsonDyn(value)
          case "google.protobuf.Timestamp":
            return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value) : value
          default:
            return fromJsonDyn(value)
        }
      case "List":
        return Array.isArray(value) ? value.map((item) => go(item, type.element)) : fromJsonDyn(value)
      case "Map":
        return isRecord(value)
          ? new Map(Object.entries(value).map(([k, v]) => [k, go(v, type.value)]))
          : fromJsonDyn(value)
      case "Object": {
        const fields = objects.get(type.name)
        if (!isRecord(value) || fields === undefined) return fromJsonDyn(value)
        const converted = entriesOf(value)
        for (const [key, item] of converted) {
          const fieldType = fields.get(key)
          // A key the schema does not declare cannot be read (the checker refuses it), but is passed on whole.
          converted.set(key, fieldType === undefined ? fromJsonDyn(item) : go(item, fieldType))
        }
        return construct(type.name, converted)
      }
    }
  }
  return go(value, type)
}

/** Why a CEL value has no JSON form. */
export type NotJson = string

/** A CEL result as JSON: ints as numbers (when exact), timestamps as ISO text, durations as `"<n> millis"`, maps as objects. */
export const toJson = (value: unknown): Either.Either<unknown, NotJson> => {
  const go = (v: unknown): unknown => {
    switch (typeof v) {
      case "string":
      case "boolean":
        return v
      case "bigint":
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
          throw new NotJsonError(`the integer ${v} is too large for a JSON number`)
        }
        return Number(v)
      case "number":
        if (!Number.isFinite(v)) throw new NotJsonError(`${v} is not a JSON number`)
        return v
      case "object": {
        if (v === null) return null
        if (Array.isArray(v) || v instanceof Set) return [...v].map(go)
        if (v instanceof Date) {
          if (Number.isNaN(v.getTime())) throw new NotJsonError("the timestamp is out of range")
          return v.toISOString()
        }
        if (v instanceof CelDuration) return `${v.valueOf()} millis`
        if (v instanceof UnsignedInt) return go(v.valueOf())
        if (v instanceof Map) {
          const out: Record<string, unknown> = {}
          for (const [key, item] of v) {
            if (item === undefined) continue
            // Define, not assign: a key `__proto__` stays a plain key.
            Object.defineProperty(out, String(key), { value: go(item), enumerable: true, writable: true, configurable: true })
          }
          return out
        }
        if (v instanceof Uint8Array) throw new NotJsonError("bytes have no JSON form")
        if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
          return go(entriesOf(v as Record<string, unknown>))
        }
        throw new NotJsonError(`a value of type ${(v as object).constructor?.name ?? "unknown"} has no JSON form`)
      }
      default:
        throw new NotJsonError(`a ${typeof v} has no JSON form`)
    }
  }
  try {
    return Either.right(go(value))
  } catch (error) {
    if (error instanceof NotJsonError) return Either.left(error.message)
    throw error
  }
}

class NotJsonError extends Error {}
