/** JSON text parsed leniently, and Schema mismatches described briefly. */
import * as ParseResult from "effect/ParseResult"

/** @internal The parsed body, or undefined when it is empty or not JSON. */
export const parseJson = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** @internal The first few problems of a decoding failure, each with its path, not the whole value. */
export const describeMismatch = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const shown = issues.slice(0, 5).map((issue) =>
    `${issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")}: ${
      issue._tag === "Missing" ? "is missing" : issue._tag === "Unexpected" ? "is unexpected" : truncate(issue.message, 200)
    }`
  )
  return shown.join("; ") + (issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "")
}

const truncate = (text: string, max: number) => text.length > max ? text.slice(0, max) + "…" : text
