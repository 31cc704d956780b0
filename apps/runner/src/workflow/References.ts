/**
 * `${name.path.to.field}` references between steps. A value that is exactly one reference
 * keeps the referenced value's type; a reference inside a longer string is interpolated.
 * The scope is a `Map` and every step through a value is an own property: a name such as
 * `constructor` never finds something the user did not put there.
 *
 * @since 0.2.0
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"

const pattern = /\$\{([^}]*)\}/g
const whole = /^\$\{([^}]*)\}$/

/**
 * One reference: its text, its root (a step's name, `trigger` or `inputs`) and the path below.
 *
 * @since 0.2.0
 * @category models
 */
export interface Reference {
  readonly text: string
  readonly root: string
  readonly path: ReadonlyArray<string>
}

/**
 * What references resolve against: the outputs of earlier steps, `inputs` and `trigger`.
 *
 * @since 0.2.0
 * @category models
 */
export type Scope = ReadonlyMap<string, unknown>

/**
 * A reference with no value when its step runs.
 *
 * @since 0.2.0
 * @category errors
 */
export class Unresolved extends Data.TaggedError("Unresolved")<{ readonly message: string }> {}

const parse = (text: string): Reference => {
  const [root = "", ...path] = text.trim().split(".")
  return { text, root, path }
}

/**
 * Every reference in a parameter value, at any depth (values are at most `JsonText.maxDepth` deep).
 *
 * @since 0.2.0
 * @category utils
 */
export const referencesIn = (value: unknown): ReadonlyArray<Reference> => {
  if (typeof value === "string") return [...value.matchAll(pattern)].map((m) => parse(m[1]!))
  if (Array.isArray(value)) return value.flatMap(referencesIn)
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(referencesIn)
  return []
}

/**
 * Whether a value holds a reference.
 *
 * @since 0.2.0
 * @category utils
 */
export const hasReference = (value: unknown): boolean => referencesIn(value).length > 0

const child = (value: unknown, key: string): { readonly found: boolean; readonly value?: unknown } => {
  if (value instanceof Map) return value.has(key) ? { found: true, value: value.get(key) } : { found: false }
  if (typeof value === "object" && value !== null && Object.hasOwn(value, key)) {
    return { found: true, value: (value as Record<string, unknown>)[key] }
  }
  return { found: false }
}

/** The value a reference names; throws `Unresolved` (caught by `resolve`, the one caller). */
const lookup = (scope: Scope, reference: Reference): unknown => {
  let current = child(scope, reference.root)
  for (const key of reference.path) {
    if (!current.found) break
    current = child(current.value, key)
  }
  if (!current.found) {
    throw new Unresolved({
      message: `\${${reference.text}} has no value: ${
        reference.path.length === 0 ? `there is no ${reference.root}` : `${reference.root} has no ${reference.path.join(".")}`
      }`
    })
  }
  if (current.value === undefined) throw new Unresolved({ message: `\${${reference.text}} has no value` })
  return current.value
}

const text = (value: unknown) => typeof value === "string" ? value : JSON.stringify(value)

const substitute = (value: unknown, scope: Scope): unknown => {
  if (typeof value === "string") {
    const single = whole.exec(value)
    if (single !== null) return lookup(scope, parse(single[1]!))
    return value.replace(pattern, (_, inner: string) => text(lookup(scope, parse(inner))))
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, scope))
  if (typeof value === "object" && value !== null) {
    // `fromEntries` defines own properties: a key "__proto__" stays the user's key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, scope)]))
  }
  return value
}

/**
 * The value with every reference replaced by what it refers to in `scope`.
 *
 * @since 0.2.0
 * @category utils
 */
export const resolve = (value: unknown, scope: Scope): Either.Either<unknown, Unresolved> => {
  try {
    return Either.right(substitute(value, scope))
  } catch (error) {
    if (error instanceof Unresolved) return Either.left(error)
    throw error
  }
}
