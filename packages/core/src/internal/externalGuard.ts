/**
 * The file policy's network rule on `client.external`, the client of URLs outside the
 * provider's API (a file given by URL, a presigned upload or download URL). Under a policy
 * that refuses private networks, a request's URL is checked (its host name resolved) before it
 * is sent, and the request runs with `FilePolicy.guardedConnection` set, so that an HttpClient
 * that connects on its own checks the address it actually connects to. Requests to the
 * provider's own API (its base URL, which the operator configured) are not guarded.
 */
import * as Effect from "effect/Effect"
import * as Errors from "../ConnectorError.js"
import * as FilePolicy from "../FilePolicy.js"
import type * as ProviderRequest from "../ProviderRequest.js"
import type * as ResponseReader from "../ResponseReader.js"

type Send = <A>(
  request: ProviderRequest.ProviderRequest,
  read: ResponseReader.ResponseReader<A>
) => Effect.Effect<A, Errors.ConnectorError>

const shown = (url: string) => {
  try {
    const parsed = new URL(url)
    return parsed.origin + parsed.pathname
  } catch {
    return "the URL"
  }
}

/** @internal `send`, under the policy in context. */
export const guard = (send: Send): Send => (request, read) =>
  Effect.flatMap(FilePolicy.FilePolicy, (policy) =>
    policy.privateNetworks ? send(request, read) : Effect.flatMap(FilePolicy.urlRefusal(policy, request.path), (refusal) => {
      if (refusal === undefined) return Effect.locally(send(request, read), FilePolicy.guardedConnection, policy)
      const message = `${shown(request.path)} is refused: ${refusal}`
      return Effect.fail(new Errors.InvalidInput({ message, request: { method: request.method, path: shown(request.path) }, issues: [{ path: "url", message }] }))
    }))
