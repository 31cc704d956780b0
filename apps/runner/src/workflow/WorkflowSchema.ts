/**
 * The JSON Schema (draft 2020-12) of workflow files, for editors: the file format (tasks of each
 * kind, their options, durations, names) and, for every action and trigger of the catalog, its
 * parameters, from the components' descriptions (`Component.describe`, as `x-runner describe`
 * prints them). An editor that reads it from a file's `"$schema"` validates and completes the
 * file; the runner's own check (`Workflow.parse`) stays the authority on what runs. Besides the
 * standard keywords it carries two of VS Code's, which other validators ignore as annotations:
 * `enumDescriptions` (each action's title beside its type in completion) and
 * `patternErrorMessage` (a duration's or a name's mistake said in words, not as the pattern).
 *
 * @since 0.2.0
 */
import type { Component, Property } from "@x/core"
import { ConnectorError } from "@x/core"

/**
 * A JSON Schema, as plain JSON data.
 *
 * @since 0.2.0
 * @category models
 */
export type JsonSchema = { readonly [keyword: string]: unknown }

/**
 * A component as `Component.describe` gives it.
 *
 * @since 0.2.0
 * @category models
 */
export type ComponentDescription = ReturnType<typeof Component.describe>

/**
 * Where the committed schema is published: its `$id` (no version in it, so that a release does
 * not change the file).
 *
 * @since 0.2.0
 * @category constants
 */
export const id = "https://raw.githubusercontent.com/x-connectors/x-connectors/main/apps/runner/workflow.schema.json"

/**
 * The string forms of Effect's `Duration.decode` (`"30 seconds"`, `"1 hour"`, `"1.5 days"`),
 * negatives left out: its own regular expression is not exported.
 *
 * @since 0.2.0
 * @category constants
 */
export const durationPattern = "^\\d+(?:\\.\\d+)?\\s+(?:nanos?|micros?|millis?|seconds?|minutes?|hours?|days?|weeks?)$"

/**
 * A connection's name, as `@x/core`'s `Step.ConnectionName` takes it.
 *
 * @since 0.8.0
 * @category constants
 */
export const connectionPattern = "^[A-Za-z][A-Za-z0-9_-]{0,63}$"

/**
 * A value decided when the task runs: a string holding a `${…}` reference (exactly one keeps the
 * referenced value's type, one inside a text is interpolated) or a `${= <CEL>}` expression. Not
 * anchored: `"https://${inputs.host}/x"` is decided at run time too.
 *
 * @since 0.2.0
 * @category constants
 */
export const referencePattern = "\\$\\{[\\s\\S]*\\}"

/**
 * The connector errors' tags, which a task's `retry.on` may name.
 *
 * @since 0.2.0
 * @category constants
 */
export const errorTags = ConnectorError.tags

/** Core's ISO 8601 date or date-time (`Property.isIsoDateTime`), its case-insensitive letters spelled out. */
const isoDateTimePattern = "^\\d{4}-\\d{2}-\\d{2}(?:[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:[Zz]|[+-]\\d{2}(?::?\\d{2})?)?)?$"

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` })

/** An object that has these keys (each named in `properties` too, as a strict validator wants). */
const has = (...keys: ReadonlyArray<string>): JsonSchema => ({ properties: Object.fromEntries(keys.map((key) => [key, true])), required: keys })

/** A title and a description, for the editor's hover, without empty keys. */
const annotated = (title: string | undefined, description: string | undefined): JsonSchema => ({
  ...(title !== undefined && title !== "" ? { title } : {}),
  ...(description !== undefined && description !== "" ? { description } : {})
})

type Described = Property.PropertyDescription

const sentence = (text: string) => /[.!?:)]$/.test(text) ? text : `${text}.`

/**
 * For whom a step's parameters are described: a workflow file (a value may be a `${…}` reference;
 * options come from `x-runner options`), or a caller that gives plain values (an MCP tool's input).
 */
interface Audience {
  /** Whether a value may be a reference decided at run time (a workflow file's). */
  readonly references: boolean
  /** Where a property's options (or a group's fields) are listed, given what they depend on. */
  readonly optionsAt: (path: string, dependsOn: ReadonlyArray<string>, what: "options" | "fields") => string
}

const workflowFile = (stepType: string): Audience => ({
  references: true,
  optionsAt: (path, dependsOn) => `x-runner options ${stepType} ${path}${dependsOn.map((name) => ` --param ${name}=…`).join("")}`
})

/** The description of a property: its own, with where its options come from. */
const describeProperty = (property: Described, audience: Audience, path: string): string | undefined => {
  const parts = property.description === undefined ? [] : [sentence(property.description)]
  const dependsOn = property.dynamicOptions?.dependsOn
  if (dependsOn !== undefined) parts.push(`Its options: ${audience.optionsAt(path, dependsOn, "options")}`)
  if (property.kind === "FILE" && typeof property["maxBytes"] === "number") parts.push(`At most ${sizeOf(property["maxBytes"])}.`)
  if (property.kind === "GROUP") {
    const fieldsFrom = (property["dependsOn"] as ReadonlyArray<string> | undefined) ?? []
    parts.push(`Its fields: ${audience.optionsAt(path, fieldsFrom, "fields")}`)
  }
  return parts.length === 0 ? undefined : parts.join(" ")
}

const mebibyte = 1024 * 1024

const sizeOf = (bytes: number) => bytes % mebibyte === 0 ? `${bytes / mebibyte} MiB` : `${bytes} bytes`

const constraintsOf = (property: Described, keywords: ReadonlyArray<string>): JsonSchema =>
  Object.fromEntries(keywords.filter((keyword) => property[keyword] !== undefined).map((keyword) => [keyword, property[keyword]]))

const choicesOf = (property: Described): JsonSchema =>
  property.choices === undefined || property.choices.length === 0 ? {} : { enum: property.choices.map((choice) => choice.value) }

/** What a FILE property takes: one of its sources (`{ path }`, `{ url }`, `{ name, base64 }`), a name, a content type (core's `FileInput`). */
const fileSchema = (property: Described): JsonSchema => {
  const sources = (property["sources"] as ReadonlyArray<string> | undefined) ?? ["path", "url", "base64"]
  const text = { type: "string", minLength: 1 }
  const fields: Record<string, JsonSchema> = {
    path: { ...text, description: "A file on this machine (within the runner's --files-dir)." },
    url: { type: "string", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$", description: "An http or https URL the runner reads." },
    base64: { type: "string", description: "The file's bytes, base64-encoded (with name)." }
  }
  return {
    type: "object",
    properties: {
      ...Object.fromEntries(sources.map((source) => [source, fields[source] ?? text])),
      name: { type: "string", minLength: 1, maxLength: 255, description: "The file's name (default: the path's or URL's last segment)." },
      contentType: { type: "string", description: "Its media type, e.g. text/plain (default: guessed from the name)." }
    },
    additionalProperties: false,
    oneOf: sources.map((source) => source === "base64" ? has("base64", "name") : has(source))
  }
}

/** The JSON Schema of a property's value as written (a reference aside). */
const valueSchema = (property: Described, audience: Audience, path: string): JsonSchema => {
  switch (property.kind) {
    case "STRING":
      return { type: "string", ...choicesOf(property), ...constraintsOf(property, ["minLength", "maxLength", "pattern"]) }
    case "BOOLEAN":
      return { type: "boolean" }
    case "INTEGER":
      return { type: "integer", ...choicesOf(property), ...constraintsOf(property, ["minimum", "maximum"]) }
    case "NUMBER":
      return { type: "number", ...choicesOf(property), ...constraintsOf(property, ["minimum", "maximum"]) }
    case "DATE_TIME":
      return { type: "string", pattern: isoDateTimePattern }
    case "OBJECT": {
      const properties = property["properties"] as Readonly<Record<string, Described>> | undefined
      return properties === undefined ? { type: "object" } : objectOf(properties, audience, path)
    }
    case "ARRAY": {
      const items = property["items"] as Described | undefined
      return {
        type: "array",
        ...(items === undefined ? {} : { items: parameterSchema(items, audience, path) }),
        ...constraintsOf(property, ["minItems", "maxItems"])
      }
    }
    case "GROUP":
      return { type: "object" }
    case "FILE":
      return fileSchema(property)
  }
}

/** A parameter: its value as written, or (in a workflow file) a value decided at run time; titled and described for the editor. */
const parameterSchema = (property: Described, audience: Audience, path: string): JsonSchema => ({
  ...annotated(property.title, describeProperty(property, audience, path)),
  ...(property.defaultValue !== undefined ? { default: property.defaultValue } : {}),
  ...(audience.references ? { anyOf: [valueSchema(property, audience, path), ref("reference")] } : valueSchema(property, audience, path))
})

/** An object of parameters: each one's schema, the required ones (a default makes one optional), no other key. */
const objectOf = (properties: Readonly<Record<string, Described>>, audience: Audience, path?: string): JsonSchema => {
  const entries = Object.entries(properties)
  const required = entries.filter(([, property]) => property.required && property.defaultValue === undefined).map(([key]) => key)
  return {
    type: "object",
    properties: Object.fromEntries(
      entries.map(([key, property]) => [key, parameterSchema(property, audience, path === undefined ? key : `${path}.${key}`)])
    ),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false
  }
}

interface StepDescription {
  readonly name: string
  readonly title: string
  readonly description?: string | undefined
  readonly props: Readonly<Record<string, Described>>
  readonly deprecated?: { readonly since: string; readonly replacement?: string | undefined; readonly reason: string } | undefined
}

const typesOf = (components: ReadonlyArray<ComponentDescription>, pick: (component: ComponentDescription) => ReadonlyArray<StepDescription>) =>
  components.flatMap((component) => pick(component).map((step) => ({ type: `${component.type}/${step.name}`, step })))

const deprecationOf = (step: StepDescription): string | undefined =>
  step.deprecated === undefined
    ? undefined
    : `Deprecated since ${step.deprecated.since}: ${step.deprecated.reason}${step.deprecated.replacement === undefined ? "" : ` Use ${step.deprecated.replacement}.`}`

/**
 * A step (an action task or the trigger): `type` one of these, and for each type its parameters,
 * chosen by `if`/`then` on the type so that a wrong parameter is reported at its own place.
 */
const stepSchema = (
  steps: ReadonlyArray<{ readonly type: string; readonly step: StepDescription }>,
  description: string,
  options: Readonly<Record<string, JsonSchema>>
): JsonSchema => ({
  type: "object",
  description,
  properties: {
    label: ref("label"),
    name: ref("name"),
    type: {
      description: "What the step does: <component>/v<version>/<name> (x-runner describe <type> shows it).",
      enum: steps.map(({ type }) => type),
      enumDescriptions: steps.map(({ step }) => step.title)
    },
    parameters: { type: "object", description: "The step's parameters (x-runner describe <type> lists them)." },
    connection: ref("connection"),
    ...options
  },
  required: ["label", "name", "type", "parameters"],
  additionalProperties: false,
  allOf: steps.map(({ step, type }) => {
    const deprecation = deprecationOf(step)
    return {
      if: { properties: { type: { const: type } }, required: ["type"] },
      then: {
        properties: {
          type: { ...annotated(step.title, [step.description, deprecation].filter((text) => text !== undefined).join(" ")), ...(deprecation === undefined ? {} : { deprecated: true }) },
          parameters: objectOf(step.props, workflowFile(type))
        }
      }
    }
  })
})

/**
 * An action's parameters as a caller gives them, plain values (no `${…}` reference): an MCP
 * tool's `inputSchema`. Types, required keys, patterns, enums, defaults and descriptions as a
 * workflow file's; where a property's options (or a group's fields) are listed is `optionsAt`'s
 * to say.
 *
 * @since 0.12.0
 * @category constructors
 */
export const actionInput = (
  action: { readonly props: Readonly<Record<string, Property.PropertyDescription>> },
  optionsAt: (path: string, dependsOn: ReadonlyArray<string>, what: "options" | "fields") => string
): JsonSchema => objectOf(action.props, { references: false, optionsAt })

/** The keys of a task of each kind, for the editor's completion before the kind is known. */
const taskKeys: Readonly<Record<string, string>> = {
  label: "Text for people: what the task does.",
  name: "The task's name: later tasks read its output by it.",
  type: "An action task: the action it runs, <component>/v<version>/<name>.",
  parameters: "An action task: the action's parameters.",
  connection: "An action task: the named connection it runs with, of its component (its component's default when left out).",
  tasks: "A group or a loop: its tasks, in order.",
  forEach: "A loop: a CEL expression giving the list whose items it runs its tasks for.",
  as: "A loop: the name of the item its tasks read.",
  concurrency: "A loop: how many items at most run at once (1 to 64, default 1).",
  delay: "A wait: how long, e.g. \"2 hours\".",
  until: "A wait: a CEL expression giving the time to wait until.",
  workflow: "A call: the workflow file it runs as part of this run, relative to this file.",
  inputs: "A call: the inputs it gives the called workflow (values as a step's parameters: ${…} references, ${= …} expressions).",
  if: "A CEL expression: the task runs only when it is true, else it is skipped.",
  retry: "An action task: attempts on failure.",
  timeout: "A duration: the task fails when it takes longer.",
  continueOnError: "When true, the task's failure does not fail the run: later tasks read its error."
}

/** The options an action task, a group and a loop have. */
const common = {
  if: ref("condition"),
  timeout: { $ref: "#/$defs/duration", description: taskKeys["timeout"] },
  continueOnError: { type: "boolean", description: taskKeys["continueOnError"], default: false }
}

const tasksOf = (description: string): JsonSchema => ({ type: "array", description, minItems: 1, items: ref("task") })

/**
 * The JSON Schema of workflow files whose actions and triggers are these components'.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (components: ReadonlyArray<ComponentDescription>): JsonSchema => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: id,
  title: "x-runner workflow",
  description: "A workflow file of x-runner: its trigger, its tasks, and what runs when it fails. Checked in full by x-runner before anything runs.",
  type: "object",
  properties: {
    $schema: { type: "string", description: "The JSON Schema an editor checks this file with (x-runner schema prints it); the runner ignores it." },
    label: { type: "string", description: "Text for people: what the workflow does." },
    description: { type: "string", description: "More text for people." },
    inputs: {
      type: "object",
      description: "The workflow's inputs by name, each with its default value; --input name=value gives another. Tasks read them as ${inputs.name}."
    },
    triggers: {
      type: "array",
      description: "The trigger whose events start a run (x-runner serve): one at most.",
      maxItems: 1,
      items: ref("trigger")
    },
    tasks: tasksOf("The tasks, run in order."),
    onFailure: tasksOf("Tasks run once when the run fails; they read failure.path, failure.tag and failure.message.")
  },
  required: ["label", "tasks"],
  additionalProperties: false,
  $defs: {
    label: { type: "string", description: taskKeys["label"] },
    name: {
      type: "string",
      description: "An identifier (letters, digits, _), unique in the file: later tasks read the output by it.",
      pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
      patternErrorMessage: "A name is letters, digits and _, not starting with a digit."
    },
    connection: {
      type: "string",
      description:
        "A named connection of the step's component in the connections file ({\"<name>\": {\"component\": \"<component>\", …}}); with --sandbox, another account of its simulator. Left out: the component's default.",
      pattern: connectionPattern,
      patternErrorMessage: "A connection's name is a letter, then up to 63 letters, digits, _ or -."
    },
    duration: {
      type: "string",
      description: "A duration: a number and a unit (nanos, micros, millis, seconds, minutes, hours, days, weeks), e.g. \"30 seconds\", \"2 hours\".",
      pattern: durationPattern,
      patternErrorMessage: "A duration is a number and a unit: \"30 seconds\", \"2 hours\", \"500 millis\"."
    },
    expression: { type: "string", minLength: 1, description: "A CEL expression over inputs, trigger, earlier tasks by name and loop items." },
    condition: { $ref: "#/$defs/expression", description: taskKeys["if"] },
    reference: {
      type: "string",
      description: "A value decided when the task runs: ${name.field} (an input, the trigger's or an earlier task's output) or ${= <CEL expression>}.",
      pattern: referencePattern
    },
    retry: {
      type: "object",
      description: "Attempts on failure, on top of the HTTP client's own retries.",
      properties: {
        attempts: { type: "integer", minimum: 2, maximum: 20, description: "The attempts in all, the first included (2 to 20)." },
        delay: { $ref: "#/$defs/duration", description: "The wait before the second attempt (default \"1 second\")." },
        backoff: {
          enum: ["exponential", "fixed"],
          default: "exponential",
          description: "exponential: each wait twice the one before; fixed: every wait the delay."
        },
        on: {
          type: "array",
          description: "The error tags retried (default: RateLimited, UpstreamUnavailable, Timeout).",
          items: { enum: errorTags },
          uniqueItems: true
        }
      },
      required: ["attempts"],
      additionalProperties: false
    },
    trigger: stepSchema(typesOf(components, (component) => component.triggers), "A trigger: what starts a run.", {}),
    action: stepSchema(typesOf(components, (component) => component.actions), "An action task: runs one action.", {
      ...common,
      retry: ref("retry")
    }),
    group: {
      type: "object",
      description: "A group: its tasks in order (with if, a branch). Its output: its tasks' outputs by name.",
      properties: { label: ref("label"), name: ref("name"), tasks: tasksOf(taskKeys["tasks"]!), ...common },
      required: ["label", "name", "tasks"],
      additionalProperties: false
    },
    loop: {
      type: "object",
      description: "A loop: its tasks once per item, in order of items for its output (a list of each iteration's outputs by name). Loops nest 3 deep at most.",
      properties: {
        label: ref("label"),
        name: ref("name"),
        forEach: { $ref: "#/$defs/expression", description: taskKeys["forEach"] },
        as: { $ref: "#/$defs/name", description: taskKeys["as"] },
        concurrency: { type: "integer", minimum: 1, maximum: 64, default: 1, description: taskKeys["concurrency"] },
        tasks: tasksOf(taskKeys["tasks"]!),
        ...common
      },
      required: ["label", "name", "forEach", "as", "tasks"],
      additionalProperties: false
    },
    wait: {
      type: "object",
      description: "A wait: for a delay, or until a time; it survives a restart of serve.",
      properties: {
        label: ref("label"),
        name: ref("name"),
        delay: { $ref: "#/$defs/duration", description: taskKeys["delay"] },
        until: { $ref: "#/$defs/expression", description: taskKeys["until"] },
        if: ref("condition")
      },
      required: ["label", "name"],
      oneOf: [has("delay"), has("until")],
      additionalProperties: false
    },
    call: {
      type: "object",
      description: "A call: another workflow's tasks as part of this run, given its inputs. Its output: the called workflow's tasks' outputs by name.",
      properties: {
        label: ref("label"),
        name: ref("name"),
        workflow: { type: "string", minLength: 1, description: taskKeys["workflow"] },
        inputs: { type: "object", description: taskKeys["inputs"] },
        ...common
      },
      required: ["label", "name", "workflow"],
      additionalProperties: false
    },
    // The kind is told by the keys, as the runner tells it: type, then forEach (or a loop's other
    // keys), then tasks, then delay or until. Chosen by if/then rather than oneOf, so that a
    // mistake is reported once, in the kind the task is, not once per kind it is not.
    task: {
      type: "object",
      description: "A task: an action (type), a group (tasks), a loop (forEach), a wait (delay or until) or a call (workflow).",
      properties: Object.fromEntries(Object.entries(taskKeys).map(([key, description]) => [key, { description }])),
      if: has("type"),
      then: ref("action"),
      else: {
        if: { anyOf: [has("forEach"), has("as"), has("concurrency")] },
        then: ref("loop"),
        else: {
          if: has("tasks"),
          then: ref("group"),
          else: {
            if: { anyOf: [has("delay"), has("until")] },
            then: ref("wait"),
            else: { if: has("workflow"), then: ref("call"), else: ref("action") }
          }
        }
      }
    }
  }
})
