/**
 * `${name.path.to.field}` references between steps. A value that is exactly one reference
 * keeps the referenced value's type; a reference inside a longer string is interpolated.
 */
const pattern = /\$\{([^}]*)\}/g
const whole = /^\$\{([^}]*)\}$/

export interface Reference {
  readonly text: string
  /** The first segment: a step's name, `trigger` or `inputs`. */
  readonly root: string
  readonly path: ReadonlyArray<string>
}

const parse = (text: string): Reference => {
  const [root = "", ...path] = text.trim().split(".")
  return { text, root, path }
}

/** Every reference in a parameter value, at any depth. */
export const referencesIn = (value: unknown): ReadonlyArray<Reference> => {
  if (typeof value === "string") return [...value.matchAll(pattern)].map((m) => parse(m[1]!))
  if (Array.isArray(value)) return value.flatMap(referencesIn)
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(referencesIn)
  return []
}

export const hasReference = (value: unknown): boolean => referencesIn(value).length > 0

/** Thrown (and caught by the runner) when a reference has no value at run time. */
export class Unresolved extends Error {}

const lookup = (scope: Readonly<Record<string, unknown>>, reference: Reference): unknown => {
  let current: unknown = Object.hasOwn(scope, reference.root) ? scope[reference.root] : undefined
  for (const key of reference.path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) {
      throw new Unresolved(`\${${reference.text}} has no value: ${reference.root} has no ${reference.path.join(".")}`)
    }
    current = (current as Record<string, unknown>)[key]
  }
  if (current === undefined) throw new Unresolved(`\${${reference.text}} has no value`)
  return current
}

const text = (value: unknown) => typeof value === "string" ? value : JSON.stringify(value)

/** The value with every reference replaced by what it refers to in `scope`. */
export const resolve = (value: unknown, scope: Readonly<Record<string, unknown>>): unknown => {
  if (typeof value === "string") {
    const single = whole.exec(value)
    if (single !== null) return lookup(scope, parse(single[1]!))
    return value.replace(pattern, (_, inner: string) => text(lookup(scope, parse(inner))))
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, scope))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, scope)]))
  }
  return value
}
