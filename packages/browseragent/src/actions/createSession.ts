import { Action, Choice, Property } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "../api.js"
import * as Run from "../api/run.js"
import * as Props from "../props.js"

/** The schema string of a JSON output format, parsed; undefined when it is not a JSON object. */
const parseSchema = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(text ?? "")
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

export const createSession = Action.make({
  name: "createSession",
  title: "Create Session",
  description: "Creates a browser-agent session and runs a task in it, or dispatches the task to an idle session.",
  props: {
    task: Property.string({ title: "Task", required: true, minLength: 1 }),
    model: Property.string({
      title: "Model",
      required: true,
      choices: Choice.of(Api.modelNames)
    }),
    outputSchema: Property.object({
      title: "Output Schema",
      required: true,
      properties: {
        format: Property.string({
          title: "Format",
          required: true,
          choices: [{ label: "Text", value: "TEXT" }, { label: "JSON", value: "JSON" }],
          defaultValue: "TEXT"
        }),
        schema: Property.string({ title: "Schema", description: "A JSON Schema, as text, for the JSON format." })
      }
    }),
    sessionId: Props.sessionId({
      title: "Session",
      description: "Dispatch the task to this idle session instead of creating one."
    }),
    keepAlive: Property.boolean({ title: "Keep Alive", description: "Stay idle after the task, for the next one." }),
    enableScheduledTasks: Property.boolean({ title: "Enable Scheduled Tasks" }),
    skills: Property.boolean({ title: "Skills" }),
    waitForCompletion: Property.boolean({ title: "Wait for Completion", description: "Return once the task has ended." }),
    timeoutSeconds: Property.integer({ title: "Timeout (seconds)", minimum: 1, maximum: 14_400, defaultValue: 600 })
  },
  validate: ({ outputSchema }) =>
    outputSchema.format === "JSON" && parseSchema(outputSchema.schema) === undefined
      ? [{ path: "outputSchema.schema", message: "must be a JSON Schema object, as JSON text" }]
      : [],
  output: Api.Session,
  run: (params, { client }) =>
    Effect.gen(function*() {
      const session = yield* Api.createSession(client, {
        task: params.task,
        model: params.model,
        outputSchema: params.outputSchema.format === "JSON" ? parseSchema(params.outputSchema.schema) : undefined,
        sessionId: params.sessionId,
        keepAlive: params.keepAlive,
        enableScheduledTasks: params.enableScheduledTasks,
        skills: params.skills
      })
      if (params.waitForCompletion !== true) return session
      return yield* Run.waitForTask(client, session, { timeoutSeconds: params.timeoutSeconds ?? 600, dispatched: params.sessionId !== undefined })
    })
})
