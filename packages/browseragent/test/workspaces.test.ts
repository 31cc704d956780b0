/** The workspace actions on the wire (nock): requests pinned, realistic answers read. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, API_KEY, connection, executor, step, withFetch } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })
const run = (action: string, parameters: Record<string, unknown>) => withFetch(executor.run(step(action, parameters)), connection)

export const WORKSPACE = "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c"
export const wireWorkspace = (overrides: Record<string, unknown> = {}) => ({
  id: WORKSPACE,
  name: "Research",
  createdAt: "2026-11-21T10:00:00Z",
  updatedAt: "2026-11-21T10:00:00Z",
  ...overrides
})
const workspaceId = (n: number) => `7d3e1c9a-2b4f-4e6d-8a1c-${String(n).padStart(12, "0")}`
const wireFile = (path: string, overrides: Record<string, unknown> = {}) => ({ path, size: 1024, lastModified: "2026-11-21T10:05:00Z", url: null, ...overrides })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent workspace actions: the wire", () => {
  it.effect("createWorkspace: POST /workspaces {name}, 201 read; without a name the body is {}", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .post("/api/v3/workspaces", { name: "Research" }).matchHeader("content-type", "application/json").reply(201, wireWorkspace())
        .post("/api/v3/workspaces", {}).reply(201, wireWorkspace({ name: null }))
      expect(yield* run("createWorkspace", { name: "Research" })).toEqual(wireWorkspace())
      expect(yield* run("createWorkspace", {})).toEqual(wireWorkspace({ name: null }))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("createWorkspace: a name over 100 characters is refused before any request", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(run("createWorkspace", { name: "x".repeat(101) }))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "name" }] })
    }))

  it.effect("listWorkspaces: pageNumber 1, 2, … with pageSize=100 until totalItems; the limit caps it", () =>
    Effect.gen(function*() {
      const page = (n: number, count: number) => Array.from({ length: count }, (_, i) => wireWorkspace({ id: workspaceId(n * 1000 + i), name: `W${n}.${i}` }))
      const scope = browserUse()
        .get("/api/v3/workspaces").query({ pageNumber: 1, pageSize: 100 }).reply(200, { items: page(1, 100), totalItems: 120, pageNumber: 1, pageSize: 100 })
        .get("/api/v3/workspaces").query({ pageNumber: 2, pageSize: 100 }).reply(200, { items: page(2, 20), totalItems: 120, pageNumber: 2, pageSize: 100 })
      const listed = (yield* run("listWorkspaces", { limit: 500 })) as { workspaces: Array<{ id: string; name: string }> }
      expect(listed.workspaces).toHaveLength(120)
      expect(listed.workspaces[100]).toEqual(wireWorkspace({ id: workspaceId(2000), name: "W2.0" }))
      expect(scope.isDone()).toBe(true)

      browserUse().get("/api/v3/workspaces").query({ pageNumber: 1, pageSize: 100 }).reply(200, { items: page(1, 100), totalItems: 120, pageNumber: 1, pageSize: 100 })
      const capped = (yield* run("listWorkspaces", { limit: 30 })) as { workspaces: ReadonlyArray<unknown> }
      expect(capped.workspaces).toHaveLength(30)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("listWorkspaceFiles: limit and prefix, then each page's cursor (asking only for what the limit leaves) until nextCursor is null", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 100, prefix: "uploads/" })
        .reply(200, { files: [wireFile("uploads/a.csv"), wireFile("uploads/b.csv")], folders: [], nextCursor: "dXBsb2Fkcy9iLmNzdg", hasMore: true })
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 98, prefix: "uploads/", cursor: "dXBsb2Fkcy9iLmNzdg" })
        .reply(200, { files: [wireFile("uploads/c.csv", { size: 7 })], folders: [], nextCursor: null, hasMore: false })
      const listed = yield* run("listWorkspaceFiles", { workspaceId: WORKSPACE, prefix: "uploads/" })
      expect(listed).toEqual({
        files: [
          { path: "uploads/a.csv", size: 1024, lastModified: "2026-11-21T10:05:00Z" },
          { path: "uploads/b.csv", size: 1024, lastModified: "2026-11-21T10:05:00Z" },
          { path: "uploads/c.csv", size: 7, lastModified: "2026-11-21T10:05:00Z" }
        ]
      })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("listWorkspaceFiles: an unknown workspace is a NotFound with the provider's detail; a bad id is refused before any request", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/workspaces/${WORKSPACE}/files`).query(true).reply(404, { detail: "Workspace not found" })
      const missing = yield* Effect.flip(run("listWorkspaceFiles", { workspaceId: WORKSPACE }))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "Workspace not found" })
      const bad = yield* Effect.flip(run("listWorkspaceFiles", { workspaceId: "research" }))
      expect(bad).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "workspaceId", message: expect.stringContaining("workspace id") }] })
    }))

  it.effect("options: the workspaces (every page), and a workspace's file paths once it is chosen", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get("/api/v3/workspaces").query({ pageNumber: 1, pageSize: 100 })
        .reply(200, { items: [wireWorkspace(), wireWorkspace({ id: workspaceId(2), name: null })], totalItems: 2, pageNumber: 1, pageSize: 100 })
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 100 })
        .reply(200, { files: [wireFile("notes.txt"), wireFile("out/report.pdf")], folders: [], nextCursor: null, hasMore: false })
      expect(yield* withFetch(executor.options("browseragent/v1/listWorkspaceFiles", "workspaceId", {}))).toEqual([
        { label: "Research", value: WORKSPACE },
        { label: workspaceId(2), value: workspaceId(2) }
      ])
      expect(scope.pendingMocks()).toHaveLength(1)
      expect(yield* withFetch(executor.options("browseragent/v1/downloadWorkspaceFile", "path", { workspaceId: WORKSPACE }))).toEqual([
        { label: "notes.txt", value: "notes.txt" },
        { label: "out/report.pdf", value: "out/report.pdf" }
      ])
      expect(scope.isDone()).toBe(true)
    }))
})
