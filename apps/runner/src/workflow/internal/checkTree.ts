/**
 * The check of a workflow's task tree: each task's kind (told by its keys), its shape, its
 * options (`if`, `retry`, `timeout`, `continueOnError`), its durations and expressions compiled
 * against what is visible at its place, loops nested at most `maxLoopDepth` deep. Every problem
 * is added to the context's with its path (`tasks[2].tasks[0].if`).
 *
 * @internal
 */
import { ConnectorError, Property, Step } from "@x/core"
import * as JSONSchema from "effect/JSONSchema"
import type * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import type { ParseError } from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Checked from "./checkStep.js"
import * as Expressions from "./expressions.js"

/** Loops nest at most this deep. */
export const maxLoopDepth = 3

/** What `retry` retries when its `on` is not given: the errors that may pass. */
export const transientTags: ReadonlyArray<string> = ["RateLimited", "UpstreamUnavailable", "Timeout"]

/** A task's retry, as checked. */
export interface Retry {
  readonly attempts: number
  readonly delay: Duration.Duration
  readonly backoff: "exponential" | "fixed"
  readonly on: ReadonlySet<string>
}

/** What every kind of task has. */
interface Common {
  readonly name: string
  readonly label: string
  /** Where it is in the file: `tasks[2].tasks[0]`. */
  readonly path: string
  readonly condition: Expressions.Compiled | undefined
}

/** An action task: a step run by the executor, with its options. */
export interface CheckedAction extends Common, Checked.CheckedTask {
  readonly kind: "action"
  readonly retry: Retry | undefined
  readonly timeout: Duration.Duration | undefined
  readonly continueOnError: boolean
}

/** A group: its tasks in order. */
export interface CheckedGroup extends Common {
  readonly kind: "group"
  readonly tasks: ReadonlyArray<CheckedTask>
  readonly timeout: Duration.Duration | undefined
  readonly continueOnError: boolean
}

/** A loop: its tasks once per item of `forEach`, the item named `as`, at most `concurrency` at once. */
export interface CheckedLoop extends Common {
  readonly kind: "loop"
  readonly forEach: Expressions.Compiled
  readonly as: string
  readonly concurrency: number
  readonly tasks: ReadonlyArray<CheckedTask>
  readonly timeout: Duration.Duration | undefined
  readonly continueOnError: boolean
}

/** A wait: for a duration, or until a time. */
export interface CheckedWait extends Common {
  readonly kind: "wait"
  readonly wait: { readonly delay: Duration.Duration } | { readonly until: Expressions.Compiled }
}

/** A workflow that passed the check (`Workflow.Workflow`). */
export interface CheckedWorkflow {
  readonly label: string
  readonly description?: string | undefined
  /** The declared inputs with the given ones over them. */
  readonly inputs: ReadonlyMap<string, unknown>
  readonly trigger: Checked.CheckedTrigger | undefined
  readonly tasks: ReadonlyArray<CheckedTask>
  /** The tasks that run, once, when the run fails (with `failure`); none when not given. */
  readonly onFailure: ReadonlyArray<CheckedTask>
}

/** A called workflow, as its check found it. */
export interface Called {
  /** Its file, resolved. */
  readonly file: string
  readonly workflow: CheckedWorkflow
  /** The inputs it declares. */
  readonly declared: ReadonlySet<string>
}

/**
 * Reads and checks a workflow a task calls (`workflow`: a path relative to this file), the
 * inputs the call gives known only when it runs.
 */
export type Call = (path: string, given: ReadonlySet<string>) => Either.Either<Called, ReadonlyArray<ConnectorError.Issue>>

/** A call: another workflow's tasks, with the inputs it is given (values as a step's parameters are). */
export interface CheckedCall extends Common {
  readonly kind: "call"
  /** Its file as written, relative to the calling one. */
  readonly file: string
  readonly workflow: CheckedWorkflow
  /** The inputs given, as written (`${…}` references, `${= …}` values). */
  readonly inputs: Readonly<Record<string, unknown>>
  readonly expressions: ReadonlyMap<string, Expressions.Compiled>
  readonly timeout: Duration.Duration | undefined
  readonly continueOnError: boolean
}

/** A task that passed the check, by kind. */
export type CheckedTask = CheckedAction | CheckedGroup | CheckedLoop | CheckedWait | CheckedCall

/** Calls nest at most this deep (a cycle is refused whatever its depth). */
export const maxCallDepth = 5

const name = Step.Step.fields.name
const label = Schema.String
const optionalText = Schema.optional(Schema.String)
const tasks = Schema.Array(Schema.Unknown).pipe(Schema.minItems(1, { message: () => "must have at least one task" }))

const Retry = Schema.Struct({
  attempts: Schema.Int.pipe(Schema.between(2, 20, { message: () => "must be a whole number from 2 to 20 (the attempts in all, the first included)" })),
  delay: optionalText,
  backoff: Schema.optional(Schema.Literal("exponential", "fixed")),
  on: Schema.optional(Schema.Array(Schema.String.pipe(Schema.filter((tag) => (ConnectorError.tags as ReadonlyArray<string>).includes(tag), {
    message: () => `must be a connector error's tag: ${ConnectorError.tags.join(", ")}`
  }))))
})
// Each option is decoded alone, so that one wrong option does not hide the others' problems.
const ActionOptions = {
  if: Schema.Struct({ if: optionalText }),
  retry: Schema.Struct({ retry: Schema.optional(Retry) }),
  timeout: Schema.Struct({ timeout: optionalText }),
  continueOnError: Schema.Struct({ continueOnError: Schema.optional(Schema.Boolean) })
}
// A group's and a loop's options are decoded alone too (`Schema.Unknown` here), so that a
// wrong one does not keep their tasks from being checked.
const Group = Schema.Struct({
  label,
  name,
  tasks,
  if: optionalText,
  timeout: Schema.optional(Schema.Unknown),
  continueOnError: Schema.optional(Schema.Unknown)
})
const Loop = Schema.Struct({
  label,
  name,
  forEach: Schema.String,
  as: name,
  concurrency: Schema.optional(Schema.Unknown),
  tasks,
  if: optionalText,
  timeout: Schema.optional(Schema.Unknown),
  continueOnError: Schema.optional(Schema.Unknown)
})
const Concurrency = Schema.Struct({
  concurrency: Schema.optional(Schema.Int.pipe(Schema.between(1, 64, { message: () => "must be a whole number from 1 to 64" })))
})
const Call = Schema.Struct({
  label,
  name,
  workflow: Schema.String,
  inputs: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  if: optionalText,
  timeout: Schema.optional(Schema.Unknown),
  continueOnError: Schema.optional(Schema.Unknown)
})
const Delay = Schema.Struct({ label, name, delay: Schema.String, if: optionalText })
const Until = Schema.Struct({ label, name, until: Schema.String, if: optionalText })

const decode = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
const decodeIf = decode(ActionOptions.if)
const decodeRetry = decode(ActionOptions.retry)
const decodeTimeout = decode(ActionOptions.timeout)
const decodeContinueOnError = decode(ActionOptions.continueOnError)
const decodeConcurrency = decode(Concurrency)
const decodeGroup = decode(Group)
const decodeLoop = decode(Loop)
const decodeCall = decode(Call)
const decodeDelay = decode(Delay)
const decodeUntil = decode(Until)

type Kind = "action" | "group" | "loop" | "wait" | "call"

/** The kind a task's keys tell, or why they tell none. */
const kindOf = (value: Record<string, unknown>): Either.Either<Kind, string> => {
  const kinds: Array<Kind> = []
  if ("type" in value) kinds.push("action")
  if ("forEach" in value) kinds.push("loop")
  else if ("tasks" in value) kinds.push("group")
  if ("delay" in value || "until" in value) kinds.push("wait")
  if ("workflow" in value) kinds.push("call")
  // With none of the keys, it is read as an action (the common kind): its problems are an action's.
  if (kinds.length <= 1) return Either.right(kinds[0] ?? "action")
  return Either.left(`is one kind of task only: it has the keys of ${kinds.map((kind) => `a${kind === "action" ? "n" : ""} ${kind}`).join(" and ")}`)
}

/** Where tasks are checked: the context, and how deep in loops. */
export interface Place {
  readonly context: Checked.CheckContext
  readonly loopDepth: number
  /** The loop the tasks are in (its name), if any. */
  readonly loop: string | undefined
  /** How a called workflow is read and checked; absent where there is no file to be relative to. */
  readonly call: Call | undefined
}

const issuesOf = (place: Place, path: string, error: Parameters<typeof Property.issuesOf>[0]) => {
  const issues = Property.issuesOf(error)
  // An optional key's value that is wrong is said once, by what it should be (not also as "Expected undefined").
  const said = issues.filter((issue) => !issue.message.startsWith("Expected undefined")).map((issue) => issue.path)
  for (const issue of issues) {
    if (issue.message.startsWith("Expected undefined") && said.some((other) => other === issue.path || other.startsWith(`${issue.path}.`) || other.startsWith(`${issue.path}[`))) continue
    place.context.issues.push({ path: issue.path === "" ? path : `${path}.${issue.path}`, message: issue.message })
  }
}

/** A decoded option, or `undefined` with its problems added. */
const optionAt = <A>(place: Place, path: string, decoded: Either.Either<A, ParseError>): A | undefined => {
  if (Either.isRight(decoded)) return decoded.right
  issuesOf(place, path, decoded.left)
  return undefined
}

const durationAt = (place: Place, text: string | undefined, path: string): Duration.Duration | undefined => {
  if (text === undefined) return undefined
  const parsed = Expressions.duration(text)
  if (Either.isLeft(parsed)) {
    place.context.issues.push({ path, message: parsed.left })
    return undefined
  }
  return parsed.right
}

const conditionAt = (place: Place, source: string | undefined, path: string): Expressions.Compiled | undefined => {
  if (source === undefined) return undefined
  const compiled = Checked.compileAt(place.context, source, path)
  if (compiled !== undefined && !Expressions.isBoolean(compiled.type)) {
    place.context.issues.push({ path, message: `must give a bool (true or false), not ${String(compiled.type)}` })
  }
  return compiled
}

/** The JSON Schema of an action's output, when it has one the runner can write. */
const outputSchemaOf = (task: CheckedAction): unknown => {
  const output = task.prepared.action.output
  if (output === undefined) return undefined
  try {
    return JSONSchema.make(output)
  } catch {
    return undefined
  }
}

/** The JSON Schema of a task's output as later tasks see it (`undefined`: any). */
const schemaOf = (task: CheckedTask): unknown => {
  // A task that may end failed and go on is read as its output or its error.
  if (task.kind !== "wait" && task.continueOnError) return undefined
  switch (task.kind) {
    case "action":
      return outputSchemaOf(task)
    case "group":
      return { type: "object", properties: Object.fromEntries(task.tasks.map((inner) => [inner.name, schemaOf(inner) ?? {}])) }
    case "loop":
      return {
        type: "array",
        items: { type: "object", properties: Object.fromEntries(task.tasks.map((inner) => [inner.name, schemaOf(inner) ?? {}])) }
      }
    case "wait":
      return { type: "object", properties: { until: { type: "string" } }, required: ["until"] }
    case "call":
      return { type: "object", properties: Object.fromEntries(task.workflow.tasks.map((inner) => [inner.name, schemaOf(inner) ?? {}])) }
  }
}

/** After a task: later tasks may name it (its output, as far as its schema says). */
const makeVisible = (place: Place, task: CheckedTask) => {
  const { context } = place
  context.known.set(task.name, task.kind === "action" ? task.prepared.action.output !== undefined || task.continueOnError : true)
  context.variables = Expressions.withSchema(context.variables, task.name, schemaOf(task))
  if (place.loop !== undefined) context.loopOf.set(task.name, place.loop)
}

const claimName = (place: Place, taskName: string, path: string) => {
  const { context } = place
  if (context.names.has(taskName) || Checked.reservedNames.has(taskName)) {
    context.issues.push({ path, message: `"${taskName}" is ${context.names.has(taskName) ? "the name of an earlier task" : "reserved"}` })
  }
  context.names.add(taskName)
}

/** Checks the tasks of one list, in order (each visible to the ones after it, as `makeVisible` says). */
export const checkTasks = (place: Place, values: ReadonlyArray<unknown>, path: string): ReadonlyArray<CheckedTask> =>
  values.flatMap((value, i) => {
    const checked = checkOne(place, value, `${path}[${i}]`)
    return checked === undefined ? [] : [checked]
  })

const checkOne = (place: Place, value: unknown, path: string): CheckedTask | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    place.context.issues.push({ path, message: "must be an object (a task)" })
    return undefined
  }
  const record = value as Record<string, unknown>
  const kind = kindOf(record)
  if (Either.isLeft(kind)) {
    place.context.issues.push({ path, message: kind.left })
    return undefined
  }
  const checked = kind.right === "action"
    ? checkAction(place, record, path)
    : kind.right === "group"
    ? checkGroup(place, record, path)
    : kind.right === "loop"
    ? checkLoop(place, record, path)
    : kind.right === "call"
    ? checkCall(place, record, path)
    : checkWait(place, record, path)
  if (checked !== undefined) makeVisible(place, checked)
  return checked
}

const checkAction = (place: Place, record: Record<string, unknown>, path: string): CheckedAction | undefined => {
  const { continueOnError, if: condition, retry, timeout, ...step } = record
  const option = <A>(decoded: Either.Either<A, ParseError>) => optionAt(place, path, decoded)
  const givenIf = option(decodeIf({ if: condition }))
  const givenRetry = option(decodeRetry({ retry }))
  const givenTimeout = option(decodeTimeout({ timeout }))
  const givenContinue = option(decodeContinueOnError({ continueOnError }))
  // Its `if` is checked against what is known before it (not its own output).
  const compiledIf = conditionAt(place, givenIf?.if, `${path}.if`)
  const checked = Checked.checkTask(place.context, step, path)
  const retryDelay = givenRetry?.retry === undefined ? undefined : durationAt(place, givenRetry.retry.delay ?? "1 second", `${path}.retry.delay`)
  const limit = durationAt(place, givenTimeout?.timeout, `${path}.timeout`)
  if (checked === undefined || givenIf === undefined || givenRetry === undefined || givenTimeout === undefined || givenContinue === undefined) {
    return undefined
  }
  return {
    ...checked,
    kind: "action",
    name: checked.step.name,
    label: checked.step.label,
    path,
    condition: compiledIf,
    retry: givenRetry.retry === undefined || retryDelay === undefined ? undefined : {
      attempts: givenRetry.retry.attempts,
      delay: retryDelay,
      backoff: givenRetry.retry.backoff ?? "exponential",
      on: new Set(givenRetry.retry.on ?? transientTags)
    },
    timeout: limit,
    continueOnError: givenContinue.continueOnError ?? false
  }
}

const checkGroup = (place: Place, record: Record<string, unknown>, path: string): CheckedGroup | undefined => {
  const group = decodeGroup(record)
  if (Either.isLeft(group)) {
    issuesOf(place, path, group.left)
    return undefined
  }
  const given = group.right
  claimName(place, given.name, `${path}.name`)
  const timeout = optionAt(place, path, decodeTimeout({ timeout: given.timeout }))
  const continueOnError = optionAt(place, path, decodeContinueOnError({ continueOnError: given.continueOnError }))
  const condition = conditionAt(place, given.if, `${path}.if`)
  // Its tasks are visible after it: they are checked in the same context.
  const inner = checkTasks(place, given.tasks, `${path}.tasks`)
  const limit = durationAt(place, timeout?.timeout, `${path}.timeout`)
  if (timeout === undefined || continueOnError === undefined) return undefined
  return {
    kind: "group",
    name: given.name,
    label: given.label,
    path,
    condition,
    tasks: inner,
    timeout: limit,
    continueOnError: continueOnError.continueOnError ?? false
  }
}

const checkLoop = (place: Place, record: Record<string, unknown>, path: string): CheckedLoop | undefined => {
  const loop = decodeLoop(record)
  if (Either.isLeft(loop)) {
    issuesOf(place, path, loop.left)
    return undefined
  }
  const given = loop.right
  const { context } = place
  claimName(place, given.name, `${path}.name`)
  const timeoutGiven = optionAt(place, path, decodeTimeout({ timeout: given.timeout }))
  const continueOnError = optionAt(place, path, decodeContinueOnError({ continueOnError: given.continueOnError }))
  const concurrency = optionAt(place, path, decodeConcurrency({ concurrency: given.concurrency }))
  if (place.loopDepth >= maxLoopDepth) {
    context.issues.push({ path, message: `loops nest at most ${maxLoopDepth} deep` })
  }
  if (context.names.has(given.as) || Checked.reservedNames.has(given.as) || context.allNames.has(given.as)) {
    context.issues.push({ path: `${path}.as`, message: `"${given.as}" is ${Checked.reservedNames.has(given.as) ? "reserved" : "the name of a task"}` })
  } else if (!Expressions.isReadableName(given.as)) {
    // The item is there to be read by expressions; a task's name is only refused where one reads it (`${list.cards}` reads it).
    context.issues.push({
      path: `${path}.as`,
      message: `"${given.as}" is a name CEL has for itself (a type, a literal or a reserved word): no expression could read the item; choose another, e.g. "item"`
    })
  }
  const condition = conditionAt(place, given.if, `${path}.if`)
  const forEach = Checked.compileAt(context, given.forEach, `${path}.forEach`)
  if (forEach !== undefined && !Expressions.isList(forEach.type)) {
    context.issues.push({ path: `${path}.forEach`, message: `must give a list, not ${String(forEach.type)}` })
  }
  // Inside, its tasks see what is visible here, the item, and each other; outside, only the loop.
  const known = new Map(context.known)
  known.set(given.as, true)
  const inside: Checked.CheckContext = {
    ...context,
    known,
    variables: forEach !== undefined && Expressions.isList(forEach.type)
      ? Expressions.withType(context.variables, given.as, Expressions.elementType(forEach.type))
      : Expressions.withSchema(context.variables, given.as, undefined)
  }
  const inner = checkTasks({ ...place, context: inside, loopDepth: place.loopDepth + 1, loop: given.name }, given.tasks, `${path}.tasks`)
  const timeout = durationAt(place, timeoutGiven?.timeout, `${path}.timeout`)
  if (forEach === undefined || timeoutGiven === undefined || continueOnError === undefined || concurrency === undefined) return undefined
  return {
    kind: "loop",
    name: given.name,
    label: given.label,
    path,
    condition,
    forEach,
    as: given.as,
    concurrency: concurrency.concurrency ?? 1,
    tasks: inner,
    timeout,
    continueOnError: continueOnError.continueOnError ?? false
  }
}

const checkCall = (place: Place, record: Record<string, unknown>, path: string): CheckedCall | undefined => {
  const call = decodeCall(record)
  if (Either.isLeft(call)) {
    issuesOf(place, path, call.left)
    return undefined
  }
  const given = call.right
  const { context } = place
  claimName(place, given.name, `${path}.name`)
  const timeout = optionAt(place, path, decodeTimeout({ timeout: given.timeout }))
  const continueOnError = optionAt(place, path, decodeContinueOnError({ continueOnError: given.continueOnError }))
  const condition = conditionAt(place, given.if, `${path}.if`)
  const inputs = given.inputs ?? {}
  // Its inputs are values of this workflow's, checked here; the called one is checked on its own.
  const expressions = Checked.checkValues(context, inputs, path, "inputs")
  const limit = durationAt(place, timeout?.timeout, `${path}.timeout`)
  if (place.call === undefined) {
    context.issues.push({ path: `${path}.workflow`, message: "a workflow is called by its file's path, relative to this workflow's file: this one has no file" })
    return undefined
  }
  const called = place.call(given.workflow, new Set(Object.keys(inputs)))
  if (Either.isLeft(called)) {
    for (const issue of called.left) context.issues.push({ path: issue.path === "" ? `${path}.workflow` : `${path}.workflow: ${issue.path}`, message: issue.message })
    return undefined
  }
  for (const key of Object.keys(inputs)) {
    if (!called.right.declared.has(key)) {
      context.issues.push({ path: `${path}.inputs.${key}`, message: `${given.workflow} declares no input "${key}"` })
    }
  }
  if (timeout === undefined || continueOnError === undefined) return undefined
  return {
    kind: "call",
    name: given.name,
    label: given.label,
    path,
    condition,
    file: given.workflow,
    workflow: called.right.workflow,
    inputs,
    expressions,
    timeout: limit,
    continueOnError: continueOnError.continueOnError ?? false
  }
}

const checkWait = (place: Place, record: Record<string, unknown>, path: string): CheckedWait | undefined => {
  const { context } = place
  if ("delay" in record) {
    const delay = decodeDelay(record)
    if (Either.isLeft(delay)) {
      issuesOf(place, path, delay.left)
      return undefined
    }
    claimName(place, delay.right.name, `${path}.name`)
    const condition = conditionAt(place, delay.right.if, `${path}.if`)
    const duration = durationAt(place, delay.right.delay, `${path}.delay`)
    if (duration === undefined) return undefined
    return { kind: "wait", name: delay.right.name, label: delay.right.label, path, condition, wait: { delay: duration } }
  }
  const until = decodeUntil(record)
  if (Either.isLeft(until)) {
    issuesOf(place, path, until.left)
    return undefined
  }
  claimName(place, until.right.name, `${path}.name`)
  const condition = conditionAt(place, until.right.if, `${path}.if`)
  const time = Checked.compileAt(context, until.right.until, `${path}.until`)
  if (time !== undefined && !Expressions.isTimestamp(time.type)) {
    context.issues.push({ path: `${path}.until`, message: `must give a timestamp (e.g. timestamp("2026-01-01T09:00:00Z")), not ${String(time.type)}` })
  }
  if (time === undefined) return undefined
  return { kind: "wait", name: until.right.name, label: until.right.label, path, condition, wait: { until: time } }
}

/** Every name of a task in the file, at any depth (for messages about later or hidden tasks). */
export const namesIn = (values: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  values.flatMap((value) => {
    if (typeof value !== "object" || value === null) return []
    const record = value as Record<string, unknown>
    return [
      ...(typeof record["name"] === "string" ? [record["name"]] : []),
      ...(Array.isArray(record["tasks"]) ? namesIn(record["tasks"]) : [])
    ]
  })

/** Every action task of a tree, at any depth, in the file's order. */
export const actionsIn = (tasks: ReadonlyArray<CheckedTask>): ReadonlyArray<CheckedAction> =>
  tasks.flatMap((task) =>
    task.kind === "action"
      ? [task]
      : task.kind === "wait"
      ? []
      : task.kind === "call"
      ? actionsIn([...task.workflow.tasks, ...task.workflow.onFailure])
      : actionsIn(task.tasks)
  )
