/**
 * Workflow files: `{label, description?, inputs?, triggers?: [step], tasks: [step]}`. Before
 * anything runs, the whole file is checked and every problem listed with its path: JSON
 * syntax (with line and column), nesting depth, the shape, unknown types and actions,
 * missing or mistyped parameters, references to unknown or later steps, duplicate or
 * reserved step names. The checked workflow keeps what the check resolved (each step's
 * component and definition), so nothing is looked up by name again.
 *
 * @since 0.2.0
 */
import type { Action, Component, ConnectorError, Executor, Trigger } from "@x/core"
import { CustomAction, Property, type Step } from "@x/core"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as ConnectionValues from "./ConnectionValues.js"
import { checkStep, reservedNames } from "./internal/checkStep.js"
import * as JsonText from "./JsonText.js"
import * as References from "./References.js"

/**
 * A step that passed the check: the step as written, with its component and its action's
 * or trigger's definition, and its parameters with the inputs put in. An action's step is
 * `prepared` by the executor (for a trigger, `prepared` is not used).
 *
 * @since 0.2.0
 * @category models
 */
export interface CheckedStep<D = Action.Action | Trigger.Trigger> {
  readonly prepared: Executor.Prepared
  readonly step: Step.Step
  readonly component: Component.Component
  readonly definition: D
  readonly parameters: Readonly<Record<string, unknown>>
}

/**
 * A checked workflow.
 *
 * @since 0.2.0
 * @category models
 */
export interface Workflow {
  readonly label: string
  readonly description?: string | undefined
  /** The declared inputs with the given ones over them. */
  readonly inputs: ReadonlyMap<string, unknown>
  readonly trigger: CheckedStep<Trigger.Trigger> | undefined
  readonly tasks: ReadonlyArray<CheckedStep<Action.Action>>
}

// The shape is checked with Schema; the values are then taken from the JSON as written (a
// decoded Record would not keep a key such as "__proto__" as the user's).
const Shape = Schema.Struct({
  label: Schema.String,
  description: Schema.optional(Schema.String),
  inputs: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  triggers: Schema.optional(Schema.Array(Schema.Unknown)),
  tasks: Schema.Array(Schema.Unknown).pipe(Schema.minItems(1, { message: () => "must have at least one step" }))
})
const checkShape = Schema.decodeUnknownEither(Shape, { errors: "all", onExcessProperty: "error" })

interface Json {
  readonly label: string
  readonly description?: string
  readonly inputs?: Readonly<Record<string, unknown>>
  readonly triggers?: ReadonlyArray<unknown>
  readonly tasks: ReadonlyArray<unknown>
}

const nameOf = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"
    ? [(value as { name: string }).name]
    : []

/**
 * Checks a workflow's text, with the inputs given on the command line: the workflow, or
 * every problem with its path.
 *
 * @since 0.2.0
 * @category constructors
 */
export const parse = (
  text: string,
  given: ReadonlyMap<string, string>,
  executor: Executor.Executor
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
  const triggers = json.triggers ?? []
  if (triggers.length > 1) issues.push({ path: "triggers", message: "at most one trigger" })
  const context = {
    executor,
    declared,
    inputs,
    issues,
    names: new Set<string>(),
    known: new Map<string, boolean>(),
    allNames: new Set([...triggers, ...json.tasks].flatMap(nameOf))
  }
  const trigger = triggers.map((value, i) => checkStep(context, "trigger", value, `triggers[${i}]`))[0]
  const tasks = json.tasks.map((value, i) => checkStep(context, "action", value, `tasks[${i}]`))
  if (issues.length > 0) return Either.left(issues)
  return Either.right({
    label: json.label,
    description: json.description,
    inputs,
    trigger: trigger as CheckedStep<Trigger.Trigger> | undefined,
    tasks: tasks as Array<CheckedStep<Action.Action>>
  })
}

/**
 * The components a workflow uses.
 *
 * @since 0.2.0
 * @category utils
 */
export const componentsOf = (workflow: Workflow): ReadonlyArray<Component.Component> => [
  ...new Set([...(workflow.trigger === undefined ? [] : [workflow.trigger]), ...workflow.tasks].map((checked) => checked.component))
]

/**
 * Checks what can only be checked with the connections: a custom action's literal path must
 * stay below its connection's base URL (as it would be refused when its step runs, after
 * the earlier steps did their work).
 *
 * @since 0.2.0
 * @category utils
 */
export const checkWithConnections = (workflow: Workflow, connections: ConnectionValues.ConnectionValues): ReadonlyArray<ConnectorError.Issue> =>
  workflow.tasks.flatMap((checked, i) => {
    const path = checked.parameters["path"]
    if (checked.definition !== CustomAction.action || typeof path !== "string" || References.hasReference(path)) return []
    const resolved = CustomAction.resolvePath(ConnectionValues.baseUrlOf(connections, checked.component), path)
    return Either.isLeft(resolved)
      ? resolved.left.issues.map((issue) => ({ path: `tasks[${i}].parameters.${issue.path}`, message: issue.message }))
      : []
  })

/**
 * The step as the executor takes it, with these parameters.
 *
 * @since 0.2.0
 * @category utils
 */
export const withParameters = (checked: CheckedStep, parameters: unknown): Step.Step => ({
  ...checked.step,
  parameters: parameters as Record<string, unknown>
})
