/** Secrets scrubbed from a typed error, whatever field a provider echoed them in. */
import type * as Redacted from "effect/Redacted"
import * as Auth from "../Auth.js"
import type * as Errors from "../ConnectorError.js"

/** @internal The same error with every secret scrubbed from its message, path, body and issues. */
export const scrubError = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  error: Errors.ConnectorError
): Errors.ConnectorError => {
  if (secrets.length === 0) return error
  const fields: Record<string, unknown> = { ...error, message: Auth.scrub(secrets, error.message ?? "") }
  delete fields["_tag"]
  if (error.request !== undefined) {
    fields["request"] = { method: error.request.method, path: Auth.scrub(secrets, error.request.path) }
  }
  if (error.body !== undefined) fields["body"] = Auth.scrubValue(secrets, error.body)
  // Whatever the tag: an error turned into another by a refinement may still carry issues.
  const issues = (error as { issues?: ReadonlyArray<Errors.Issue> }).issues
  if (Array.isArray(issues)) {
    fields["issues"] = issues.map((issue: Errors.Issue) => ({ path: issue.path, message: Auth.scrub(secrets, issue.message) }))
  }
  const Class = error.constructor as new(fields: Record<string, unknown>) => Errors.ConnectorError
  return new Class(fields)
}
