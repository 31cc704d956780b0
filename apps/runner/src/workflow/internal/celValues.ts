/**
 * JSON values into CEL's runtime representation and back. In: by the declared type, integers
 * become `bigint` (CEL's `int`) and objects `Map`s (read by key, never through a prototype),
 * lists and maps metered (an evaluation's budget).
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

/** Thrown inside an evaluation when its meter runs out; the evaluation is failed by the meter, not by this. */
class BudgetExceeded extends Error {}

/**
 * Counts what one evaluation reads of the lists and maps it was given: each list item (by
 * index or iteration: comprehensions, `in`, `+`, `==`) and each map key a comprehension ranges
 * over. CEL has no loops of its own, so the work of an expression is its size times what it
 * reads, and a comprehension nested in another reads the inner list once per outer item.
 * Lists an expression builds itself (`map`, `filter`, `split`) are not counted: building them
 * from given values was.
 */
export class Meter {
  private read = 0
  private running = true
  constructor(readonly limit: number) {}
  /** Whether more than `limit` were read (an error CEL absorbs, in `||` or `exists`, is still seen here). */
  get exceeded(): boolean {
    return this.read > this.limit
  }
  /** Stops counting: the result is converted to JSON outside the budget. */
  stop(): void {
    this.running = false
  }
  charge(items: number): void {
    if (!this.running) return
    this.read += items
    if (this.read > this.limit) throw new BudgetExceeded(`read more than ${this.limit} items`)
  }
}

/** An index, as a proxy's `get` sees it: `"0"`, `"17"` (not `length`, a method or a symbol). */
const isIndex = (key: string | symbol): boolean => typeof key === "string" && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57

/**
 * A list that charges `meter` for each item read. A proxy of the array: still an `Array` to the
 * library (`Array.isArray`, its constructor), never copied.
 */
const meteredList = (items: Array<unknown>, meter: Meter): Array<unknown> =>
  new Proxy(items, {
    get(target, key, receiver) {
      if (isIndex(key)) meter.charge(1)
      return Reflect.get(target, key, receiver)
    }
  })

/**
 * A map that charges `meter` for its keys when a comprehension ranges over it (the library
 * takes `keys()`). Its own `keys`, not a subclass: the library tells a map by its constructor
 * being `Map`, and reads a map's fields with `get`, so CEL never sees this property.
 */
const meteredMap = (entries: Map<string, unknown>, meter: Meter): Map<string, unknown> =>
  Object.defineProperty(entries, "keys", {
    value(this: Map<string, unknown>) {
      meter.charge(this.size)
      return Map.prototype.keys.call(this)
    }
  })

/**
 * A JSON value as CEL reads a value of `type`, its lists and maps charging `meter` when read. A
 * value that does not fit its type is converted as dyn: CEL then reports the mismatch where
 * the expression reads it. As dyn, whole numbers are CEL ints (so `x > 1` type-checks at run
 * time), others doubles.
 */
export const fromJson = (
  value: unknown,
  type: CelType,
  objects: ReadonlyMap<string, ReadonlyMap<string, CelType>>,
  construct: (typeName: string, fields: Map<string, unknown>) => unknown,
  meter: Meter
): unknown => {
  const fromJsonDyn = (value: unknown): unknown => {
    if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value
    if (Array.isArray(value)) return meteredList(value.map(fromJsonDyn), meter)
    if (isRecord(value)) return meteredMap(new Map(Object.entries(value).map(([k, v]) => [k, fromJsonDyn(v)])), meter)
    return value
  }
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
        return Array.isArray(value) ? meteredList(value.map((item) => go(item, type.element)), meter) : fromJsonDyn(value)
      case "Map":
        return isRecord(value)
          ? meteredMap(new Map(Object.entries(value).map(([k, v]) => [k, go(v, type.value)])), meter)
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
