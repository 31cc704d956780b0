import { Action } from "@x/core"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const getRun = Action.make({
  name: "getRun",
  title: "Get Run (V4)",
  impact: "read",
  description: "Reads a run: its task, status, result or error, judgement and cost.",
  props: {
    runId: Props.runId({ title: "Run", required: true })
  },
  output: Runs.Run,
  run: ({ runId }, { client }) => Runs.getRun(client, runId)
})
