/**
 * A write the provider accepted (2xx) whose answer could not be read: how it is told from a
 * read, and the `AcceptedUnreadable` it becomes.
 */
import * as Errors from "../ConnectorError.js"

/**
 * @internal Whether a request asks the provider to change something: any method but GET, HEAD
 * and OPTIONS, whatever its retry class (a PUT or DELETE is retried, yet still a write).
 */
export const isWrite = (method: string): boolean => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

/**
 * @internal A write's 2xx answer that could not be read. `text` is kept whole here: it is
 * capped by `settle` only after its secrets are scrubbed, since a cut could split a secret and
 * leave a part of it that no longer matches.
 */
export const acceptedUnreadable = (
  info: Errors.RequestInfo,
  status: number,
  text: string,
  issues: ReadonlyArray<Errors.Issue>
): Errors.AcceptedUnreadable =>
  new Errors.AcceptedUnreadable({
    message: `the provider accepted ${info.method} ${info.path} (HTTP ${status}), but its answer could not be read (${
      issues.map((issue) => issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`).join("; ")
    }): what it asked was most likely done, so do not repeat it blindly; check at the provider first`,
    request: info,
    status,
    body: text,
    issues
  })

const excerptChars = 300

/**
 * @internal An error as it leaves the client, once scrubbed: an accepted write's answer capped
 * to `acceptedAnswerMaxChars`, and its beginning quoted in the message (the one field a runner
 * shows), so that what was created can be found without repeating the write.
 */
export const settle = (error: Errors.ConnectorError): Errors.ConnectorError => {
  if (error._tag !== "AcceptedUnreadable") return error
  const text = error.body.trim()
  if (text === "") return error
  return new Errors.AcceptedUnreadable({
    message: `${error.message}. It answered: ${cut(text, excerptChars)}`,
    request: error.request,
    status: error.status,
    body: cut(error.body, Errors.acceptedAnswerMaxChars),
    issues: error.issues
  })
}

const cut = (text: string, max: number) => text.length > max ? text.slice(0, max) + "…" : text
