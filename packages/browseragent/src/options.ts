/** Dynamic options: the sessions (every page), labelled by title and status. */
import { Options } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api.js"

export const sessions = Options.dynamic([], ({ client }) =>
  Effect.map(Api.listSessions(client), (items) =>
    Options.choices(items, (s) => `${s.title ?? s.id} (${s.status})`, (s) => s.id)))

/** Session ids are UUIDs. */
export const sessionId = {
  pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  patternMessage: "must be a session id (a UUID)"
}
