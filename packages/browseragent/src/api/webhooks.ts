/** Browser Use's task webhooks (its webhook guide): what a delivery carries, and where it is registered. */
import * as Schema from "effect/Schema"

/** The task statuses a webhook delivery reports (Browser Use's webhook guide). */
export const webhookStatuses = ["running", "idle", "stopped"] as const

/** Where the user registers the webhook URL, in Browser Use's dashboard. */
export const webhookSettingsUrl = "https://cloud.browser-use.com/settings?tab=webhooks"

/**
 * A webhook delivery as the wire has it: `{type, timestamp, payload}`. Only
 * `agent.task.status_update` carries a task; `test` (the dashboard's ping) and any other type
 * are acknowledged and ignored.
 */
export const WebhookDelivery = Schema.Struct({
  type: Schema.String,
  timestamp: Schema.String,
  payload: Schema.Unknown
})

/** The payload of `agent.task.status_update` on the wire (snake_case). */
export const WireTaskStatus = Schema.Struct({
  task_id: Schema.String,
  session_id: Schema.String,
  status: Schema.String,
  metadata: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})

/** A task's status change, as the trigger emits it. */
export const TaskStatusUpdate = Schema.Struct({
  taskId: Schema.String,
  sessionId: Schema.String,
  /** `running`, `idle` or `stopped` (kept as sent, should the service add one). */
  status: Schema.String,
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** When the status changed (RFC 3339, as sent). */
  timestamp: Schema.String
})
export type TaskStatusUpdate = typeof TaskStatusUpdate.Type
