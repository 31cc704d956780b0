/**
 * The tools `x-runner mcp` offers, as plain data and effects (no MCP library here: `McpServer`
 * speaks the protocol): one tool per action of the catalog (`<component>_<action>`), its input
 * schema from the action's properties, its output schema from the action's output, its
 * annotations from the action's impact; the options tool; and a workflow's tool. A call checks
 * its arguments before anything is sent and answers a failure as a result, never as a defect.
 *
 * @since 0.12.0
 */
import { Action, Component, Connections, ConnectorError, type FilePolicy, Property, PropertyGroup } from "@x/core"
import type * as Executor from "@x/core/Executor"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Catalog from "../components/Catalog.js"
import * as WorkflowSchema from "../workflow/WorkflowSchema.js"

/**
 * MCP's tool annotations, as the action's impact says them: a read changes nothing; a destroy
 * deletes or does what cannot be taken back; a write or destroy is idempotent when repeating it
 * is harmless. Every action reaches a provider (`openWorldHint`).
 *
 * @since 0.12.0
 * @category models
 */
export interface Annotations {
  readonly title: string
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

/**
 * One action offered as a tool.
 *
 * @since 0.12.0
 * @category models
 */
export interface ActionTool {
  readonly _tag: "ActionTool"
  /** `<component>_<action>`, e.g. `boardtool_createCard`. */
  readonly name: string
  /** Its step type, e.g. `boardtool/v1/createCard`. */
  readonly type: string
  readonly component: Component.Component
  readonly action: Action.Action
  readonly title: string
  readonly description: string
  readonly inputSchema: WorkflowSchema.JsonSchema
  readonly outputSchema: WorkflowSchema.JsonSchema
  /** The action's output is not an object: a result carries it as `{ result }` (MCP's structured content is an object). */
  readonly wrapsOutput: boolean
  readonly annotations: Annotations
  /** Its properties whose options come from the provider, and the properties each depends on. */
  readonly dynamicOptions: ReadonlyMap<string, ReadonlyArray<string>>
  /** Its property groups, whose fields come from the provider (a collection's), and what each depends on. */
  readonly fieldGroups: ReadonlyMap<string, ReadonlyArray<string>>
  /** The named connections of its component it may be called with (`connection`). */
  readonly connections: ReadonlyArray<string>
  /** Whether its component has a default connection here; without one, `connection` is required. */
  readonly hasDefault: boolean
}

/**
 * What a tool call answers: MCP's `CallToolResult`, a failure included (`isError`), with the
 * typed error's tag and message.
 *
 * @since 0.12.0
 * @category models
 */
export interface CallResult {
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent?: Readonly<Record<string, unknown>> | undefined
  readonly isError?: boolean | undefined
  /** A failure's tag and details (`x-runner/error`): not structured content, which a client checks against the output schema. */
  readonly _meta?: Readonly<Record<string, unknown>> | undefined
}

/**
 * The name of the options tool, for clients without completions.
 *
 * @since 0.12.0
 * @category constants
 */
export const optionsToolName = "list_options"

/**
 * The argument naming a named connection, in a tool of a component that has any.
 *
 * @since 0.12.0
 * @category constants
 */
export const connectionArgument = "connection"

/**
 * `<component>_<action>`: the tool's name (MCP's names take letters, digits, `_`, `-` and `.`).
 *
 * @since 0.12.0
 * @category utils
 */
export const toolName = (component: Component.Component, action: Action.Action): string => `${component.name}_${action.name}`

/**
 * A tool's annotations from the action's impact.
 *
 * @since 0.12.0
 * @category utils
 */
export const annotationsOf = (action: Action.Action): Annotations => ({
  title: action.title,
  readOnlyHint: action.impact === "read",
  destructiveHint: action.impact === "destroy",
  // A read is idempotent by its mark (Action.checkMark).
  idempotentHint: action.idempotent,
  openWorldHint: true
})

/**
 * A schema without `$schema` and `$id` at any depth: MCP's dialect is 2020-12 (Effect writes a
 * draft-07 marker, over keywords both read), and Effect names every `unknown` `/schemas/unknown`,
 * an id a validator refuses to see twice in one schema.
 */
const withoutIds = (schema: unknown): unknown =>
  Array.isArray(schema)
    ? schema.map(withoutIds)
    : schema === null || typeof schema !== "object"
    ? schema
    : Object.fromEntries(
      Object.entries(schema).filter(([key, value]) => !((key === "$id" || key === "$schema") && typeof value === "string")).map(([key, value]) => [key, withoutIds(value)])
    )

/** An output's JSON Schema as MCP takes it: an object's as it is, anything else under `result` (MCP's structured content is an object). */
const asOutputSchema = (schema: unknown): { readonly schema: WorkflowSchema.JsonSchema; readonly wraps: boolean } => {
  if (schema === null || typeof schema !== "object") return { schema: { type: "object", properties: {}, additionalProperties: false }, wraps: false }
  const { $defs, ...rest } = withoutIds(schema) as Record<string, unknown>
  if (rest["type"] === "object") return { schema: { ...rest, ...($defs === undefined ? {} : { $defs }) }, wraps: false }
  // Anything else (a list, a string, one of several shapes) is carried under `result`.
  return {
    schema: { type: "object", properties: { result: rest }, required: ["result"], additionalProperties: false, ...($defs === undefined ? {} : { $defs }) },
    wraps: true
  }
}

const sentence = (text: string) => /[.!?:)]$/.test(text) ? text : `${text}.`

const impactWords = {
  read: "It only reads.",
  write: "It creates or changes what can be changed back.",
  destroy: "It deletes, or does what cannot be taken back."
} as const

/**
 * The tool of one action.
 *
 * @since 0.12.0
 * @category constructors
 */
export const actionTool = (
  component: Component.Component,
  action: Action.Action,
  connections: ReadonlyArray<string>,
  hasDefault = true
): ActionTool => {
  const name = toolName(component, action)
  const described = Component.describeAction(action)
  const input = WorkflowSchema.actionInput(described, (path, dependsOn, what) => {
    const call = `${optionsToolName} with {"tool": "${name}", "property": "${path}"${
      dependsOn.length === 0 ? "" : `, "values": {${dependsOn.map((dependency) => `"${dependency}": …`).join(", ")}}`
    }}`
    return what === "options" ? `complete it (the prompt ${name}) or call ${call}.` : `call ${call} to see them.`
  })
  const inputSchema = connections.length === 0 ? input : {
    ...input,
    properties: {
      ...(input["properties"] as Record<string, unknown>),
      [connectionArgument]: {
        type: "string",
        enum: connections,
        description: hasDefault
          ? `A named connection of ${component.name} to call it with (its default connection when left out).`
          : `The named connection of ${component.name} to call it with (there is no default connection here).`
      }
    },
    ...(hasDefault ? {} : { required: [...(input["required"] as ReadonlyArray<string> | undefined) ?? [], connectionArgument] })
  }
  const output = asOutputSchema(described.output)
  const dynamicOptions = new Map(
    Object.entries(described.props).flatMap(([key, property]) =>
      property.dynamicOptions === undefined ? [] : [[key, property.dynamicOptions.dependsOn] as const]
    )
  )
  const fieldGroups = new Map((PropertyGroup.groupsOf(action.props) ?? []).map(([key, group]) => [key, group.fields.dependsOn] as const))
  const idempotence = action.impact === "read" ? "" : action.idempotent ? " Repeating it is harmless." : " Repeating it acts again."
  return {
    _tag: "ActionTool",
    name,
    type: `${Component.typeOf(component)}/${action.name}`,
    component,
    action,
    title: action.title,
    description: [
      action.description === undefined || action.description === "" ? sentence(action.title) : sentence(action.description),
      `${impactWords[action.impact]}${idempotence}`,
      action.deprecated === undefined ? undefined : `It is ${Action.deprecationNote(action.deprecated)}.`
    ].filter((part) => part !== undefined).join(" "),
    inputSchema,
    outputSchema: output.schema,
    wrapsOutput: output.wraps,
    annotations: annotationsOf(action),
    dynamicOptions,
    fieldGroups,
    connections,
    hasDefault
  }
}

/**
 * Which tools are offered: the components named (all when none is), the tools whose names
 * match one of the patterns (`*` any run of characters; all when none is given), and a
 * destroying action only when the operator allows it.
 *
 * @since 0.12.0
 * @category models
 */
export interface Selection {
  readonly components: ReadonlyArray<string>
  readonly patterns: ReadonlyArray<string>
  readonly allowDestructive: boolean
}

/** A pattern as a regular expression over the whole name: `*` any run of characters, the rest as written. */
const patternOf = (pattern: string): RegExp =>
  new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)

/**
 * The action tools of these catalog entries, as the selection says; each component's named
 * connections offered in its tools.
 *
 * @since 0.12.0
 * @category constructors
 */
export const actionTools = (
  entries: ReadonlyArray<Catalog.Entry>,
  selection: Selection,
  namedConnections: (component: string) => ReadonlyArray<string>,
  hasDefault: (component: string) => boolean = () => true
): ReadonlyArray<ActionTool> => {
  const patterns = selection.patterns.map(patternOf)
  return entries
    .filter((entry) => selection.components.length === 0 || selection.components.includes(entry.component.name))
    .flatMap((entry) =>
      Object.values(entry.component.actions as Readonly<Record<string, Action.Action>>)
        .filter((action) => selection.allowDestructive || action.impact !== "destroy")
        .filter((action) => patterns.length === 0 || patterns.some((pattern) => pattern.test(toolName(entry.component, action))))
        .map((action) => actionTool(entry.component, action, namedConnections(entry.component.name), hasDefault(entry.component.name)))
    )
}

/**
 * The patterns that match none of the catalog's tools (a typo the operator should hear of).
 *
 * @since 0.12.0
 * @category utils
 */
export const unmatched = (entries: ReadonlyArray<Catalog.Entry>, patterns: ReadonlyArray<string>): ReadonlyArray<string> => {
  const names = entries.flatMap((entry) =>
    Object.values(entry.component.actions as Readonly<Record<string, Action.Action>>).map((action) => toolName(entry.component, action))
  )
  return patterns.filter((pattern) => !names.some((name) => patternOf(pattern).test(name)))
}

/**
 * A failure as a tool's result: the typed error's tag and message (the executor scrubbed it of
 * secrets) as its text, and in `_meta` with its details; no structured content (a client checks
 * any against the tool's output schema, which is the success's).
 *
 * @since 0.12.0
 * @category constructors
 */
export const failed = (tag: string, message: string, details?: Readonly<Record<string, unknown>>): CallResult => ({
  content: [{ type: "text", text: `${tag}: ${message}` }],
  isError: true,
  _meta: { "x-runner/error": { tag, message, ...details } }
})

const succeeded = (structured: Readonly<Record<string, unknown>>): CallResult => ({
  content: [{ type: "text", text: JSON.stringify(structured) }],
  structuredContent: structured
})

/** An InvalidInput as a result naming each input at fault. */
const invalid = (error: ConnectorError.InvalidInput): CallResult => failed(error._tag, error.message, { issues: error.issues })

/**
 * The arguments of an action tool, checked as a workflow step's parameters are (before anything
 * is sent), split from the named connection; or the result that says what is wrong with them.
 *
 * @since 0.12.0
 * @category utils
 */
export const checkArguments = (
  executor: Executor.Executor,
  tool: ActionTool,
  args: Readonly<Record<string, unknown>>
): Either.Either<Executor.Decoded, CallResult> => {
  const { [connectionArgument]: connection, ...parameters } = args
  const refused = connectionProblem(tool, connection)
  if (refused !== undefined) return Either.left(failed(refused._tag, refused.message, { issues: refused.issues }))
  const prepared = executor.prepare({
    label: tool.title,
    name: "tool",
    type: tool.type,
    parameters: {},
    ...(typeof connection === "string" && tool.connections.includes(connection) ? { connection } : {})
  })
  if (Either.isLeft(prepared)) return Either.left(invalid(prepared.left))
  const params = tool.action.decode(parameters)
  if (Either.isLeft(params)) return Either.left(invalid(params.left))
  return Either.right({ ...prepared.right, params: params.right })
}

/** What is wrong with the connection a call names (or leaves out, where there is no default), if anything. */
const connectionProblem = (tool: ActionTool, connection: unknown): ConnectorError.InvalidInput | undefined => {
  if (connection === undefined) {
    return tool.hasDefault ? undefined : ConnectorError.invalidInput([{
      path: connectionArgument,
      message: `is required: ${tool.component.name} has no default connection here (one of ${tool.connections.join(", ")})`
    }])
  }
  if (typeof connection === "string" && tool.connections.includes(connection)) return undefined
  return ConnectorError.invalidInput([{
    path: connectionArgument,
    message: tool.connections.length === 0 ? `${tool.component.name} has no named connection here` : `must be one of ${tool.connections.join(", ")}`
  }])
}

/**
 * Calls an action tool: its arguments checked, the action run (under its connection's rate
 * limiter, as every step), its output as structured content; a provider's refusal or any
 * connector error as a result with `isError`.
 *
 * @since 0.12.0
 * @category utils
 */
export const callAction = (
  executor: Executor.Executor,
  tool: ActionTool,
  args: Readonly<Record<string, unknown>>
): Effect.Effect<CallResult, never, Connections.Connections | FilePolicy.FilePolicy> => {
  const checked = checkArguments(executor, tool, args)
  if (Either.isLeft(checked)) return Effect.succeed(checked.left)
  return executor.runDecoded(checked.right).pipe(
    Effect.map((output) =>
      succeeded(
        tool.wrapsOutput
          ? { result: output }
          : output === null || typeof output !== "object"
          ? {}
          : output as Record<string, unknown>
      )
    ),
    Effect.catchAll((error) => Effect.succeed(error._tag === "InvalidInput" ? invalid(error) : failed(error._tag, error.message)))
  )
}

/**
 * What a call's arguments were, for the operator's log: secret properties redacted.
 *
 * @since 0.12.0
 * @category utils
 */
export const redacted = (tool: ActionTool, args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> =>
  Property.redact(tool.action.props, args)

/**
 * The options of one property of an action tool, given the values it depends on: those
 * containing `prefix` (in their value or label, any case) first-matching first.
 *
 * @since 0.12.0
 * @category utils
 */
export const optionsOf = (
  executor: Executor.Executor,
  tool: ActionTool,
  property: string,
  values: Readonly<Record<string, unknown>>
): Effect.Effect<ReadonlyArray<{ readonly label: string; readonly value: string }>, ConnectorError.ConnectorError, Connections.Connections> => {
  const { [connectionArgument]: connection, ...params } = values
  const refused = connectionProblem(tool, connection)
  if (refused !== undefined) return Effect.fail(refused)
  return executor.options(tool.type, property, params).pipe(Connections.withConnection(connection as string | undefined))
}

/**
 * The fields of one property group of an action tool (a collection's, say), given the values it
 * depends on, described by key as `x-runner options` gives them.
 *
 * @since 0.12.0
 * @category utils
 */
export const fieldsOf = (
  executor: Executor.Executor,
  tool: ActionTool,
  property: string,
  values: Readonly<Record<string, unknown>>
): Effect.Effect<Readonly<Record<string, unknown>>, ConnectorError.ConnectorError, Connections.Connections> => {
  const { [connectionArgument]: connection, ...params } = values
  const refused = connectionProblem(tool, connection)
  if (refused !== undefined) return Effect.fail(refused)
  return executor.fields(tool.type, property, params).pipe(Connections.withConnection(connection as string | undefined))
}

/**
 * The choices whose value or label holds what was typed (any case), those starting with it first.
 *
 * @since 0.12.0
 * @category utils
 */
export const matching = <C extends { readonly label: string; readonly value: string }>(choices: ReadonlyArray<C>, typed: string): ReadonlyArray<C> => {
  const wanted = typed.toLowerCase()
  const starts = (choice: C) => choice.value.toLowerCase().startsWith(wanted) || choice.label.toLowerCase().startsWith(wanted)
  const holds = (choice: C) => choice.value.toLowerCase().includes(wanted) || choice.label.toLowerCase().includes(wanted)
  return [...choices.filter(starts), ...choices.filter((choice) => !starts(choice) && holds(choice))]
}

/**
 * Text an agent chose (arguments, a message quoting them) as one line of the operator's log: line
 * breaks and other control characters escaped, so that it cannot forge a line.
 *
 * @since 0.12.0
 * @category utils
 */
export const oneLine = (text: string): string =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)
