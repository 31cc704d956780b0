/** ISO 8601 dates and date-times, checked to exist (no 31 February, no 25:00). */
import type { Rule } from "./rule.js"

const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

export const isIsoDateTime = (s: string): boolean => {
  const m = isoDateTime.exec(s)
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  return true
}

/** The rule of the DATE_TIME kind. */
export const rules: ReadonlyArray<Rule<string>> = [
  { test: isIsoDateTime, message: "must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z", constraint: { format: "date-time" } }
]
