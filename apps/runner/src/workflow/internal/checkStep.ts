/**
 * The check of one step of a workflow: its name, its type, the references in its
 * parameters, and its parameters as far as they are known before it runs.
 *
 * @internal
 */
import type { Component, ConnectorError, Executor } from "@x/core"
import { Step } from "@x/core"
import * as Either from "effect/Either"
import * as References from "../References.js"
import * as Expressions from "./expressions.js"

/**
 * A step that passed the check: as written, its component, its parameters with the inputs put
 * in. A task's parameters that refer to earlier steps are kept as written instead, all of them:
 * they are resolved in one pass when it runs (the inputs too), so that a value put in (an
 * input's, a step's output) is never read again as a `${…}` reference.
 */
export interface CheckedStep {
  readonly step: Step.Step
  readonly component: Component.Component
  readonly parameters: Readonly<Record<string, unknown>>
}

/** A task that passed the check: resolved once; decoded once too when no parameter waits for a step's output. */
export interface CheckedTask extends CheckedStep {
  readonly prepared: Executor.Prepared
  /** The parameters decoded by the check, when all of them were known then: the run uses them as they are. */
  readonly decoded: Executor.Decoded | undefined
  /** The `${= …}` values of its parameters, compiled, by their expression's text. */
  readonly expressions: ReadonlyMap<string, Expressions.Compiled>
}

/** A trigger that passed the check: resolved and decoded once (its parameters only refer to inputs). */
export interface CheckedTrigger extends CheckedStep {
  readonly prepared: Executor.PreparedTrigger
}

/**
 * Names no step may have: `inputs` and `trigger` are roots of references, the others would
 * reach into the prototype of a JavaScript object.
 */
export const reservedNames: ReadonlySet<string> = new Set(["inputs", "trigger", "failure", "__proto__", "constructor", "prototype"])

export interface CheckContext {
  readonly executor: Executor.Executor
  readonly declared: ReadonlyMap<string, unknown>
  readonly inputs: ReadonlyMap<string, unknown>
  readonly issues: Array<ConnectorError.Issue>
  /** The names of the steps checked so far. */
  readonly names: Set<string>
  /** The steps (and `trigger`) that later ones may refer to, and whether each has an output. */
  readonly known: Map<string, boolean>
  readonly allNames: ReadonlySet<string>
  /** What an expression may name here (a loop's tasks check against their own copy). */
  variables: Expressions.Variables
  /** The loop each task inside a loop belongs to (a reference from outside it is told so). */
  readonly loopOf: Map<string, string>
}

/** The `${= …}` values in a parameter value, at any depth. */
const expressionsIn = (value: unknown): ReadonlyArray<string> => {
  const source = Expressions.valueExpression(value)
  if (source !== undefined) return [source]
  if (Array.isArray(value)) return value.flatMap(expressionsIn)
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(expressionsIn)
  return []
}

/** The value without its `${= …}` values (what is left holds `${…}` references only). */
const withoutExpressions = (value: unknown): unknown => {
  if (Expressions.valueExpression(value) !== undefined) return null
  if (Array.isArray(value)) return value.map(withoutExpressions)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutExpressions(v)]))
  }
  return value
}

/** Compiles an expression against what is known here; its problem is added under `path`. */
export const compileAt = (context: CheckContext, source: string, path: string): Expressions.Compiled | undefined => {
  // A task's name that is not visible here is told as a `${…}` reference to it is.
  const explain = (name: string): string | undefined => {
    const loop = context.loopOf.get(name)
    if (loop !== undefined && context.names.has(name)) return `"${name}" is inside the loop "${loop}": it is visible only there`
    if (context.allNames.has(name) && !context.names.has(name)) return `"${name}" is not an earlier task: a task sees only the tasks before it`
    return undefined
  }
  const compiled = Expressions.compile(source, context.variables, explain)
  if (Either.isLeft(compiled)) {
    context.issues.push({ path, message: compiled.left })
    return undefined
  }
  return compiled.right
}

/** `${inputs.x}` references resolved; a value that refers to anything else is left as it is. */
const withInputs = (value: unknown, inputs: ReadonlyMap<string, unknown>): unknown => {
  if (typeof value === "string") {
    const references = References.referencesIn(value)
    if (references.length === 0 || references.some((r) => r.root !== "inputs")) return value
    return Either.getOrElse(References.resolve(value, new Map([["inputs", inputs]])), () => value)
  }
  if (Array.isArray(value)) return value.map((v) => withInputs(v, inputs))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withInputs(v, inputs)]))
  }
  return value
}

const checkReferences = (context: CheckContext, key: string, value: unknown, path: string, where = "parameters") => {
  for (const reference of References.referencesIn(value)) {
    const at = `${path}.${where}.${key}`
    if (reference.root === "inputs") {
      if (reference.path[0] === undefined || !context.declared.has(reference.path[0])) {
        context.issues.push({ path: at, message: `\${${reference.text}}: no input "${reference.path[0]}" is declared` })
      }
    } else if (!context.known.has(reference.root)) {
      const loop = context.loopOf.get(reference.root)
      const exists = context.names.has(reference.root) || context.allNames.has(reference.root)
      context.issues.push({
        path: at,
        message: loop !== undefined && context.names.has(reference.root)
          ? `\${${reference.text}}: "${reference.root}" is inside the loop "${loop}": it is visible only there`
          : `\${${reference.text}}: "${reference.root}" is not ${exists ? "an earlier step" : "a step"}`
      })
    } else if (context.known.get(reference.root) === false) {
      context.issues.push({ path: at, message: `\${${reference.text}}: "${reference.root}" has no output` })
    }
  }
}

/** Adds an input error's issues under this path. */
const report = (
  context: CheckContext,
  path: string,
  error: { readonly issues: ReadonlyArray<ConnectorError.Issue> },
  skip: ReadonlySet<string> = new Set()
) => {
  const reported = new Set<string>()
  for (const issue of error.issues) {
    const key = issue.path.split(/[.[]/)[0]!
    if (skip.has(key)) continue
    reported.add(key)
    context.issues.push({ path: `${path}${issue.path === "" ? "" : `.${issue.path}`}`, message: issue.message })
  }
  return reported
}

/**
 * A parameter's problems, saying which inputs its value came from (an input given on the
 * command line is named by the problem, e.g. `--input name=` refused as empty).
 */
const fromInputs = (error: { readonly issues: ReadonlyArray<ConnectorError.Issue> }, written: Readonly<Record<string, unknown>>) => ({
  issues: error.issues.map((issue) => {
    const key = issue.path.split(/[.[]/)[0]!
    const inputs = Object.hasOwn(written, key)
      ? [...new Set(References.referencesIn(written[key]).filter((r) => r.root === "inputs" && r.path[0] !== undefined).map((r) => r.path[0]!))]
      : []
    return inputs.length === 0
      ? issue
      : { ...issue, message: `${issue.message} (its value comes from ${inputs.map((name) => `input "${name}"`).join(", ")})` }
  })
})

/**
 * Checks values that keep `${…}` references and `${= …}` expressions (a step's parameters, a
 * call's inputs) against what is known here; the expressions compiled, by their source.
 */
export const checkValues = (
  context: CheckContext,
  values: Readonly<Record<string, unknown>>,
  path: string,
  where: string
): ReadonlyMap<string, Expressions.Compiled> => {
  for (const [key, v] of Object.entries(values)) checkReferences(context, key, withoutExpressions(v), path, where)
  const expressions = new Map<string, Expressions.Compiled>()
  for (const [key, v] of Object.entries(values)) {
    for (const source of expressionsIn(v)) {
      const compiled = compileAt(context, source, `${path}.${where}.${key}`)
      if (compiled !== undefined) expressions.set(source, compiled)
    }
  }
  return expressions
}

/** The step's shape, its name, and the references in its parameters; the parameters with the inputs put in. */
const checkCommon = (context: CheckContext, value: unknown, path: string) => {
  const step = Step.decode(value)
  if (Either.isLeft(step)) {
    report(context, path, step.left)
    return undefined
  }
  const { name, parameters } = step.right
  if (context.names.has(name) || reservedNames.has(name)) {
    context.issues.push({ path: `${path}.name`, message: `"${name}" is ${context.names.has(name) ? "the name of an earlier step" : "reserved"}` })
  }
  context.names.add(name)
  const expressions = checkValues(context, parameters, path, "parameters")
  // Inputs are known now, so they are put in; a parameter that refers to a step's output (or
  // the trigger's) is checked when it runs. Which is which is read from the file as written: an
  // input's value is a value, even one that looks like `${…}`.
  const known = withInputs(parameters, context.inputs) as Record<string, unknown>
  // (An input that is not declared is reported above: the parameter is not decoded either.)
  const dynamic = new Set(Object.keys(parameters).filter((k) =>
    expressionsIn(parameters[k]).length > 0 ||
    References.referencesIn(parameters[k]).some((r) =>
      // An input with no value yet (a called workflow's, given by its caller) is known when it runs.
      r.root !== "inputs" || r.path[0] === undefined || !context.declared.has(r.path[0]) || !context.inputs.has(r.path[0])
    )
  ))
  return { step: step.right, known, dynamic, written: parameters, expressions }
}

/** Checks one task, adding its problems to the context's; the checked task, when its type resolved. */
export const checkTask = (context: CheckContext, value: unknown, path: string): CheckedTask | undefined => {
  const common = checkCommon(context, value, path)
  if (common === undefined) return undefined
  const { dynamic, known, step } = common
  // Resolved here, once (the type parsed by core's one parser): the run uses what the check found.
  const resolved = context.executor.registry.action(step.type)
  if (Either.isLeft(resolved)) {
    report(context, path, resolved.left) // its issues' path is "type"
    return undefined
  }
  const prepared: Executor.Prepared = { step, component: resolved.right.component, action: resolved.right.definition }
  const literal = Object.fromEntries(Object.entries(known).filter(([k]) => !dynamic.has(k)))
  const decoded = context.executor.decodeParameters(prepared, literal)
  const reported = Either.isLeft(decoded) ? report(context, `${path}.parameters`, fromInputs(decoded.left, common.written), dynamic) : new Set<string>()
  // A key that is not a property is the user's mistake, whatever its name ("__proto__" too).
  for (const key of Object.keys(known)) {
    if (!Object.hasOwn(prepared.action.props, key) && !reported.has(key)) {
      context.issues.push({ path: `${path}.parameters.${key}`, message: "is not a known parameter" })
    }
  }
  context.known.set(step.name, prepared.action.output !== undefined)
  return {
    step,
    component: prepared.component,
    parameters: dynamic.size === 0 ? known : common.written,
    prepared,
    decoded: dynamic.size === 0 && Either.isRight(decoded) ? decoded.right : undefined,
    expressions: common.expressions
  }
}

/** Checks the trigger, adding its problems to the context's; the checked trigger, when it resolved and decoded. */
export const checkTrigger = (context: CheckContext, value: unknown, path: string): CheckedTrigger | undefined => {
  const common = checkCommon(context, value, path)
  if (common === undefined) return undefined
  const { known, step } = common
  context.known.set("trigger", true)
  // A reference other than to an input is already reported: nothing to decode.
  if (common.dynamic.size > 0) return undefined
  const prepared = context.executor.prepareTrigger({ ...step, parameters: known })
  if (Either.isRight(prepared)) return { step, component: prepared.right.component, parameters: known, prepared: prepared.right }
  const type = prepared.left.issues.filter((issue) => issue.path === "type")
  if (type.length > 0) {
    report(context, path, { issues: type })
    return undefined
  }
  const reported = report(context, `${path}.parameters`, fromInputs(prepared.left, common.written))
  const props = context.executor.registry.trigger(step.type)
  for (const key of Object.keys(known)) {
    if (Either.isRight(props) && !Object.hasOwn(props.right.definition.props, key) && !reported.has(key)) {
      context.issues.push({ path: `${path}.parameters.${key}`, message: "is not a known parameter" })
    }
  }
  return undefined
}
