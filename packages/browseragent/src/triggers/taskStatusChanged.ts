import { Property, Trigger, Webhook } from "@x/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Webhooks from "../api/webhooks.js"
import { connection } from "../connection.js"

/** A signed delivery's JSON, as its verification parsed it; an unsigned one's text. */
const readDelivery = Schema.decodeUnknownEither(Webhooks.WebhookDelivery)
const readUnsignedDelivery = Schema.decodeUnknownEither(Schema.parseJson(Webhooks.WebhookDelivery))
const readStatus = Schema.decodeUnknownEither(Webhooks.WireTaskStatus)

export const taskStatusChanged = Trigger.staticWebhook({
  name: "taskStatusChanged",
  title: "Task Status Changed",
  description: "Fires when a task's status changes (running, idle, stopped), from the webhook set up in Browser Use's dashboard.",
  setup: `Add the URL as a webhook at ${Webhooks.webhookSettingsUrl}, and put its signing secret in the connection's webhookSecret.`,
  connection,
  signedWith: "webhookSecret",
  props: {
    statuses: Property.array({
      title: "Statuses",
      description: "Only these statuses (else: every change).",
      items: Property.string({ title: "Status", choices: Webhooks.webhookStatuses.map((value) => ({ label: value, value })) }),
      minItems: 1
    })
  },
  output: Webhooks.TaskStatusUpdate,

  handle: ({ connection, params, request }) =>
    Effect.gen(function*() {
      // Without the secret (`signedWith`) the executor refuses every delivery, unless the
      // operator chose to accept unsigned ones: then there is nothing to verify with. The
      // verification gives the body's JSON: the delivery is parsed once.
      const delivery = connection.webhookSecret !== undefined
        ? readDelivery(
          yield* Webhook.verifyHmacSha256SortedJsonHex({
            secret: connection.webhookSecret,
            body: request.body,
            timestamp: request.headers["x-browser-use-timestamp"],
            signature: request.headers["x-browser-use-signature"]
          })
        )
        : readUnsignedDelivery(new TextDecoder().decode(request.body))
      if (Either.isLeft(delivery)) return { response: { status: 400, body: "not a Browser Use delivery" }, events: [] }
      const ignored = { response: { status: 200 }, events: [] }
      if (delivery.right.type !== "agent.task.status_update") return ignored
      const task = readStatus(delivery.right.payload)
      if (Either.isLeft(task)) return { response: { status: 400, body: "not a task status update" }, events: [] }
      const { metadata, session_id, status, task_id } = task.right
      if (params.statuses !== undefined && !(params.statuses as ReadonlyArray<string>).includes(status)) return ignored
      const { timestamp } = delivery.right
      // A retry resends the same event: the same task, status and time make the same id.
      return {
        response: { status: 200 },
        events: [{ id: `${task_id}/${status}/${timestamp}`, output: { taskId: task_id, sessionId: session_id, status, metadata: metadata ?? {}, timestamp } }]
      }
    })
})
