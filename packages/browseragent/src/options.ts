/** Dynamic options: the sessions (every page), labelled by title and status. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Api from "./api.js"

export const sessions = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Api.sessions(client)), (items) =>
    Choice.fromRecords(items, (s) => `${s.title ?? s.id} (${s.status})`, (s) => s.id)))
