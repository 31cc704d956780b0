/**
 * Scrubbing secrets out of text and JSON values, written once for `Auth.scrub`,
 * `Auth.scrubValue` and the executor's outputs: the forms a secret can take are derived once
 * per set of secrets, a string that holds none is kept as it is, and nothing is copied unless
 * something changed.
 */
import * as Redacted from "effect/Redacted"

/** Shorter values are not scrubbed: they would mangle ordinary text. */
const minSecretLength = 4

/** The forms secrets can take in text: as they are, and percent-encoded (as in a URL); longest first. */
export const formsOf = (secrets: ReadonlyArray<Redacted.Redacted<string>>): ReadonlyArray<string> => {
  const forms = new Set<string>()
  for (const secret of secrets) {
    const value = Redacted.value(secret)
    if (value.length < minSecretLength) continue
    forms.add(value)
    forms.add(encodeURIComponent(value))
  }
  // Longest first, so a secret that contains a shorter one is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length)
}

const holdsAny = (text: string, forms: ReadonlyArray<string>) => {
  // Shorter than the shortest form (the last): most keys and values of an output, at no search.
  if (forms.length === 0 || text.length < forms[forms.length - 1]!.length) return false
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true
  return false
}

/** The text with every form replaced by `[redacted]`. */
export const replaceIn = (text: string, forms: ReadonlyArray<string>): string => {
  let result = text
  for (const form of forms) if (result.includes(form)) result = result.split(form).join("[redacted]")
  return result
}

/** Sets an own data property, even one named `__proto__` (as `JSON.parse` makes them). */
const set = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })

/**
 * Every string and key of a JSON value scrubbed; the value itself when it holds no secret.
 * `forms` as `formsOf` gives them (longest first).
 */
export const walk = (value: unknown, forms: ReadonlyArray<string>): unknown => {
  if (typeof value === "string") return holdsAny(value, forms) ? replaceIn(value, forms) : value
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) {
    let copy: Array<unknown> | undefined
    for (let i = 0; i < value.length; i++) {
      const item = walk(value[i], forms)
      if (item !== value[i]) (copy ??= value.slice())[i] = item
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    const scrubbed = walk(item, forms)
    if (holdsAny(key, forms)) {
      copy ??= { ...value }
      delete copy[key]
      set(copy, replaceIn(key, forms), scrubbed)
    } else if (scrubbed !== item) set(copy ??= { ...value }, key, scrubbed)
  }
  return copy ?? value
}

/**
 * A scrubber of these secrets for JSON values. `version` changes when the secrets do (it is
 * read on every call, `secrets` only when it changed, e.g. after an OAuth2 refresh).
 */
export const make = (
  secrets: () => ReadonlyArray<Redacted.Redacted<string>>,
  version: () => number
): <A>(value: A) => A => {
  let seen = Number.NaN
  let forms: ReadonlyArray<string> = []
  return <A>(value: A): A => {
    const now = version()
    if (now !== seen) {
      seen = now
      forms = formsOf(secrets())
    }
    return forms.length === 0 ? value : walk(value, forms) as A
  }
}
