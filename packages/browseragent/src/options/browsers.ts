/** Dynamic options: the browser sessions (every page), a browser session's downloads. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Browsers from "../api/browsers.js"

export const browserSessions = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Browsers.browserSessions(client)), (items) =>
    Choice.fromRecords(items, (s) => `${s.id} (${s.status}, from ${s.startedAt})`, (s) => s.id)))

export const browserDownloads = DynamicOptions.make(["sessionId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Browsers.browserDownloads(client, DynamicOptions.dependency(params, "sessionId"))), (files) =>
    Choice.fromRecords(files, (f) => f.path, (f) => f.path)))
