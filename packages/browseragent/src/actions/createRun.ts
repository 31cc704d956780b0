import { Action } from "@x/core"
import * as Runs from "../api/runs.js"
import * as RunInputs from "../runInputs.js"

export const createRun = Action.make({
  name: "createRun",
  title: "Create Run (V4)",
  impact: "write",
  idempotent: false,
  description: "Starts an agent run (Browser Use V4): a task in a new session, or a follow-up turn in a session. Returns at once; see Run and Wait.",
  props: RunInputs.props,
  validate: RunInputs.validate,
  output: Runs.CreatedRun,
  run: (params, { client }) => Runs.createRun(client, RunInputs.createRun(params))
})
