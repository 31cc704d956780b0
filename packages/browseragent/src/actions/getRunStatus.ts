import { Action } from "@x/core"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const getRunStatus = Action.make({
  name: "getRunStatus",
  title: "Get Run Status (V4)",
  impact: "read",
  description: "Reads only a run's status (queued, dispatching, running, completed, failed or cancelled): the cheap check.",
  props: {
    runId: Props.runId({ title: "Run", required: true })
  },
  output: Runs.RunStatus,
  run: ({ runId }, { client }) => Runs.runStatus(client, runId)
})
