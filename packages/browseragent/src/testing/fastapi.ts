/**
 * How the simulated Browser Use API answers, as its FastAPI service does: errors are
 * `{"detail": …}` (422: a list of `{loc, msg, type}`), successes JSON with a status of their own
 * (201 for a creation, 204 with no body for a deletion), query values parsed as pydantic does.
 */

/** An error answer: `{"detail": detail}` with this status. */
export class Detail {
  constructor(readonly status: number, readonly detail: unknown) {}
}

/** A success answer other than 200, or without a body (204). */
export class Reply {
  constructor(readonly status: number, readonly body?: unknown) {}
}

export interface Issue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly type: string
}

/** A 422 naming one or more invalid inputs. */
export const invalid = (...issues: ReadonlyArray<Issue>) => new Detail(422, issues)

/** The JSON object of a request body: 422 when it is missing (and required), not JSON, or not an object. */
export const jsonObject = (raw: string, required = true): Record<string, unknown> => {
  if (raw === "") {
    if (required) throw invalid({ loc: ["body"], msg: "Field required", type: "missing" })
    return {}
  }
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    throw invalid({ loc: ["body"], msg: "JSON decode error", type: "json_invalid" })
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid({ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" })
  }
  return body as Record<string, unknown>
}

/** An integer query parameter within bounds, its default when absent. */
export const integerQuery = (query: URLSearchParams, name: string, fallback: number, min: number, max: number): number => {
  const given = query.get(name)
  if (given === null) return fallback
  const value = Number(given)
  if (given.trim() === "" || !Number.isInteger(value)) {
    throw invalid({ loc: ["query", name], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" })
  }
  if (value < min) throw invalid({ loc: ["query", name], msg: `Input should be greater than or equal to ${min}`, type: "greater_than_equal" })
  if (value > max) throw invalid({ loc: ["query", name], msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" })
  return value
}

const truthy = ["true", "1", "yes", "on", "t", "y"]
const falsy = ["false", "0", "no", "off", "f", "n"]

/** A boolean query parameter, read as pydantic reads one (`true`, `1`, `yes`, `on`, …). */
export const booleanQuery = (query: URLSearchParams, name: string): boolean => {
  const given = query.get(name)
  if (given === null) return false
  if (truthy.includes(given.toLowerCase())) return true
  if (falsy.includes(given.toLowerCase())) return false
  throw invalid({ loc: ["query", name], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" })
}

const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A UUID path parameter: 422 `uuid_parsing` otherwise. */
export const uuidPath = (value: string, name: string): string => {
  if (!uuidPattern.test(value)) throw invalid({ loc: ["path", name], msg: "Input should be a valid UUID", type: "uuid_parsing" })
  return value.toLowerCase()
}
