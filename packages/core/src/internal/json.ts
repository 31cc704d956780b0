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
  const shown = issues.slice(0, shownIssues).map((issue) => `${issuePath(issue)}: ${issueMessage(issue)}`)
  return shown.join("; ") + (issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "")
}

/** @internal The first few problems of a decoding failure, as issues (the path empty at the root). */
export const mismatchIssues = (error: ParseResult.ParseError): Array<{ path: string; message: string }> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).slice(0, shownIssues).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issueMessage(issue)
  }))

const shownIssues = 5

const issuePath = (issue: ParseResult.ArrayFormatterIssue) =>
  issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")

const issueMessage = (issue: ParseResult.ArrayFormatterIssue) =>
  issue._tag === "Missing" ? "is missing" : issue._tag === "Unexpected" ? "is unexpected" : truncate(issue.message, 200)

const truncate = (text: string, max: number) => text.length > max ? text.slice(0, max) + "…" : text
