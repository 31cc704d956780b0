/**
 * The generic custom action: any request against the component's base URL, with the
 * connection's auth. Its path may not leave the base URL: an absolute URL to another host,
 * a scheme-relative `//host` or a `..` that climbs out of the base path is rejected before
 * anything is sent, so the credentials never go elsewhere.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Action from "./Action.js"
import * as Choice from "./Choice.js"
import { invalidInput, type InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"
import * as ProviderRequest from "./ProviderRequest.js"
import type * as ResponseReader from "./ResponseReader.js"

/**
 * Resolves a custom path against the base URL: the result is the part of the URL after the
 * base (path and query), or an `InvalidInput` when the path would leave the base URL.
 *
 * @since 0.1.0
 * @category utils
 */
export const resolvePath = (baseUrl: string, path: string): Either.Either<string, InvalidInput> => {
  const reject = (reason: string) =>
    Either.left(invalidInput([{ path: "path", message: reason }], "customAction"))
  // Control characters and backslashes are read differently by different URL parsers.
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return reject("must not contain control characters or backslashes")
  if (path.startsWith("//")) return reject("must not be a scheme-relative URL (//host): it would leave the base URL")
  // An encoded slash or backslash, or a segment that decodes to a dot segment ("..;", "%2e."),
  // is resolved by some servers and proxies after this check: it could climb out of the base path.
  const pathPart = path.split(/[?#]/)[0]!
  if (/%2f|%5c/i.test(pathPart)) return reject("must not contain an encoded slash or backslash")
  for (const segment of pathPart.split("/")) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return reject("has an invalid percent-encoding")
    }
    if (decoded !== segment && (decoded === "." || decoded === "..")) continue // the URL parser resolves these
    if (decoded.startsWith("..") && decoded !== "..") return reject("must not contain a segment that starts with ..")
  }
  const base = new URL(baseUrl.replace(/\/*$/, "/"))
  let target: URL
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    try {
      target = new URL(path)
    } catch {
      return reject("is not a valid URL")
    }
  } else {
    // Relative to the base path, with dot segments (also %2e%2e) resolved by the URL parser.
    target = new URL(path.replace(/^\/+/, ""), base)
  }
  if (target.origin !== base.origin) {
    return reject(`must stay on ${base.origin}: an absolute URL to another origin is not allowed`)
  }
  if (!target.pathname.startsWith(base.pathname) && target.pathname + "/" !== base.pathname) {
    return reject(`must stay below the base URL's path ${base.pathname}`)
  }
  if (target.username !== "" || target.password !== "") return reject("must not carry user information")
  return Either.right("/" + target.pathname.slice(base.pathname.length) + target.search)
}

const Method = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const
const BodyType = ["JSON", "FORM", "TEXT", "NONE"] as const
const ResponseType = ["JSON", "TEXT", "BINARY"] as const

/** Request headers that carry no credential: shown and kept as given. */
const publicHeaders = [
  "Accept",
  "Accept-Encoding",
  "Accept-Language",
  "Cache-Control",
  "Content-Language",
  "Content-Type",
  "If-Match",
  "If-Modified-Since",
  "If-None-Match",
  "If-Unmodified-Since",
  "Prefer",
  "User-Agent"
]

const props = {
  method: Property.string({ title: "Method", required: true, choices: Choice.of(Method) }),
  path: Property.string({
    title: "Path",
    description: "Relative to the connection's base URL, e.g. /cards/{id}; it may not leave it.",
    required: true,
    minLength: 1
  }),
  query: Property.object({ title: "Query Parameters" }),
  // Their values are often credentials of their own: never stored or shown in clear, but for
  // the headers that only say what is sent or wanted (else the answer's own `content-type`
  // would be scrubbed wherever it repeats the request's `Accept`).
  headers: Property.object({
    title: "Headers",
    description: `Their values are secret, never stored or shown in clear, except ${publicHeaders.join(", ")}.`,
    secret: true,
    publicKeys: publicHeaders
  }),
  bodyType: Property.string({ title: "Body Type", choices: Choice.of(BodyType), defaultValue: "JSON" }),
  body: Property.object({ title: "Body", description: "JSON: any object; FORM: string values; TEXT: use bodyText." }),
  bodyText: Property.string({ title: "Body Text", description: "The raw body, when Body Type is TEXT." }),
  responseType: Property.string({
    title: "Response Type",
    description: "BINARY returns the body as base64.",
    choices: Choice.of(ResponseType),
    defaultValue: "JSON"
  })
}

/**
 * The output of the custom action: the response's status, headers and body.
 *
 * @since 0.1.0
 * @category utils
 */
export const Output = Schema.Struct({
  status: Schema.Number,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  body: Schema.Unknown
})

/** Headers a user may not set: they belong to the transport or to the connection's auth. */
const reservedHeaders: ReadonlySet<string> = new Set(["host", "content-length", "transfer-encoding", "connection"])

type Issues = Array<{ path: string; message: string }>

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/** Query or form values: scalars or lists of scalars; anything else is an issue, not "[object Object]". */
const toParams = (
  value: Readonly<Record<string, unknown>> | undefined,
  field: string,
  issues: Issues
): Record<string, ProviderRequest.QueryValue> | undefined => {
  if (value === undefined) return undefined
  const params: Record<string, ProviderRequest.QueryValue> = {}
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue
    if (isScalar(item)) params[key] = item
    else if (Array.isArray(item) && item.every(isScalar)) params[key] = item
    else issues.push({ path: `${field}.${key}`, message: "must be a string, number, boolean or a list of them" })
  }
  return params
}

/** Reads the response as the caller asked: JSON (text if it is not JSON), text, or base64 bytes. */
const readAs = (responseType: string): ResponseReader.ResponseReader<typeof Output.Type> => (response) =>
  Effect.map(response.arrayBuffer, (buffer) => {
    const bytes = Buffer.from(buffer)
    let body: unknown
    if (responseType === "BINARY") body = bytes.toString("base64")
    else {
      const text = bytes.toString("utf8")
      if (responseType === "TEXT" || text === "") body = responseType === "TEXT" ? text : null
      else {
        try {
          body = JSON.parse(text)
        } catch {
          body = text
        }
      }
    }
    return { status: response.status, headers: { ...response.headers }, body }
  })

/**
 * The custom action: any request against the connection's base URL, with its credentials.
 *
 * @since 0.1.0
 * @category constructors
 */
export const action = Action.make({
  name: "customAction",
  title: "Custom API Call",
  description: "Sends any request to the provider's API with this connection's credentials.",
  // Any method to any path: it can delete as well as read, so it is marked as the worst it can do.
  impact: "destroy",
  idempotent: false,
  props,
  output: Output,
  run: (params, { client }) =>
    Effect.gen(function*() {
      const path = yield* resolvePath(client.baseUrl, params.path)
      const issues: Issues = []
      const headers: Record<string, string> = {}
      let contentType: string | undefined
      for (const [name, value] of Object.entries(params.headers ?? {})) {
        if (reservedHeaders.has(name.toLowerCase())) issues.push({ path: `headers.${name}`, message: "may not be set" })
        else if (typeof value !== "string") issues.push({ path: `headers.${name}`, message: "must be a string" })
        else if (name.toLowerCase() === "content-type") contentType = value
        else headers[name] = value
      }
      const query = toParams(params.query, "query", issues)
      const bodyType = params.bodyType ?? "JSON"
      const form = bodyType === "FORM" ? toParams(params.body, "body", issues) : undefined
      if (issues.length > 0) return yield* Effect.fail(invalidInput(issues, "customAction"))
      // A GET has no body; the others send one when given, as the chosen type.
      const body = params.method === "GET"
        ? undefined
        : bodyType === "TEXT" && params.bodyText !== undefined
        ? ProviderRequest.textBody(params.bodyText, contentType)
        : bodyType === "FORM" && form !== undefined
        ? ProviderRequest.formBody(form)
        : bodyType === "JSON" && params.body !== undefined
        ? ProviderRequest.jsonBody(params.body)
        : undefined
      if (contentType !== undefined && body?._tag !== "text") headers["content-type"] = contentType
      return yield* client.send(
        { method: params.method, path, query, headers, body },
        readAs(params.responseType ?? "JSON")
      )
    })
})
