import { Action, Choice, Property } from "@x/core"
import * as Sessions from "../api/sessions.js"
import * as Run from "../api/run.js"
import * as Props from "../props.js"

export const runTask = Action.make({
  name: "runTask",
  title: "Run Task",
  impact: "write",
  idempotent: false,
  description: "Runs a task in a new session (or an idle one) and waits for it to end: its output, checked against " +
    "the output schema, its cost and its workspace's files. Past the timeout the task is stopped, unless kept running.",
  props: {
    task: Property.string({ title: "Task", required: true, minLength: 1 }),
    model: Property.string({ title: "Model", required: true, choices: Choice.of(Sessions.modelNames) }),
    outputSchema: Property.object({
      title: "Output Schema",
      description: "A JSON Schema (an object) the output must follow; the output is checked against it. None: text."
    }),
    sessionId: Props.sessionId({ title: "Session", description: "Run the task in this idle session instead of a new one." }),
    keepAlive: Property.boolean({ title: "Keep Alive", description: "Keep the session idle after the task, for the next one." }),
    timeoutSeconds: Property.integer({ title: "Timeout (seconds)", minimum: 1, maximum: 14_400, defaultValue: 600 }),
    keepRunning: Property.boolean({
      title: "Keep Running on Timeout",
      description: "Past the timeout, leave the task running (else it is stopped: the task only in a kept-alive or given session, else the session)."
    })
  },
  output: Run.TaskResult,
  run: (params, { client }) =>
    Run.runTask(client, {
      task: params.task,
      model: params.model,
      outputSchema: params.outputSchema,
      sessionId: params.sessionId,
      keepAlive: params.keepAlive,
      timeoutSeconds: params.timeoutSeconds ?? 600,
      keepRunning: params.keepRunning
    })
})
