/**
 * The values of the connections, before they are opened (that is `@x/core`'s `Connections`
 * service, given these values): a JSON file keyed by component name, each value that
 * connection's fields (plus an optional `baseUrl`). Environment variables supply the same
 * values: `XRUNNER_<COMPONENT>_<FIELD>` (e.g. `XRUNNER_BOARDTOOL_TOKEN`), over the file's.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { Component, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { ConnectionProblem } from "../Errors.js"
import * as JsonText from "../workflow/JsonText.js"

/**
 * The connection values of each component, by component name.
 *
 * @since 0.2.0
 * @category models
 */
export type ConnectionValues = ReadonlyMap<string, Readonly<Record<string, unknown>>>

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()

/**
 * The environment variable of one field of a component's connection.
 *
 * @since 0.2.0
 * @category utils
 */
export const envName = (component: string, field: string) => `XRUNNER_${component.toUpperCase()}_${snake(field)}`

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Reads a connections file (the file's own values, none when it does not exist and
 * `missing` is "empty").
 *
 * @since 0.2.0
 * @category constructors
 */
export const readFile = (
  file: string,
  missing: "refuse" | "empty" = "refuse"
): Effect.Effect<ConnectionValues, ConnectionProblem, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    if (missing === "empty" && !(yield* Effect.orElseSucceed(fs.exists(file), () => false))) return new Map()
    const text = yield* Effect.mapError(fs.readFileString(file), () =>
      new ConnectionProblem({ message: `the connections file ${file} cannot be read` }))
    const parsed = JsonText.parse(text)
    if (Either.isLeft(parsed)) {
      const { message, path } = parsed.left
      return yield* new ConnectionProblem({ message: `the connections file ${file} is ${path === "" ? message : `${path}: ${message}`}` })
    }
    const json = parsed.right
    if (!isObject(json) || !Object.values(json).every(isObject)) {
      return yield* new ConnectionProblem({
        message: `the connections file ${file} must hold an object keyed by component name, each value an object of fields`
      })
    }
    return new Map(Object.entries(json as Record<string, Record<string, unknown>>))
  })

/**
 * The values of the file (if any), with those of the environment over them.
 *
 * @since 0.2.0
 * @category constructors
 */
export const load = (
  components: ReadonlyArray<Component.Component>,
  file: Option.Option<string>,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<ConnectionValues, ConnectionProblem, FileSystem.FileSystem> =>
  Effect.map(Option.match(file, { onNone: () => Effect.succeed<ConnectionValues>(new Map()), onSome: (path) => readFile(path) }), (fromFile) =>
    withEnvironment(components, fromFile, env))

/**
 * The connections with the environment's values over them.
 *
 * @since 0.2.0
 * @category combinators
 */
export const withEnvironment = (
  components: ReadonlyArray<Component.Component>,
  connections: ConnectionValues,
  env: Readonly<Record<string, string | undefined>>
): ConnectionValues => {
  const result = new Map(connections)
  for (const component of components) {
    for (const field of Object.keys(component.connection.props)) {
      const value = env[envName(component.name, field)]
      if (value !== undefined) result.set(component.name, { ...result.get(component.name), [field]: value })
    }
  }
  return result
}

/**
 * The base URL a component's requests go to with these connections, as `@x/core` opens the
 * connection: its decoded `baseUrl`, else the component's default. Values that do not decode
 * are refused by `check` before anything runs; for them this is the default.
 *
 * @since 0.2.0
 * @category utils
 */
export const baseUrlOf = (connections: ConnectionValues, component: Component.Component): string => {
  const decoded = component.connection.decode(connections.get(component.name) ?? {})
  const baseUrl = Either.isRight(decoded) ? (decoded.right as { readonly baseUrl?: string | undefined }).baseUrl : undefined
  return baseUrl ?? component.connection.client.defaultBaseUrl
}

// The fields a connection cannot be opened without: @x/core's `Connections.open` applies the
// same rule (required, no default) and exports none; the runner's message adds where to put them.
const required = (component: Component.Component) =>
  Object.entries(component.connection.props as Property.Properties)
    .filter(([, property]) => property.required && property.defaultValue === undefined)
    .map(([name]) => name)

/**
 * Checks the connection of each of these components; names what is missing and how to give it.
 *
 * @since 0.2.0
 * @category utils
 */
export const check = (connections: ConnectionValues, components: ReadonlyArray<Component.Component>): Either.Either<void, ConnectionProblem> => {
  const problems: Array<string> = []
  for (const component of components) {
    // As @x/core opens it: no values is a problem only if a field is required, else `{}` is decoded.
    const values = connections.get(component.name)
    const fields = required(component)
    if (values === undefined && fields.length > 0) {
      problems.push(
        `no connection for ${component.name}: put {"${component.name}": {${fields.map((f) => `"${f}": …`).join(", ")}}} in a connections file (--connections FILE), or set ${
          fields.map((f) => envName(component.name, f)).join(" and ")
        } (or use --sandbox)`
      )
      continue
    }
    const decoded = component.connection.decode(values ?? {})
    if (Either.isLeft(decoded)) {
      for (const issue of decoded.left.issues) {
        const field = issue.path.split(".")[0]!
        problems.push(
          `connection ${component.name}: ${issue.path}: ${issue.message} (set it under "${component.name}" in the connections file, or in ${envName(component.name, field)})`
        )
      }
    }
  }
  return problems.length === 0 ? Either.void : Either.left(new ConnectionProblem({ message: problems.join("\n") }))
}
