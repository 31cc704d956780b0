/**
 * A provider's published OpenAPI document as a checker of the requests a connector sends: the
 * operation (method and path template), its path and query parameters, and its body, each
 * checked against the document's schemas. The connectors' contract tests record what their
 * actions, options loaders and triggers send (`recording`) and check every request. The
 * deprecation watch: a request to an operation the document (or an amendment) marks deprecated
 * is a finding unless what sent it (`sentBy`, set by `exercise`) is marked deprecated too.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Ajv, type ValidateFunction } from "ajv"
import { Ajv2020 } from "ajv/dist/2020.js"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import { readFileSync } from "node:fs"
import { parse } from "yaml"
import { currentSender, type Sender } from "./sender.js"

/** A request as sent: method, absolute URL, and the body's fields or value. */
export interface SentRequest {
  readonly method: string
  readonly url: string
  /** What sent it, where it was sent within `sentBy` (as `exercise` does); `undefined` if unknown. */
  readonly sentBy?: Sender | undefined
  readonly body:
    | { readonly kind: "none" }
    | { readonly kind: "json"; readonly value: unknown }
    /** URL-encoded or multipart fields; a file part's value is `FILE`. */
    | { readonly kind: "form" | "multipart"; readonly fields: Readonly<Record<string, ReadonlyArray<string>>> }
    | { readonly kind: "bytes"; readonly contentType: string | undefined }
}

/** The value a multipart file part stands for in `SentRequest.body.fields`. */
export const FILE = "\u0000file"

type Lazy = () => ValidateFunction

interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required: boolean
  readonly validate: Lazy
  readonly isArray: boolean
}

interface Operation {
  readonly id: string
  readonly method: string
  readonly template: string
  readonly pattern: RegExp
  readonly literalSegments: number
  readonly parameters: ReadonlyArray<Parameter>
  readonly body: ReadonlyMap<string, Lazy | undefined>
  readonly bodyRequired: boolean
  /** Why it is deprecated (the document's mark, or an amendment's reason); `undefined` when it is not. */
  readonly deprecated: string | undefined
}

/** OpenAPI's `nullable` as JSON Schema ("or null"), and `#/components` references to the loaded document. */
const normalize = (value: unknown, id: string): unknown => {
  if (Array.isArray(value)) return value.map((item) => normalize(item, id))
  if (typeof value !== "object" || value === null) return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) {
    if (key === "nullable") continue
    out[key] = key === "$ref" && typeof item === "string" && item.startsWith("#/") ? `${id}${item}` : normalize(item, id)
  }
  if (record["nullable"] === true) {
    // A nullable `$ref` or a bare `nullable` (no type): the schema or null.
    return Object.keys(out).length === 0 ? {} : { anyOf: [out, { type: "null" }] }
  }
  return out
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const

/** The checker of one OpenAPI document. */
export interface Contract {
  /** The document's server path (e.g. `/1`), the prefix every operation's path is below. */
  readonly serverPath: string
  /** The problems of one request sent to `baseUrl` (the provider's or its simulator's): none when it conforms. */
  readonly check: (request: SentRequest, baseUrl: string) => ReadonlyArray<string>
  /** The operation a request is, as `METHOD /template`, if any. */
  readonly operationOf: (request: SentRequest, baseUrl: string) => string | undefined
  /** Every operation of the document, as `METHOD /template`. */
  readonly operations: ReadonlyArray<string>
  /** The operations marked deprecated (by the document or an amendment), as `METHOD /template`. */
  readonly deprecatedOperations: ReadonlyArray<string>
}

/**
 * What the provider really takes and its document leaves out: parameters added to an
 * operation or retyped, (with `adds`) an operation the document lacks, or (with `deprecated`)
 * an operation the provider deprecated or switched off after the document was written. Each
 * says why (where the fact comes from).
 */
export interface Amendment {
  /** `METHOD /template`, as in `Contract.operations`. */
  readonly operation: string
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: "path" | "query"; readonly schema: unknown }>
  /** The provider deprecated the operation (or switched it off): only a deprecated action may send it. */
  readonly deprecated?: boolean
  /** The operation is not in the document: it is added, with these parameters. */
  readonly adds?: boolean
  /** The JSON body's schema, replacing the document's where it is wrong about what the provider takes. */
  readonly body?: unknown
  readonly reason: string
}

/** Loads an OpenAPI 3.0 or 3.1 document (JSON or YAML) and compiles its operations, with its amendments. */
export const load = (path: string, amendments: ReadonlyArray<Amendment> = []): Contract => {
  const text = readFileSync(path, "utf8")
  const document = (path.endsWith(".json") ? JSON.parse(text) : parse(text)) as any
  for (const amendment of amendments) amend(document, amendment)
  const id = "spec"
  const ajv = String(document.openapi).startsWith("3.1")
    ? new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false })
    : new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false })
  ajv.addSchema({ $id: id, components: normalize(document.components ?? {}, id) })
  // Compiled when first needed: a document has hundreds of operations, a test sends a few.
  const compile = (schema: unknown): Lazy => {
    let compiled: ValidateFunction | undefined
    return () => compiled ??= ajv.compile(normalize(schema ?? {}, id) as object)
  }
  const resolve = (value: any): any =>
    typeof value?.$ref === "string" ? resolve(value.$ref.slice(2).split("/").reduce((node: any, key: string) => node?.[key], document)) : value
  const isArraySchema = (schema: any): boolean => resolve(schema)?.type === "array"

  const server = new URL(document.servers?.[0]?.url ?? "http://localhost/")
  const serverPath = server.pathname.replace(/\/$/, "")
  const queryCredentials = new Set(
    Object.values<any>(document.components?.securitySchemes ?? {})
      .filter((scheme) => scheme.type === "apiKey" && scheme.in === "query")
      .map((scheme) => scheme.name as string)
  )

  const operations: Array<Operation> = []
  for (const [template, item] of Object.entries<any>(document.paths ?? {})) {
    const shared: Array<any> = item.parameters ?? []
    for (const method of METHODS) {
      const operation = item[method]
      if (operation === undefined) continue
      const declared = new Map<string, any>()
      for (const parameter of [...shared, ...(operation.parameters ?? [])].map(resolve)) declared.set(`${parameter.in}:${parameter.name}`, parameter)
      const segments = template.replace(/\/$/, "").split("/").slice(1)
      const body = new Map<string, Lazy | undefined>()
      const requestBody = resolve(operation.requestBody)
      for (const [contentType, media] of Object.entries<any>(requestBody?.content ?? {})) {
        body.set(contentType.split(";")[0]!.trim(), media?.schema === undefined ? undefined : compile(media.schema))
      }
      operations.push({
        id: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^/${segments.map((segment) => segment.startsWith("{") ? "([^/]+)" : escape(segment)).join("/")}/?$`),
        literalSegments: segments.filter((segment) => !segment.startsWith("{")).length,
        parameters: [...declared.values()].map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          required: parameter.in === "path" || parameter.required === true,
          validate: compile({ type: "object", properties: { value: parameter.schema ?? {} } }),
          isArray: isArraySchema(parameter.schema)
        })),
        body,
        bodyRequired: requestBody?.required === true,
        deprecated: operation[AMENDED_DEPRECATION] ?? (operation.deprecated === true ? "the document marks it deprecated" : undefined)
      })
    }
  }
  // A path with more literal segments wins over a template that also matches (`/boards/{id}/lists` over `/boards/{id}/{field}`).
  operations.sort((a, b) => b.literalSegments - a.literalSegments)

  const relativePath = (request: SentRequest, baseUrl: string): string | undefined => {
    const base = baseUrl.replace(/\/$/, "")
    if (!request.url.startsWith(base)) return undefined
    const url = new URL(request.url)
    return url.pathname.slice(new URL(base).pathname.length) || "/"
  }
  const find = (request: SentRequest, path: string) =>
    operations.find((operation) => operation.method === request.method.toUpperCase() && operation.pattern.test(path))

  const check = (request: SentRequest, baseUrl: string): ReadonlyArray<string> => {
    const path = relativePath(request, baseUrl)
    if (path === undefined) return [`${request.method} ${request.url} is not below ${baseUrl}`]
    const operation = find(request, path)
    if (operation === undefined) return [`${request.method} ${path}: no such operation in the document`]
    const problems: Array<string> = []
    const say = (problem: string) => problems.push(`${operation.id}: ${problem}`)
    if (operation.deprecated !== undefined && request.sentBy?.deprecated === undefined) say(deprecationFinding(operation.deprecated, request.sentBy))
    const query = new URL(request.url).searchParams
    const given = new Map<string, { readonly in: string; readonly values: ReadonlyArray<string> }>()
    for (const name of new Set(query.keys())) if (!queryCredentials.has(name)) given.set(name, { in: "query", values: query.getAll(name) })
    const pathValues = operation.pattern.exec(path)!.slice(1).map(decodeURIComponent)
    const pathNames = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
    pathNames.forEach((name, index) => given.set(name, { in: "path", values: [pathValues[index]!] }))

    const { body } = request
    const mediaType = body.kind === "json"
      ? "application/json"
      : body.kind === "form"
      ? "application/x-www-form-urlencoded"
      : body.kind === "multipart"
      ? "multipart/form-data"
      : body.kind === "bytes"
      ? body.contentType?.split(";")[0]?.trim()
      : undefined
    if (body.kind === "none") {
      if (operation.bodyRequired) say("the document requires a body; none was sent")
    } else if (operation.body.size > 0) {
      if (!operation.body.has(mediaType ?? "")) {
        say(`a ${mediaType} body, but the document takes ${[...operation.body.keys()].join(" or ")}`)
      } else {
        const validate = operation.body.get(mediaType ?? "")?.()
        const value = body.kind === "json" ? body.value : body.kind === "form" || body.kind === "multipart" ? fieldsValue(body.fields) : undefined
        if (validate !== undefined && value !== undefined && !validate(value)) say(`body: ${ajv.errorsText(validate.errors)}`)
      }
    } else if (body.kind === "json" || body.kind === "form" || body.kind === "multipart") {
      // The document declares no body: its parameters are sent in one (Trello: "query parameters
      // may also be replaced with a JSON request body"), so each field counts as a parameter.
      const fields = body.kind === "json" ? jsonFields(body.value) : body.fields
      if (fields === undefined) say("a body that is not an object of fields, where the document declares parameters only")
      else for (const [name, values] of Object.entries(fields)) given.set(name, { in: "query", values })
    } else {
      say(`a ${mediaType} body, where the document declares none`)
    }

    for (const parameter of operation.parameters) {
      const value = given.get(parameter.name)
      if (value === undefined) {
        if (parameter.required && parameter.in !== "header" && parameter.in !== "cookie") say(`the required ${parameter.in} parameter ${parameter.name} is missing`)
        continue
      }
      given.delete(parameter.name)
      if (value.values.includes(FILE)) continue
      // Query and form values are text: the value passes as the text itself or as the JSON value it reads as.
      const as = (read: (text: string) => unknown) =>
        parameter.isArray
          ? value.values.flatMap((item) => item.split(",")).map(read)
          : value.values.length === 1
          ? read(value.values[0]!)
          : value.values.map(read)
      const validate = parameter.validate()
      if (!validate({ value: as(coerce) }) && !validate({ value: as(String) })) {
        say(`${parameter.in} parameter ${parameter.name}=${JSON.stringify(value.values.join(","))}: ${ajv.errorsText(validate.errors)}`)
      }
    }
    for (const [name, value] of given) say(`${value.in} parameter ${name} is not in the document`)
    return problems
  }

  return {
    serverPath,
    check,
    operationOf: (request, baseUrl) => {
      const path = relativePath(request, baseUrl)
      return path === undefined ? undefined : find(request, path)?.id
    },
    operations: operations.map((operation) => operation.id),
    deprecatedOperations: operations.filter((operation) => operation.deprecated !== undefined).map((operation) => operation.id)
  }
}

/** What to do about a request to a deprecated operation from a sender not marked deprecated. */
const deprecationFinding = (why: string, sender: Sender | undefined): string =>
  sender === undefined
    ? `deprecated (${why}), sent by nothing known (not within Contract.exercise or Contract.sentBy): send it through them, ` +
      "so that only an action marked deprecated may send it"
    : `deprecated (${why}), and ${sender.label}, which sends it, is not marked deprecated: mark it deprecated ` +
      "(deprecated: { since: \"YYYY-MM-DD\", replacement, reason }) or move it to the operation that replaces this one"

/** Where an amendment's `deprecated` keeps its reason on the document's operation. */
const AMENDED_DEPRECATION = "x-contract-deprecated"

const amend = (document: any, { adds, body, deprecated, operation, parameters = [], reason }: Amendment) => {
  const [method, template] = operation.split(" ") as [string, string]
  const item = document.paths[template] ??= {}
  if (adds === true) {
    if (item[method.toLowerCase()] !== undefined) throw new Error(`amendment: the document already has ${operation}`)
    item[method.toLowerCase()] = { parameters: [], responses: {} }
  }
  const target = item[method.toLowerCase()]
  if (target === undefined) throw new Error(`amendment: the document has no ${operation}`)
  if (body !== undefined) target.requestBody = { required: true, content: { "application/json": { schema: body } } }
  if (deprecated === true) target[AMENDED_DEPRECATION] = reason
  const declared: Array<any> = (target.parameters ??= [])
  for (const parameter of parameters) {
    const index = declared.findIndex((existing) => existing.name === parameter.name && existing.in === parameter.in)
    const amended = { ...(index === -1 ? {} : declared[index]), ...parameter, required: parameter.in === "path" || declared[index]?.required === true }
    if (index === -1) declared.push(amended)
    else declared[index] = amended
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A query or form value as the JSON value it stands for, where it reads as one (`3`, `true`, `null`). */
const coerce = (value: string): unknown => {
  if (value === "true") return true
  if (value === "false") return false
  if (value === "null") return null
  if (value.trim() !== "" && Number.isFinite(Number(value)) && !/^0\d/.test(value)) return Number(value)
  return value
}

const jsonFields = (value: unknown): Record<string, ReadonlyArray<string>> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, (Array.isArray(item) ? item : [item]).map(jsonText)]))
    : undefined

const jsonText = (item: unknown) => typeof item === "string" ? item : JSON.stringify(item)

const fieldsValue = (fields: Readonly<Record<string, ReadonlyArray<string>>>) =>
  Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, values.length === 1 ? coerce(values[0]!) : values.map(coerce)]))

const formFields = (formData: FormData): SentRequest["body"] => {
  const fields: Record<string, Array<string>> = {}
  formData.forEach((value, name) => (fields[name] ??= []).push(typeof value === "string" ? value : FILE))
  return { kind: "multipart", fields }
}

const decodeBody = async (body: HttpClientRequest.HttpClientRequest["body"]): Promise<SentRequest["body"]> => {
  switch (body._tag) {
    case "Empty":
      return { kind: "none" }
    case "FormData":
      return formFields(body.formData)
    case "Uint8Array":
    case "Raw": {
      const contentType = body.contentType ?? ""
      const bytes: unknown = body.body
      // A Blob (core's multipart and file bodies) is read here: a test's files are small.
      const text = bytes instanceof Uint8Array
        ? new TextDecoder().decode(bytes)
        : typeof bytes === "string"
        ? bytes
        : bytes instanceof Blob && !contentType.startsWith("multipart/")
        ? await bytes.text()
        : undefined
      if (bytes instanceof Blob && contentType.startsWith("multipart/form-data")) {
        return formFields(await new Response(bytes, { headers: { "content-type": contentType } }).formData())
      }
      if (text !== undefined && contentType.startsWith("application/json")) return { kind: "json", value: JSON.parse(text) }
      if (text !== undefined && contentType.startsWith("application/x-www-form-urlencoded")) {
        const fields: Record<string, Array<string>> = {}
        new URLSearchParams(text).forEach((value, name) => (fields[name] ??= []).push(value))
        return { kind: "form", fields }
      }
      return { kind: "bytes", contentType }
    }
    case "Stream":
      return { kind: "bytes", contentType: body.contentType }
  }
}

/**
 * An HttpClient layer over `http` that records every request it sends (before sending it): what
 * a contract test runs the connector with, then checks `requests` with `Contract.check`.
 */
export const recording = (http: Layer.Layer<HttpClient.HttpClient>) => {
  const requests: Array<SentRequest> = []
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.zip(Effect.promise(() => decodeBody(request.body)), FiberRef.get(currentSender)).pipe(
          Effect.map(([body, sender]) => {
            requests.push({ method: request.method, url: urlOf(request), body, ...(sender === undefined ? {} : { sentBy: sender }) })
          })
        )))
  ).pipe(Layer.provide(http))
  return { layer, requests }
}

const urlOf = (request: HttpClientRequest.HttpClientRequest) => {
  const url = new URL(request.url)
  for (const [name, value] of request.urlParams) url.searchParams.append(name, value)
  return url.toString()
}
export * from "./exercise.js"
export * from "./sender.js"
export * from "./documents.js"
export * from "./operations.js"
