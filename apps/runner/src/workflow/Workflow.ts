/**
 * Workflow files: `{label, description?, inputs?, triggers?: [step], tasks: [step]}`. Before
 * anything runs, the whole file is checked and every problem listed with its path: JSON
 * syntax (with line and column), nesting depth, the shape, unknown types and actions,
 * missing or mistyped parameters, references to unknown or later steps, duplicate or
 * reserved step names. The checked workflow keeps what the check resolved and decoded (each
 * step prepared by the executor), so nothing is looked up or decoded again.
 *
 * @since 0.2.0
 */
import type { Component, ConnectorError, Executor } from "@x/core"
import { Action, CustomAction, Property } from "@x/core"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import * as ConnectionValues from "../components/ConnectionValues.js"
import * as Checked from "./internal/checkStep.js"
import { reservedNames } from "./internal/checkStep.js"
import * as CheckTree from "./internal/checkTree.js"
import * as Expressions from "./internal/expressions.js"
import * as JsonText from "./JsonText.js"
import * as References from "./References.js"

/**
 * A step that passed the check: as written, its component, its parameters with the inputs put in
 * (a task's that refer to earlier steps as written, resolved in one pass when it runs).
 *
 * @since 0.2.0
 * @category models
 */
export type CheckedStep = Checked.CheckedStep

/**
 * A task that passed the check, by its kind (`action`, `group`, `loop`, `wait`): each with its
 * path in the file (`tasks[2].tasks[0]`), its `if` and its other options, its expressions compiled.
 *
 * @since 0.2.0
 * @category models
 */
export type CheckedTask = CheckTree.CheckedTask

/**
 * An action task that passed the check: prepared by the executor once, and decoded once when
 * all its parameters were known then; with its `if`, `retry`, `timeout` and `continueOnError`.
 *
 * @since 0.7.0
 * @category models
 */
export type CheckedAction = CheckTree.CheckedAction

/**
 * A group that passed the check: its tasks, run in order.
 *
 * @since 0.7.0
 * @category models
 */
export type CheckedGroup = CheckTree.CheckedGroup

/**
 * A loop that passed the check: its `forEach` list, the item's name, its concurrency and its tasks.
 *
 * @since 0.7.0
 * @category models
 */
export type CheckedLoop = CheckTree.CheckedLoop

/**
 * A wait that passed the check: a `delay`, or an `until` time.
 *
 * @since 0.7.0
 * @category models
 */
export type CheckedWait = CheckTree.CheckedWait

/**
 * A call of another workflow: its tasks run as part of this run.
 *
 * @since 0.7.0
 * @category models
 */
export type CheckedCall = CheckTree.CheckedCall

/**
 * A retry that passed the check: the attempts in all, the first delay, the backoff, the error tags it retries.
 *
 * @since 0.7.0
 * @category models
 */
export type Retry = CheckTree.Retry

/**
 * The trigger that passed the check: prepared (resolved and decoded) once.
 *
 * @since 0.2.0
 * @category models
 */
export type CheckedTrigger = Checked.CheckedTrigger

/**
 * A checked workflow.
 *
 * @since 0.2.0
 * @category models
 */
export type Workflow = CheckTree.CheckedWorkflow

// The shape is checked with Schema; the values are then taken from the JSON as written (a
// decoded Record would not keep a key such as "__proto__" as the user's).
const Shape = Schema.Struct({
  // The JSON Schema an editor validates the file with (`x-runner schema`); the runner ignores it.
  $schema: Schema.optional(Schema.String),
  label: Schema.String,
  description: Schema.optional(Schema.String),
  inputs: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  triggers: Schema.optional(Schema.Array(Schema.Unknown)),
  tasks: Schema.Array(Schema.Unknown).pipe(Schema.minItems(1, { message: () => "must have at least one step" })),
  onFailure: Schema.optional(Schema.Array(Schema.Unknown).pipe(Schema.minItems(1, { message: () => "must have at least one task" })))
})
const checkShape = Schema.decodeUnknownEither(Shape, { errors: "all", onExcessProperty: "error" })

interface Json {
  readonly label: string
  readonly description?: string
  readonly inputs?: Readonly<Record<string, unknown>>
  readonly triggers?: ReadonlyArray<unknown>
  readonly tasks: ReadonlyArray<unknown>
  readonly onFailure?: ReadonlyArray<unknown>
}

/** The JSON Schema of a trigger's events (`undefined`: any value, when the runner cannot write one). */
const triggerSchemaOf = (trigger: CheckedTrigger | undefined): unknown => {
  if (trigger === undefined) return undefined
  try {
    return JSONSchema.make(trigger.prepared.trigger.output)
  } catch {
    return undefined
  }
}

/** What `failure` is in `onFailure`'s tasks. */
const failureSchema = {
  type: "object",
  properties: { path: { type: "string" }, tag: { type: "string" }, message: { type: "string" } },
  required: ["path", "tag", "message"]
}

const nameOf = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"
    ? [(value as { name: string }).name]
    : []

/**
 * Where a workflow's text came from, for the workflows it calls: its file, how a file is read,
 * and the calls that led to it (a cycle is refused).
 *
 * @since 0.7.0
 * @category models
 */
export interface Source {
  readonly file: string
  readonly read: (file: string) => Either.Either<string, string>
  /** The files of the calls that led here, the first workflow's first. */
  readonly calledFrom?: ReadonlyArray<string> | undefined
  /** The inputs its caller gives when it runs (not known at the check). */
  readonly givenByCaller?: ReadonlySet<string> | undefined
}

/** The check of a workflow that a task of the workflow at `source` calls. */
const calling = (source: Source, executor: Executor.Executor) =>
(relative: string, given: ReadonlySet<string>): Either.Either<CheckTree.Called, ReadonlyArray<ConnectorError.Issue>> => {
  const refused = (message: string) => Either.left([{ path: "", message }])
  if (NodePath.isAbsolute(relative)) return refused(`${relative}: a called workflow is named by its path relative to this workflow's file`)
  const file = NodePath.resolve(NodePath.dirname(source.file), relative)
  const chain = [...(source.calledFrom ?? []), source.file]
  if (chain.includes(file)) {
    return refused(`${relative}: a cycle of calls (${[...chain.slice(chain.indexOf(file)), file].map((f) => NodePath.basename(f)).join(" → ")})`)
  }
  if (chain.length > CheckTree.maxCallDepth) return refused(`${relative}: calls nest at most ${CheckTree.maxCallDepth} deep`)
  const text = source.read(file)
  if (Either.isLeft(text)) return refused(`${relative}: ${text.left}`)
  const checked = parse(text.right, new Map(), executor, { file, read: source.read, calledFrom: chain, givenByCaller: given })
  if (Either.isLeft(checked)) return Either.left(checked.left.map((issue) => ({ ...issue, path: `${relative}: ${issue.path}` })))
  if (checked.right.trigger !== undefined) return refused(`${relative}: a called workflow has no trigger (its caller's run is its start)`)
  const declared = JsonText.parse(text.right).pipe(Either.map((json) => Object.keys((json as Json).inputs ?? {})), Either.getOrElse(() => []))
  return Either.right({ file, workflow: checked.right, declared: new Set(declared) })
}

/**
 * Checks a workflow's text, with the inputs given on the command line: the workflow, or
 * every problem with its path. With its `source`, the workflows its tasks call are read and
 * checked too.
 *
 * @since 0.2.0
 * @category constructors
 */
export const parse = (
  text: string,
  given: ReadonlyMap<string, unknown>,
  executor: Executor.Executor,
  source?: Source
): Either.Either<Workflow, ReadonlyArray<ConnectorError.Issue>> => {
  const parsed = JsonText.parse(text)
  if (Either.isLeft(parsed)) return Either.left([parsed.left])
  const shape = checkShape(parsed.right)
  if (Either.isLeft(shape)) return Either.left(Property.issuesOf(shape.left))
  const json = parsed.right as Json
  const issues: Array<ConnectorError.Issue> = []
  const declared = new Map(Object.entries(json.inputs ?? {}))
  for (const name of declared.keys()) {
    if (reservedNames.has(name) && name !== "inputs" && name !== "trigger") {
      issues.push({ path: `inputs.${name}`, message: `"${name}" is reserved` })
    }
  }
  for (const name of given.keys()) {
    if (!declared.has(name)) issues.push({ path: `inputs.${name}`, message: `the workflow declares no input "${name}"` })
  }
  const inputs: Map<string, unknown> = new Map([...declared, ...given])
  // A called workflow's inputs its caller gives have their values when it runs.
  for (const name of source?.givenByCaller ?? []) inputs.delete(name)
  const triggers = json.triggers ?? []
  if (triggers.length > 1) issues.push({ path: "triggers", message: "at most one trigger" })
  const context: Checked.CheckContext = {
    executor,
    declared,
    inputs,
    issues,
    names: new Set<string>(),
    known: new Map<string, boolean>(),
    allNames: new Set([...triggers.flatMap(nameOf), ...CheckTree.namesIn(json.tasks), ...CheckTree.namesIn(json.onFailure ?? [])]),
    // The inputs are the declared ones (their values may be text given on the command line).
    variables: Expressions.withSchema(Expressions.none, "inputs", {
      type: "object",
      properties: Object.fromEntries([...declared.keys()].map((name) => [name, {}]))
    }),
    loopOf: new Map()
  }
  const call = source === undefined ? undefined : calling(source, executor)
  const trigger = triggers.map((value, i) => Checked.checkTrigger(context, value, `triggers[${i}]`))[0]
  if (triggers.length > 0) context.variables = Expressions.withSchema(context.variables, "trigger", triggerSchemaOf(trigger))
  const tasks = CheckTree.checkTasks({ context, loopDepth: 0, loop: undefined, call }, json.tasks, "tasks")
  // The failure path sees what the tasks may have left, and `failure`.
  const failing: Checked.CheckContext = {
    ...context,
    known: new Map([...context.known, ["failure", true]]),
    variables: Expressions.withSchema(context.variables, "failure", failureSchema)
  }
  const onFailure = CheckTree.checkTasks({ context: failing, loopDepth: 0, loop: undefined, call }, json.onFailure ?? [], "onFailure")
  if (issues.length > 0) return Either.left(issues)
  return Either.right({
    label: json.label,
    description: json.description,
    inputs,
    trigger,
    tasks,
    onFailure
  })
}

/**
 * The components a workflow uses.
 *
 * @since 0.2.0
 * @category utils
 */
export const componentsOf = (workflow: Workflow): ReadonlyArray<Component.Component> => [
  ...new Set([...(workflow.trigger === undefined ? [] : [workflow.trigger]), ...actionTasks(workflow)].map((checked) => checked.component))
]

/**
 * The connections a workflow uses: each component's default where a step or the trigger names
 * none, and each named connection, with where it is named (`tasks[1]`, `triggers[0]`).
 *
 * @since 0.8.0
 * @category utils
 */
export const connectionsOf = (workflow: Workflow): ReadonlyArray<ConnectionValues.Use> => {
  const uses = new Map<Component.Component, Map<string | undefined, { component: Component.Component; connection: string | undefined; at: Array<string> }>>()
  const steps = [
    ...(workflow.trigger === undefined ? [] : [{ checked: workflow.trigger, path: "triggers[0]" }]),
    ...actionTasks(workflow).map((checked) => ({ checked, path: checked.path }))
  ]
  for (const { checked, path } of steps) {
    const { connection } = checked.step
    const byName = uses.get(checked.component) ?? new Map()
    uses.set(checked.component, byName)
    const use = byName.get(connection) ?? { component: checked.component, connection, at: [] }
    byName.set(connection, use)
    if (connection !== undefined) use.at.push(path)
  }
  return [...uses.values()].flatMap((byName) => [...byName.values()])
}

/**
 * Every action task of the workflow, at any depth (in groups, loops and `onFailure`), in the file's order.
 *
 * @since 0.7.0
 * @category utils
 */
export const actionTasks = (workflow: Workflow): ReadonlyArray<CheckedAction> => CheckTree.actionsIn([...workflow.tasks, ...workflow.onFailure])

/**
 * One warning per deprecated action or trigger the workflow uses (each once, however many
 * steps use it): its step type, since when, what replaces it and why. What `run` prints on
 * stderr before its tasks, and `serve` once when it starts.
 *
 * @since 0.4.0
 * @category utils
 */
export const deprecations = (workflow: Workflow): ReadonlyArray<string> => {
  const used = new Map<string, Action.Deprecation>()
  const trigger = workflow.trigger
  if (trigger?.prepared.trigger.deprecated !== undefined) used.set(trigger.step.type, trigger.prepared.trigger.deprecated)
  for (const checked of actionTasks(workflow)) {
    if (checked.prepared.action.deprecated !== undefined) used.set(checked.step.type, checked.prepared.action.deprecated)
  }
  return [...used].map(([type, deprecation]) => `⚠ ${type} is ${Action.deprecationNote(deprecation)}`)
}

/**
 * Checks what can only be checked with the connections: each connection a step or the trigger
 * names must be there and be its component's, and a custom action's literal path must stay
 * below its connection's base URL (as it would be refused when its step runs, after the
 * earlier steps did their work).
 *
 * @since 0.2.0
 * @category utils
 */
export const checkWithConnections = (workflow: Workflow, connections: ConnectionValues.ConnectionValues): ReadonlyArray<ConnectorError.Issue> => [
  ...connectionsOf(workflow).flatMap((use) => {
    const problem = ConnectionValues.namedProblem(connections, use)
    return problem === undefined ? [] : (use.at ?? []).map((path) => ({ path: `${path}.connection`, message: problem }))
  }),
  ...actionTasks(workflow).flatMap((checked) => {
    // Decoded by the check, the parameters are values; else they are as written, and a path that
    // refers only to inputs is known now.
    const given = checked.parameters["path"]
    const path = checked.decoded !== undefined
      ? given
      : References.referencesIn(given).every((reference) => reference.root === "inputs")
      ? Either.getOrUndefined(References.resolve(given, new Map([["inputs", workflow.inputs]])))
      : undefined
    if (checked.prepared.action !== CustomAction.action || typeof path !== "string") return []
    const resolved = CustomAction.resolvePath(ConnectionValues.baseUrlOf(connections, checked.component, checked.step.connection), path)
    return Either.isLeft(resolved)
      ? resolved.left.issues.map((issue) => ({ path: `${checked.path}.parameters.${issue.path}`, message: issue.message }))
      : []
  })
]
