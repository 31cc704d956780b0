/**
 * The values of the connections, before they are opened (that is `@x/core`'s `Connections`
 * service, given these values): a JSON file keyed by component name, each value that
 * connection's fields (plus an optional `baseUrl`): the component's default connection.
 * Environment variables supply the same values: `XRUNNER_<COMPONENT>_<FIELD>` (e.g.
 * `XRUNNER_BOARDTOOL_TOKEN`), over the file's. Named connections (several of one component,
 * picked by a step's `connection`) are entries under a name of the user's choosing whose value
 * says its `component`; they come from the file only.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { type Component, Connections, type Property, Step } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ConnectionProblem } from "../Errors.js"
import * as JsonText from "../workflow/JsonText.js"

/**
 * The connection values of each component, by component name.
 *
 * @since 0.2.0
 * @category models
 */
export type ConnectionValues = ReadonlyMap<string, Readonly<Record<string, unknown>>>

/**
 * A connection a command uses: a component's default (`connection` left out), or the one of
 * that component named `connection`; `at` says where a workflow names it (`tasks[1]`), for
 * messages.
 *
 * @since 0.8.0
 * @category models
 */
export interface Use {
  readonly component: Component.Component
  readonly connection?: string | undefined
  readonly at?: ReadonlyArray<string> | undefined
}

/**
 * Components as the uses of their default connections, uses as they are.
 *
 * @since 0.8.0
 * @category utils
 */
export const usesOf = (used: ReadonlyArray<Component.Component | Use>): ReadonlyArray<Use> =>
  used.map((use) => "component" in use ? use : { component: use })

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
  Effect.map(
    Option.match(file, {
      onNone: () => Effect.succeed<ConnectionValues>(new Map()),
      onSome: (path) => Effect.tap(readFile(path), (fromFile) => checkEntries(path, fromFile, components))
    }),
    (fromFile) => withEnvironment(components, fromFile, env)
  )

const isConnectionName = Schema.is(Step.ConnectionName)

/**
 * Checks the file's entries that say a `component`: it must be one the runner knows, a named
 * connection's name must be one a step can give, and an entry under a component's name is that
 * component's (its default).
 *
 * @since 0.8.0
 * @category utils
 */
export const checkEntries = (
  file: string,
  connections: ConnectionValues,
  components: ReadonlyArray<Component.Component>
): Either.Either<void, ConnectionProblem> => {
  const names = new Set(components.map((component) => component.name))
  const problems: Array<string> = []
  for (const [name, values] of connections) {
    if (!Object.hasOwn(values, "component")) continue
    const of = values["component"]
    if (typeof of !== "string" || !names.has(of)) {
      problems.push(`${name}.component: ${JSON.stringify(of)} is not a component; there are ${[...names].join(", ")}`)
    } else if (names.has(name) && of !== name) {
      problems.push(`${name}.component: the entry under "${name}" is ${name}'s default connection; name the ${of} connection otherwise`)
    } else if (!isConnectionName(name)) {
      problems.push(`${name}: a connection's name is a letter, then up to 63 letters, digits, _ or -`)
    }
  }
  return problems.length === 0
    ? Either.void
    : Either.left(new ConnectionProblem({ message: problems.map((problem) => `the connections file ${file}: ${problem}`).join("\n") }))
}

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
export const baseUrlOf = (connections: ConnectionValues, component: Component.Component, connection?: string | undefined): string => {
  const decoded = component.connection.decode(Either.getOrUndefined(Connections.valuesOf(connections, component, connection)) ?? {})
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
 * What is wrong with the named connection a use names: not a connection's name, not there, or
 * not its component's (`undefined`: nothing, or a component's default).
 *
 * @since 0.8.0
 * @category utils
 */
export const namedProblem = (connections: ConnectionValues, use: Use): string | undefined => {
  const { component, connection } = use
  if (connection === undefined) return undefined
  if (!isConnectionName(connection)) return `"${connection}" is not a connection's name: a letter, then up to 63 letters, digits, _ or -`
  const resolved = Connections.valuesOf(connections, component, connection)
  if (Either.isRight(resolved)) return undefined
  return connections.get(connection) === undefined
    ? `there is no connection named "${connection}": put {"${connection}": {"component": "${component.name}", ${
      required(component).map((f) => `"${f}": …`).join(", ")
    }}} in the connections file (--connections FILE)`
    : resolved.left.issues.map((issue) => issue.message).join("; ")
}

/**
 * Checks each connection these components or uses need (a component's default, or a named
 * connection of it); names what is missing and how to give it, and where a workflow names a
 * connection that is not there or is another component's.
 *
 * @since 0.2.0
 * @category utils
 */
export const check = (
  connections: ConnectionValues,
  used: ReadonlyArray<Component.Component | Use>
): Either.Either<void, ConnectionProblem> => {
  const problems: Array<string> = []
  for (const { at, component, connection } of usesOf(used)) {
    const where = at === undefined || at.length === 0 ? "" : `${at.map((path) => `${path}.connection`).join(", ")}: `
    const named = namedProblem(connections, { component, connection })
    if (named !== undefined) {
      // A workflow's are said by its check, at their places (`Workflow.checkWithConnections`).
      if (at === undefined || at.length === 0) problems.push(`${where}${named}`)
      continue
    }
    const resolved = Connections.valuesOf(connections, component, connection)
    if (Either.isLeft(resolved)) continue
    const name = connection ?? component.name
    // As @x/core opens it: no values is a problem only if a field is required, else `{}` is decoded.
    const values = resolved.right
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
          connection === undefined
            ? `connection ${component.name}: ${issue.path}: ${issue.message} (set it under "${component.name}" in the connections file, or in ${envName(component.name, field)})`
            : `${where}connection ${name}: ${issue.path}: ${issue.message} (set it under "${name}" in the connections file)`
        )
      }
    }
  }
  return problems.length === 0 ? Either.void : Either.left(new ConnectionProblem({ message: [...new Set(problems)].join("\n") }))
}
