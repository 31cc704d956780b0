/**
 * Scrubbing a connection's secrets out of JSON outputs, cheaply: the forms of the secrets are
 * derived once (again only when the secrets change, e.g. after an OAuth2 refresh), a string
 * that holds none is kept as it is, and nothing is copied unless something changed.
 */
import type * as Redacted from "effect/Redacted"
import * as Auth from "../Auth.js"

/** Shorter values are not scrubbed: they would mangle ordinary text (as `Auth.scrub`). */
const minSecretLength = 4

const formsOf = (secrets: ReadonlyArray<Redacted.Redacted<string>>): ReadonlyArray<string> => {
  const forms = new Set<string>()
  for (const secret of secrets) {
    const value = Auth.reveal(secret)
    if (value.length < minSecretLength) continue
    forms.add(value)
    forms.add(encodeURIComponent(value))
  }
  return [...forms]
}

/** Sets an own data property, even one named `__proto__` (as `JSON.parse` makes them). */
const set = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })

/**
 * A scrubber of these secrets. `version` changes when the secrets do (it is read on every call,
 * `secrets` only when it changed).
 */
export const make = (
  secrets: () => ReadonlyArray<Redacted.Redacted<string>>,
  version: () => number
): <A>(value: A) => A => {
  let seen = Number.NaN
  let forms: ReadonlyArray<string> = []
  let current: ReadonlyArray<Redacted.Redacted<string>> = []
  const holdsSecret = (text: string) => {
    for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true
    return false
  }
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return holdsSecret(value) ? Auth.scrub(current, value) : value
    if (typeof value !== "object" || value === null) return value
    if (Array.isArray(value)) {
      let copy: Array<unknown> | undefined
      for (let i = 0; i < value.length; i++) {
        const item = walk(value[i])
        if (item !== value[i]) (copy ??= value.slice())[i] = item
      }
      return copy ?? value
    }
    let copy: Record<string, unknown> | undefined
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key]
      const scrubbed = walk(item)
      if (holdsSecret(key)) {
        copy ??= { ...value }
        delete copy[key]
        set(copy, Auth.scrub(current, key), scrubbed)
      } else if (scrubbed !== item) set(copy ??= { ...value }, key, scrubbed)
    }
    return copy ?? value
  }
  return <A>(value: A): A => {
    const now = version()
    if (now !== seen) {
      seen = now
      current = secrets()
      forms = formsOf(current)
    }
    return forms.length === 0 ? value : walk(value) as A
  }
}
