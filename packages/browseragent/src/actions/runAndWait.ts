import { Action, Property } from "@x/core"
import * as Runs from "../api/runs.js"
import * as RunInputs from "../runInputs.js"

export const runAndWait = Action.make({
  name: "runAndWait",
  title: "Run and Wait (V4)",
  impact: "write",
  idempotent: false,
  description: "Starts an agent run (Browser Use V4) and waits for it to end: its output, checked against the output schema, its error " +
    "and cost. Past the timeout the run is cancelled, unless kept running.",
  props: {
    ...RunInputs.props,
    outputSchema: Property.object({
      title: "Output Schema",
      description: "A JSON Schema (an object) the answer must follow: given to the agent with the task, and the answer checked against it. None: text."
    }),
    timeoutSeconds: Property.integer({ title: "Timeout (seconds)", minimum: 1, maximum: 14_400, defaultValue: 600 }),
    keepRunning: Property.boolean({ title: "Keep Running on Timeout", description: "Past the timeout, leave the run going (else it is cancelled)." })
  },
  validate: RunInputs.validate,
  output: Runs.RunResult,
  run: ({ outputSchema, timeoutSeconds, keepRunning, ...params }, { client }) =>
    Runs.runAndWait(client, { ...RunInputs.createRun(params), outputSchema, timeoutSeconds: timeoutSeconds ?? 600, keepRunning })
})
