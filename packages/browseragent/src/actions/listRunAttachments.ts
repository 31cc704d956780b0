import { Action } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Runs from "../api/runs.js"
import * as Props from "../props.js"

export const listRunAttachments = Action.make({
  name: "listRunAttachments",
  title: "List Run Attachments (V4)",
  impact: "read",
  description: "Lists the files attached to a run, in the order they were attached.",
  props: {
    runId: Props.runId({ title: "Run", required: true })
  },
  output: Schema.Struct({ attachments: Schema.Array(Runs.RunAttachment) }),
  run: ({ runId }, { client }) => Effect.map(Runs.runAttachments(client, runId), (attachments) => ({ attachments }))
})
