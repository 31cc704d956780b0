/**
 * The runner's own component `http`: its trigger `request` starts a run per `POST` to the
 * workflow's URL, with the request's JSON body as `trigger.body`. Every request must carry the
 * connection's bearer token or an HMAC-SHA256 signature of its body made with the connection's
 * secret: there is no anonymous start (`serve` refuses to start without either, `Signing.ts`).
 * A JSON Schema in its parameters is checked (with Ajv) before anything is recorded; an
 * `Idempotency-Key` header is the event's id, so a repeated request is the same run. `serve`
 * answers 202 with the run's id, or waits for its end (`respond: "whenDone"`).
 *
 * @since 0.7.0
 */
import { Auth, Component, Connection, Property, Trigger, Webhook } from "@x/core"
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createHash, createHmac, randomUUID } from "node:crypto"

/**
 * The header that carries a request's HMAC: `sha256=` and the hex HMAC-SHA256 of the raw body
 * with the connection's `hmacSecret` (GitHub's form).
 *
 * @since 0.7.0
 * @category constants
 */
export const signatureHeader = "x-signature-256"

/**
 * The HMAC-SHA256 of a body as `signatureHeader` carries it.
 *
 * @since 0.7.0
 * @category utils
 */
export const signatureOf = (secret: string, body: Uint8Array | string): string =>
  `sha256=${createHmac("sha256", secret).update(typeof body === "string" ? Buffer.from(body) : body).digest("hex")}`

// Formats (`"format": "email"`) are not checked: Ajv's format checks are a package of their own.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false })
// One compiled validator per schema text: parameters are decoded again for each request.
const compiled = new Map<string, ValidateFunction>()
const validatorOf = (schema: Readonly<Record<string, unknown>>): ValidateFunction => {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (validate === undefined) {
    validate = ajv.compile(schema)
    compiled.set(key, validate)
  }
  return validate
}

/** `body.items[2].email: must be string`, from Ajv's JSON pointer. */
const placeOf = (error: ErrorObject): string => {
  const path = error.instancePath.split("/").slice(1).map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"))
  const extra = error.keyword === "required" ? [String(error.params["missingProperty"])] :
    error.keyword === "additionalProperties" ? [String(error.params["additionalProperty"])] : []
  const place = [...path, ...extra].reduce((text, key) => /^\d+$/.test(key) ? `${text}[${key}]` : `${text}.${key}`, "body")
  const message = error.keyword === "required" ? "is required" :
    error.keyword === "additionalProperties" ? "is not allowed" : error.message ?? "does not match the schema"
  return `${place}: ${message}`
}

/** Hashed first, so that the comparison takes the same time whatever the lengths. */
const sameSecret = (given: string, expected: string) =>
  Webhook.safeEqual(createHash("sha256").update(given).digest("hex"), createHash("sha256").update(expected).digest("hex"))

const connection = Connection.custom({
  title: "HTTP trigger credentials",
  description: "What a request must carry to start a run: the bearer token, or an HMAC-SHA256 signature of its body made with the secret " +
    `(header ${signatureHeader}: sha256=<hex>). One of them must be set: no request starts a run anonymously`,
  props: {
    token: Property.secret({
      title: "Bearer token",
      description: "Requests carrying Authorization: Bearer <token> are accepted",
      minLength: 1
    }),
    hmacSecret: Property.secret({
      title: "HMAC secret",
      description: `Requests whose ${signatureHeader} header is sha256=<hex HMAC-SHA256 of the raw body with this secret> are accepted`,
      minLength: 1
    })
  },
  client: { defaultBaseUrl: "http://127.0.0.1/" },
  authenticate: () => ({ credentials: Auth.none })
})

/**
 * The event of one request: its JSON body and the headers the trigger passes on.
 *
 * @since 0.7.0
 * @category schemas
 */
export const Request = Schema.Struct({
  body: Schema.Unknown.annotations({ description: "The request's JSON body" }),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "The headers named in the trigger's headers parameter that the request had (lower-case names)"
  })
}).annotations({ identifier: "HttpRequest" })

const credentialHeaders: ReadonlyArray<string> = ["authorization", signatureHeader]

/** Longer keys are refused: a key is stored as the run's event id. */
const maxKeyLength = 200

const unauthorized = new Webhook.DeliveryRejected({ status: 401, message: "a bearer token or a signature is required, and it must match" })

const request = Trigger.staticWebhook({
  name: "request",
  title: "On an HTTP request",
  description: "Starts a run per POST to the workflow's URL, its JSON body as trigger.body. Authenticated by the http connection's " +
    `bearer token (Authorization: Bearer …) or an HMAC-SHA256 signature of the body (${signatureHeader}: sha256=…). ` +
    "An Idempotency-Key header makes a repeated request the same run. Answered 202 with the run's id, or (respond: whenDone) with the run's outputs.",
  setup: "POST JSON to this URL with Authorization: Bearer <the http connection's token> (or a signature made with its hmacSecret)",
  connection,
  props: {
    schema: Property.object({
      title: "JSON Schema",
      description: "A JSON Schema the body must follow; a body that does not is answered 400 naming the place, and nothing is recorded"
    }),
    headers: Property.array({
      title: "Headers",
      description: "The request headers passed on as trigger.headers (names, any case)",
      items: Property.string({ title: "Header name", minLength: 1 })
    }),
    respond: Property.string({
      title: "Respond",
      description: "Answer at once (202 with the run's id: accepted), or when the run ends (whenDone: 200 with its outputs, " +
        "or 202 with its id when it has not ended within timeoutSeconds)",
      choices: [{ label: "When accepted", value: "accepted" }, { label: "When the run ends", value: "whenDone" }],
      defaultValue: "accepted"
    }),
    timeoutSeconds: Property.integer({
      title: "Time limit (seconds)",
      description: "With respond: whenDone, how long a request waits for its run's end",
      minimum: 1,
      maximum: 300,
      defaultValue: 30
    })
  },
  validate: (params) => {
    // The credential is never passed on: a run's trigger is recorded and shown.
    const credentials = (params.headers ?? []).flatMap((name, i) =>
      credentialHeaders.includes(name.toLowerCase()) ? [{ path: `headers[${i}]`, message: `carries the request's credential: it is never passed on` }] : []
    )
    if (params.schema === undefined) return credentials
    try {
      validatorOf(params.schema)
      return credentials
    } catch (error) {
      return [...credentials, { path: "schema", message: `is not a JSON Schema: ${error instanceof Error ? error.message : String(error)}` }]
    }
  },
  output: Request,
  handle: ({ connection, params, request }) =>
    Effect.gen(function*() {
      if (request.method.toUpperCase() !== "POST") {
        return { response: { status: 405, body: "only POST starts a run" }, events: [] }
      }
      const bearer = /^Bearer\s+(.+)$/i.exec(request.headers["authorization"] ?? "")?.[1]?.trim()
      const signature = request.headers[signatureHeader]?.trim()
      const token = connection.token === undefined ? undefined : Redacted.value(connection.token)
      const secret = connection.hmacSecret === undefined ? undefined : Redacted.value(connection.hmacSecret)
      const byToken = token !== undefined && bearer !== undefined && sameSecret(bearer, token)
      const bySignature = secret !== undefined && signature !== undefined && sameSecret(signature, signatureOf(secret, request.body))
      if (!byToken && !bySignature) return yield* unauthorized
      let body: unknown
      try {
        body = JSON.parse(new TextDecoder().decode(request.body))
      } catch {
        return yield* new Webhook.DeliveryRejected({ status: 400, message: "body: is not JSON" })
      }
      if (params.schema !== undefined) {
        const validate = validatorOf(params.schema)
        if (!validate(body)) {
          return yield* new Webhook.DeliveryRejected({ status: 400, message: (validate.errors ?? []).map(placeOf).join("\n") })
        }
      }
      const headers: Record<string, string> = {}
      for (const name of params.headers ?? []) {
        const value = request.headers[name.toLowerCase()]
        if (value !== undefined) headers[name.toLowerCase()] = value
      }
      // The key names the run (the store keys runs by workflow and event id): a repeat is the same run.
      const key = request.headers["idempotency-key"]?.trim()
      if (key !== undefined && key.length > maxKeyLength) {
        return yield* new Webhook.DeliveryRejected({ status: 400, message: `Idempotency-Key: is longer than ${maxKeyLength} characters` })
      }
      return {
        response: { status: 202 },
        events: [{ id: key !== undefined && key !== "" ? `key:${key}` : `request:${randomUUID()}`, output: { body, headers } }]
      }
    })
})

/**
 * Whether a trigger is the http component's `request`: `serve` answers it with the run's id
 * (or its outputs), and refuses to start it without a credential.
 *
 * @since 0.7.0
 * @category utils
 */
export const isRequestTrigger = (trigger: Trigger.Trigger): boolean => trigger === request

/**
 * The component: its connection holds the credentials requests are checked with.
 *
 * @since 0.7.0
 * @category components
 */
export const http = Component.make({
  name: "http",
  version: 1,
  title: "HTTP",
  description: "Starts a workflow by an authenticated HTTP request of your own systems: POST JSON to its URL",
  category: "Core",
  connection,
  actions: [],
  triggers: [request]
})
