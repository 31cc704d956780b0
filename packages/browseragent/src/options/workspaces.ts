/** Dynamic options: the workspaces (every page), a workspace's files. */
import { Choice, DynamicOptions, Pagination } from "@x/core"
import * as Effect from "effect/Effect"
import * as Workspaces from "../api/workspaces.js"

export const workspaces = DynamicOptions.make([], ({ client }) =>
  Effect.map(Pagination.collect(Workspaces.workspaces(client)), (items) =>
    Choice.fromRecords(items, (w) => w.name ?? w.id, (w) => w.id)))

export const workspaceFiles = DynamicOptions.make(["workspaceId"], ({ client, params }) =>
  Effect.map(Pagination.collect(Workspaces.workspaceFiles(client, DynamicOptions.dependency(params, "workspaceId"))), (files) =>
    Choice.fromRecords(files, (f) => f.path, (f) => f.path)))
