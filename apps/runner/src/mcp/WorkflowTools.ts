/**
 * Workflows as tools (`x-runner mcp --workflows <dir>`): each workflow file of the directory
 * without a trigger is a tool `workflow_<file name>` whose input schema is its inputs (each one
 * optional, its declared value the default, typed as that value is). A call runs the workflow
 * as `x-runner run` does, recorded in the run history, and answers its result.
 *
 * @since 0.12.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import type { Components } from "../components/Components.js"
import type * as ConnectionValues from "../components/ConnectionValues.js"
import * as Errors from "../Errors.js"
import * as JsonText from "../workflow/JsonText.js"
import type { CheckedTask } from "../workflow/internal/checkTree.js"
import * as Workflow from "../workflow/Workflow.js"
import * as WorkflowFiles from "../workflow/WorkflowFiles.js"
import type * as WorkflowSchema from "../workflow/WorkflowSchema.js"
import type { Annotations, CallResult } from "./McpTools.js"
import { annotationsOf, failed } from "./McpTools.js"

/**
 * One workflow offered as a tool.
 *
 * @since 0.12.0
 * @category models
 */
export interface WorkflowTool {
  readonly _tag: "WorkflowTool"
  /** `workflow_<its file's name>`, e.g. `workflow_note-on-card`. */
  readonly name: string
  /** Its file, absolute. */
  readonly file: string
  readonly title: string
  readonly description: string
  readonly inputSchema: WorkflowSchema.JsonSchema
  readonly outputSchema: WorkflowSchema.JsonSchema
  readonly annotations: Annotations
  /** The inputs it declares, with their declared values. */
  readonly inputs: ReadonlyMap<string, unknown>
  /** Its file and those of the workflows it calls, at any depth: what was checked. */
  readonly files: ReadonlyArray<string>
  /** The SHA-256 of those files as they were checked (a call of a tool one of whose files changed since is refused). */
  readonly digest: string
}

/** A JSON value's type, as JSON Schema names it (`integer` is a `number` here: a default of 3 takes 2.5 too). */
const jsonType = (value: unknown): string | undefined =>
  value === null ? undefined : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? typeof value : undefined

/** What a workflow tool answers: the run's status, its id in the history, its steps (`run --output json`'s document). */
const runOutput: WorkflowSchema.JsonSchema = {
  type: "object",
  properties: {
    status: { enum: ["succeeded", "failed", "invalid"] },
    runId: { type: "string", description: "The run in the history: x-runner runs show <runId>." },
    steps: { type: "array", items: { type: "object" } },
    failure: { type: "object" },
    onFailure: { type: "array", items: { type: "object" } },
    issues: { type: "array", items: { type: "object" } }
  },
  required: ["status"]
}

/** A tool's name from a file's: MCP's names take letters, digits, `_`, `-` and `.`, at most 128. */
const nameOf = (fileName: string) => `workflow_${fileName.replace(/[^A-Za-z0-9_.-]/g, "_")}`.slice(0, 128)

/**
 * The workflow tools of a directory: its `.json` files, each checked as `run` checks it (a
 * problem stops the server before it starts); those with a trigger are not tools (`serve`
 * serves them), and are returned by name to be said.
 *
 * @since 0.12.0
 * @category constructors
 */
export const load = (directory: string): Effect.Effect<
  {
    readonly tools: ReadonlyArray<WorkflowTool>
    readonly triggered: ReadonlyArray<string>
    /** The connections the tools' workflows use (the sandbox makes an account for each named one). */
    readonly uses: ReadonlyArray<ConnectionValues.Use>
  },
  Errors.InvalidArguments | Errors.InvalidWorkflow,
  Components | FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const names = yield* Effect.mapError(fs.readDirectory(directory), () =>
      new Errors.InvalidArguments({ message: `--workflows ${directory}: not a directory that can be read` }))
    const tools: Array<WorkflowTool> = []
    const triggered: Array<string> = []
    const uses: Array<ConnectionValues.Use> = []
    for (const fileName of names.filter((name) => name.endsWith(".json")).sort()) {
      const file = path.resolve(directory, fileName)
      const workflow = yield* WorkflowFiles.loadWorkflow(file, new Map())
      if (workflow.trigger !== undefined) {
        triggered.push(fileName)
        continue
      }
      const name = nameOf(fileName.slice(0, -".json".length))
      const same = tools.find((tool) => tool.name === name)
      if (same !== undefined) {
        return yield* new Errors.InvalidArguments({
          message: `--workflows ${directory}: ${path.basename(same.file)} and ${fileName} would both be the tool ${name}: rename one`
        })
      }
      uses.push(...Workflow.connectionsOf(workflow))
      const files = [file, ...calledFiles(file, workflow)]
      const actions = Workflow.actionTasks(workflow).map((task) => task.prepared.action)
      // Its marks are its actions' (at any depth), each as its own tool's would be.
      const marks = actions.map(annotationsOf)
      tools.push({
        _tag: "WorkflowTool",
        name,
        file,
        title: workflow.label,
        description: [
          workflow.description ?? workflow.label,
          `Runs the workflow ${fileName} (${actions.length} action${actions.length === 1 ? "" : "s"}), recorded in the run history.`
        ].join(" "),
        inputSchema: {
          type: "object",
          properties: Object.fromEntries([...workflow.inputs].map(([name, value]) => {
            const type = jsonType(value)
            return [name, { ...(type === undefined ? {} : { type }), default: value, description: `The workflow's input ${name}.` }]
          })),
          additionalProperties: false
        },
        outputSchema: runOutput,
        annotations: {
          title: workflow.label,
          readOnlyHint: marks.every((mark) => mark.readOnlyHint),
          destructiveHint: marks.some((mark) => mark.destructiveHint),
          idempotentHint: marks.every((mark) => mark.idempotentHint),
          openWorldHint: true
        },
        // The declared ones: no value was given at the check.
        inputs: workflow.inputs,
        files,
        digest: digestOf(files)
      })
    }
    return { tools, triggered, uses }
  })

/** The files a workflow calls, at any depth (each call's path is relative to its caller's file). */
const calledFiles = (file: string, workflow: Workflow.Workflow): ReadonlyArray<string> => {
  const inTasks = (tasks: ReadonlyArray<CheckedTask>): ReadonlyArray<string> =>
    tasks.flatMap((task) => {
      if (task.kind === "call") {
        const called = NodePath.resolve(NodePath.dirname(file), task.file)
        return [called, ...calledFiles(called, task.workflow)]
      }
      return task.kind === "group" || task.kind === "loop" ? inTasks(task.tasks) : []
    })
  return [...new Set(inTasks([...workflow.tasks, ...workflow.onFailure]))]
}

/** The digest of these files as they are now (one that cannot be read counts as changed). */
const digestOf = (files: ReadonlyArray<string>): string => {
  const hash = createHash("sha256")
  for (const file of files) {
    hash.update(file).update("\u0000")
    try {
      hash.update(readFileSync(file))
    } catch {
      hash.update("\u0000unreadable")
    }
    hash.update("\u0000")
  }
  return hash.digest("hex")
}

/**
 * The result refusing a call of a workflow tool whose file changed since the server checked it
 * (what it offered, its marks and inputs, were that file's); none when it is as it was.
 *
 * @since 0.12.0
 * @category utils
 */
export const changedSince = (tool: WorkflowTool): CallResult | undefined =>
  digestOf(tool.files) === tool.digest ? undefined : failed(
    "WorkflowChanged",
    `${tool.files.length === 1 ? tool.file : `${tool.file} or a workflow it calls`} changed since the server started (or cannot be read): ` +
      "restart x-runner mcp to offer it as it is now"
  )

/**
 * A workflow tool's arguments checked against its inputs (each a declared one, of its declared
 * value's type), as the map `run` takes; or the result that says what is wrong.
 *
 * @since 0.12.0
 * @category utils
 */
export const checkInputs = (tool: WorkflowTool, args: Readonly<Record<string, unknown>>): Either.Either<ReadonlyMap<string, unknown>, CallResult> => {
  const issues: Array<{ readonly path: string; readonly message: string }> = []
  for (const [name, value] of Object.entries(args)) {
    if (!tool.inputs.has(name)) {
      issues.push({ path: name, message: `the workflow declares no input "${name}" (it has ${[...tool.inputs.keys()].join(", ") || "none"})` })
      continue
    }
    const type = jsonType(tool.inputs.get(name))
    if (type !== undefined && jsonType(value) !== type) issues.push({ path: name, message: `must be a${/^[aeiou]/.test(type) ? "n" : ""} ${type}` })
  }
  if (issues.length > 0) {
    return Either.left(failed("InvalidInput", issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "), { issues }))
  }
  return Either.right(new Map(Object.entries(args)))
}

/**
 * What a workflow run printed as `run --output json` does, as a tool's result: failed or
 * refused (invalid) runs are errors; the document is the structured content either way.
 *
 * @since 0.12.0
 * @category utils
 */
export const resultOf = (document: string | undefined, error: Errors.RunnerError | undefined): CallResult => {
  const parsed = document === undefined ? undefined : Either.getOrUndefined(JsonText.parse(document))
  if (parsed === undefined || typeof parsed !== "object" || parsed === null) {
    return failed(error?._tag ?? "RunFailed", error === undefined ? "the run printed no result" : error.message || "the run failed")
  }
  const structured = parsed as Record<string, unknown>
  const status = structured["status"]
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(status === "succeeded" ? {} : { isError: true })
  }
}
