import { Action } from "@x/core"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const cancelRun = Action.make({
  name: "cancelRun",
  title: "Cancel Run (V4)",
  impact: "destroy",
  idempotent: true,
  description: "Cancels a run that has not ended (a run that has is left as it is); the run as it is after.",
  props: {
    runId: Props.runId({ title: "Run", required: true })
  },
  output: Runs.Run,
  run: ({ runId }, { client }) => Runs.cancelRun(client, runId)
})
