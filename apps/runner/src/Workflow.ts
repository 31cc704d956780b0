/**
 * Workflow files: `{label, description?, inputs?, triggers?: [step], tasks: [step]}`. Before
 * anything runs, the whole file is checked and every problem listed with its path: JSON
 * syntax (with line and column), the shape, unknown types and actions, missing or mistyped
 * parameters, references to unknown or later steps, duplicate step names.
 */
import { ConnectorError, Property, Step } from "@x/core"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { registry } from "./components.js"
import { errorPosition } from "./JsonPosition.js"
import * as References from "./References.js"

/** `${inputs.x}` references resolved; other references left as they are. */
const resolveInputs = (value: unknown, inputs: Readonly<Record<string, unknown>>): unknown => {
  if (typeof value === "string") {
    const references = References.referencesIn(value)
    if (references.length === 0 || references.some((r) => r.root !== "inputs")) return value
    return References.resolve(value, { inputs })
  }
  if (Array.isArray(value)) return value.map((v) => resolveInputs(v, inputs))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveInputs(v, inputs)]))
  }
  return value
}

export interface Workflow {
  readonly label: string
  readonly description?: string | undefined
  readonly inputs: Readonly<Record<string, unknown>>
  readonly triggers: ReadonlyArray<Step.Step>
  readonly tasks: ReadonlyArray<Step.Step>
}

const Shape = Schema.Struct({
  label: Schema.String,
  description: Schema.optional(Schema.String),
  inputs: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  triggers: Schema.optional(Schema.Array(Schema.Unknown)),
  tasks: Schema.Array(Schema.Unknown).pipe(Schema.minItems(1, { message: () => "must have at least one step" }))
})
const decodeShape = Schema.decodeUnknownEither(Shape, { errors: "all", onExcessProperty: "error" })

/** A JSON syntax error, with its line and column. */
const syntaxIssue = (text: string, error: unknown): ConnectorError.Issue => {
  // V8's message, without the excerpt of the text it may append.
  const reason = (error instanceof Error ? error.message : String(error)).split(", ...")[0]!.split("\n")[0]!
    .replace(/ in JSON at position \d+.*$/, "")
  const position = errorPosition(text)
  if (position < 0) return { path: "", message: `not valid JSON: ${reason}` }
  const before = text.slice(0, position)
  const line = before.split("\n").length
  const column = before.length - before.lastIndexOf("\n")
  return { path: "", message: `not valid JSON at line ${line}, column ${column}: ${reason}` }
}

/**
 * Checks a workflow's text (with the inputs given on the command line); every problem, with
 * its path, or the workflow.
 */
export const parse = (
  text: string,
  givenInputs: Readonly<Record<string, unknown>> = {}
): Either.Either<Workflow, ReadonlyArray<ConnectorError.Issue>> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return Either.left([syntaxIssue(text, error)])
  }
  const shape = decodeShape(json)
  if (Either.isLeft(shape)) return Either.left(Property.issuesOf(shape.left))
  const issues: Array<ConnectorError.Issue> = []
  const inputs = shape.right.inputs ?? {}
  for (const key of Object.keys(givenInputs)) {
    if (!Object.hasOwn(inputs, key)) issues.push({ path: `inputs.${key}`, message: `the workflow declares no input "${key}"` })
  }
  const inputValues: Record<string, unknown> = { ...inputs, ...givenInputs }
  // Which steps have an output, for references into them.
  const withOutput = new Map<string, boolean>()
  const names = new Set<string>()
  const known = new Set<string>(["inputs"])
  const check = (kind: "trigger" | "action", value: unknown, path: string): Step.Step | undefined => {
    const step = Step.decode(value)
    if (Either.isLeft(step)) {
      for (const issue of step.left.issues) issues.push({ path: `${path}.${issue.path}`, message: issue.message })
      return undefined
    }
    const { name, parameters, type } = step.right
    if (names.has(name) || name === "inputs" || name === "trigger") {
      issues.push({ path: `${path}.name`, message: `"${name}" is ${names.has(name) ? "the name of an earlier step" : "reserved"}` })
    }
    names.add(name)
    const resolved: Either.Either<
      { readonly definition: { readonly decode: (params: unknown) => Either.Either<unknown, ConnectorError.InvalidInput> } },
      ConnectorError.InvalidInput
    > = kind === "action" ? registry.action(type) : registry.trigger(type)
    if (Either.isLeft(resolved)) {
      for (const issue of resolved.left.issues) issues.push({ path: `${path}.type`, message: issue.message })
      return step.right
    }
    // References: to inputs, the trigger, or steps before this one.
    for (const [key, value] of Object.entries(parameters)) {
      for (const reference of References.referencesIn(value)) {
        if (reference.root === "inputs") {
          if (reference.path[0] === undefined || !Object.hasOwn(inputs, reference.path[0])) {
            issues.push({ path: `${path}.parameters.${key}`, message: `\${${reference.text}}: no input "${reference.path[0]}" is declared` })
          }
        } else if (!known.has(reference.root)) {
          issues.push({
            path: `${path}.parameters.${key}`,
            message: `\${${reference.text}}: "${reference.root}" is not ${names.has(reference.root) || laterNames.has(reference.root) ? "an earlier step" : "a step"}`
          })
        } else if (withOutput.get(reference.root) === false) {
          issues.push({ path: `${path}.parameters.${key}`, message: `\${${reference.text}}: "${reference.root}" has no output` })
        }
      }
    }
    // Parameters: inputs are known now, so they are put in; a parameter that still holds a
    // reference to a step's output is checked when it runs.
    let withInputs: Record<string, unknown> = parameters
    try {
      withInputs = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, resolveInputs(v, inputValues)]))
    } catch {
      // An unknown input: reported above.
    }
    const literal = Object.fromEntries(Object.entries(withInputs).filter(([, v]) => !References.hasReference(v)))
    const dynamic = new Set(Object.keys(withInputs).filter((k) => References.hasReference(withInputs[k])))
    const decoded = resolved.right.definition.decode(literal)
    if (Either.isLeft(decoded)) {
      for (const issue of decoded.left.issues) {
        if (dynamic.has(issue.path.split(/[.[]/)[0]!)) continue
        issues.push({ path: `${path}.parameters${issue.path === "" ? "" : `.${issue.path}`}`, message: issue.message })
      }
    }
    known.add(kind === "trigger" ? "trigger" : name)
    withOutput.set(kind === "trigger" ? "trigger" : name, (resolved.right.definition as { output?: unknown }).output !== undefined)
    return step.right
  }
  const rawTriggers = shape.right.triggers ?? []
  const laterNames = new Set(
    [...rawTriggers, ...shape.right.tasks].flatMap((s) =>
      typeof s === "object" && s !== null && typeof (s as { name?: unknown }).name === "string" ? [(s as { name: string }).name] : []
    )
  )
  if (rawTriggers.length > 1) issues.push({ path: "triggers", message: "at most one trigger" })
  const triggers = rawTriggers.map((s, i) => check("trigger", s, `triggers[${i}]`))
  const tasks = shape.right.tasks.map((s, i) => check("action", s, `tasks[${i}]`))
  if (issues.length > 0) return Either.left(issues)
  return Either.right({
    label: shape.right.label,
    description: shape.right.description,
    inputs,
    triggers: triggers as Array<Step.Step>,
    tasks: tasks as Array<Step.Step>
  })
}

/** The components a workflow uses. */
export const componentsOf = (workflow: Workflow): ReadonlyArray<string> =>
  [...new Set([...workflow.triggers, ...workflow.tasks].map((s) => s.type.split("/")[0]!))]
