/**
 * The generic custom action: any request against the component's base URL, with the
 * connection's auth. Its path may not leave the base URL: an absolute URL to another host,
 * a scheme-relative `//host` or a `..` that climbs out of the base path is rejected before
 * anything is sent, so the credentials never go elsewhere.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Action from "./Action.js"
import { invalidInput, type InvalidInput } from "./ConnectorError.js"
import * as Property from "./Property.js"
import * as ProviderClient from "./ProviderClient.js"

/**
 * Resolves a custom path against the base URL: the result is the part of the URL after the
 * base (path and query), or an `InvalidInput` when the path would leave the base URL.
 */
export const resolvePath = (baseUrl: string, path: string): Either.Either<string, InvalidInput> => {
  const reject = (reason: string) =>
    Either.left(invalidInput([{ path: "path", message: reason }], "customAction"))
  // Control characters and backslashes are read differently by different URL parsers.
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return reject("must not contain control characters or backslashes")
  if (path.startsWith("//")) return reject("must not be a scheme-relative URL (//host): it would leave the base URL")
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

const choices = <A extends string>(values: ReadonlyArray<A>) => values.map((value) => ({ label: value, value }))

const props = {
  method: Property.string({ title: "Method", required: true, options: choices(Method) }),
  path: Property.string({
    title: "Path",
    description: "Relative to the connection's base URL, e.g. /cards/{id}; it may not leave it.",
    required: true,
    minLength: 1
  }),
  query: Property.object({ title: "Query Parameters" }),
  headers: Property.object({ title: "Headers" }),
  bodyType: Property.string({ title: "Body Type", options: choices(BodyType), defaultValue: "JSON" }),
  body: Property.object({ title: "Body", description: "JSON: any object; FORM: string values; TEXT: use bodyText." }),
  bodyText: Property.string({ title: "Body Text", description: "The raw body, when Body Type is TEXT." }),
  responseType: Property.string({
    title: "Response Type",
    description: "BINARY returns the body as base64.",
    options: choices(ResponseType),
    defaultValue: "JSON"
  })
}

export const Output = Schema.Struct({
  status: Schema.Number,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  body: Schema.Unknown
})

/** Headers a user may not set: they belong to the transport or to the connection's auth. */
const reservedHeaders: ReadonlySet<string> = new Set(["host", "content-length", "transfer-encoding", "connection"])

const toQuery = (value: Readonly<Record<string, unknown>> | undefined) => {
  if (value === undefined) return undefined
  const query: Record<string, ProviderClient.QueryValue> = {}
  for (const [key, item] of Object.entries(value)) {
    query[key] = Array.isArray(item) ? item.map(String) : item === null || item === undefined ? undefined : String(item)
  }
  return query
}

export const action = Action.make({
  name: "customAction",
  title: "Custom API Call",
  description: "Sends any request to the provider's API with this connection's credentials.",
  props,
  output: Output,
  run: (params, { client }) =>
    Effect.gen(function*() {
      const path = yield* resolvePath(client.baseUrl, params.path)
      const headers: Record<string, string> = {}
      const issues: Array<{ path: string; message: string }> = []
      for (const [name, value] of Object.entries(params.headers ?? {})) {
        if (reservedHeaders.has(name.toLowerCase())) issues.push({ path: `headers.${name}`, message: "may not be set" })
        else if (typeof value !== "string") issues.push({ path: `headers.${name}`, message: "must be a string" })
        else headers[name] = value
      }
      if (issues.length > 0) return yield* Effect.fail(invalidInput(issues, "customAction"))
      const bodyType = params.bodyType ?? "JSON"
      const body = params.method === "GET" || params.method === "DELETE" && params.body === undefined
        ? undefined
        : bodyType === "TEXT"
        ? ProviderClient.textBody(params.bodyText ?? "")
        : bodyType === "FORM" && params.body !== undefined
        ? ProviderClient.formBody(toQuery(params.body)!)
        : bodyType === "JSON" && params.body !== undefined
        ? ProviderClient.jsonBody(params.body)
        : undefined
      const responseType = params.responseType ?? "JSON"
      return yield* client.send(
        {
          method: params.method as (typeof Method)[number],
          path,
          query: toQuery(params.query),
          headers,
          body
        },
        (response) =>
          Effect.map(response.arrayBuffer, (buffer) => {
            const bytes = Buffer.from(buffer)
            const text = responseType === "BINARY" ? "" : bytes.toString("utf8")
            return {
              status: response.status,
              headers: { ...response.headers },
              body: responseType === "BINARY"
                ? bytes.toString("base64")
                : responseType === "JSON"
                ? (ProviderClient.parseJson(text) ?? (text === "" ? null : text))
                : text
            }
          })
      )
    })
})
