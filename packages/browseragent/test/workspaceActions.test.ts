/** The workspace actions beyond create/list/upload/download on the wire (nock): requests pinned, realistic answers read. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { API, API_KEY, executor, run, withFetch } from "./support.js"

const WORKSPACE = "7d3e1c9a-2b4f-4e6d-8a1c-3f5e7b9d0a2c"
const wireWorkspace = (overrides: Record<string, unknown> = {}) => ({
  id: WORKSPACE,
  name: "Research",
  createdAt: "2026-11-21T10:00:00Z",
  updatedAt: "2026-11-21T10:00:00Z",
  ...overrides
})

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })

const S3 = "https://bu-workspaces.s3.us-east-1.amazonaws.com"
const presigned = (key: string) =>
  `${S3}/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAEXAMPLE%2F20261121%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261121T100000Z&X-Amz-Expires=300&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost&X-Amz-Signature=${"cd".repeat(32)}`
/** S3, which must never see the Browser Use key. */
const s3 = () => nock(S3, { badheaders: ["x-browser-use-api-key"] })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

describe("browseragent workspace actions (get, update, delete, size, several uploads, file delete): the wire", () => {
  it.effect("getWorkspace: GET /workspaces/{id}; an unknown one is a NotFound with the provider's detail", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .get(`/api/v3/workspaces/${WORKSPACE}`).reply(200, wireWorkspace({ updatedAt: "2026-11-22T08:30:00Z" }))
        .get(`/api/v3/workspaces/${WORKSPACE}`).reply(404, { detail: "Workspace not found" })
      expect(yield* run("getWorkspace", { workspaceId: WORKSPACE })).toEqual(wireWorkspace({ updatedAt: "2026-11-22T08:30:00Z" }))
      expect(yield* Effect.flip(run("getWorkspace", { workspaceId: WORKSPACE }))).toMatchObject({ _tag: "NotFound", message: "Workspace not found" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("updateWorkspace: PATCH /workspaces/{id} {name}; without a name, {name: null} clears it; over 100 characters is refused before any request", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .patch(`/api/v3/workspaces/${WORKSPACE}`, { name: "Q4 research" }).matchHeader("content-type", "application/json")
        .reply(200, wireWorkspace({ name: "Q4 research", updatedAt: "2026-11-22T09:00:00Z" }))
        .patch(`/api/v3/workspaces/${WORKSPACE}`, { name: null }).reply(200, wireWorkspace({ name: null }))
      expect(yield* run("updateWorkspace", { workspaceId: WORKSPACE, name: "Q4 research" }))
        .toEqual(wireWorkspace({ name: "Q4 research", updatedAt: "2026-11-22T09:00:00Z" }))
      expect(yield* run("updateWorkspace", { workspaceId: WORKSPACE })).toMatchObject({ id: WORKSPACE, name: null })
      expect(scope.isDone()).toBe(true)
      const error = yield* Effect.flip(run("updateWorkspace", { workspaceId: WORKSPACE, name: "x".repeat(101) }))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "name" }] })
    }))

  it.effect("deleteWorkspace: DELETE /workspaces/{id}, 204 read as {workspaceId, deleted}; a bad id is refused before any request", () =>
    Effect.gen(function*() {
      const scope = browserUse().delete(`/api/v3/workspaces/${WORKSPACE}`).reply(204)
      expect(yield* run("deleteWorkspace", { workspaceId: WORKSPACE })).toEqual({ workspaceId: WORKSPACE, deleted: true })
      expect(scope.isDone()).toBe(true)
      const bad = yield* Effect.flip(run("deleteWorkspace", { workspaceId: "../sessions" }))
      expect(bad).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "workspaceId" }] })
    }))

  it.effect("getWorkspaceSize: GET /workspaces/{id}/size; the byte and file counts read, the whole answer kept (the document leaves it untyped)", () =>
    Effect.gen(function*() {
      const answer = { workspaceId: WORKSPACE, usedBytes: 48213, fileCount: 3, quotaBytes: 1073741824 }
      const scope = browserUse()
        .get(`/api/v3/workspaces/${WORKSPACE}/size`).reply(200, answer)
        .get(`/api/v3/workspaces/${WORKSPACE}/size`).reply(200, { size_mb: 0.05 })
      expect(yield* run("getWorkspaceSize", { workspaceId: WORKSPACE })).toEqual({ workspaceId: WORKSPACE, usedBytes: 48213, fileCount: 3, usage: answer })
      // An answer of another shape: nothing invented, all of it kept.
      expect(yield* run("getWorkspaceSize", { workspaceId: WORKSPACE })).toEqual({ workspaceId: WORKSPACE, usedBytes: null, fileCount: null, usage: { size_mb: 0.05 } })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("deleteWorkspaceFile: DELETE /workspaces/{id}/files?path=…, 204; a missing file is a NotFound", () =>
    Effect.gen(function*() {
      const scope = browserUse()
        .delete(`/api/v3/workspaces/${WORKSPACE}/files`).query({ path: "out/report 1.csv" }).reply(204)
        .delete(`/api/v3/workspaces/${WORKSPACE}/files`).query({ path: "gone.txt" }).reply(404, { detail: "File not found" })
      expect(yield* run("deleteWorkspaceFile", { workspaceId: WORKSPACE, path: "out/report 1.csv" }))
        .toEqual({ workspaceId: WORKSPACE, path: "out/report 1.csv", deleted: true })
      expect(yield* Effect.flip(run("deleteWorkspaceFile", { workspaceId: WORKSPACE, path: "gone.txt" }))).toMatchObject({ _tag: "NotFound", message: "File not found" })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("uploadWorkspaceFiles: one POST …/files/upload declaring every file, then each file PUT to its own URL, in order", () =>
    Effect.gen(function*() {
      const api = browserUse()
        .post(`/api/v3/workspaces/${WORKSPACE}/files/upload`, {
          files: [{ name: "a.csv", contentType: "text/csv", size: 4 }, { name: "b.json", contentType: "application/json", size: 2 }]
        })
        .query({ prefix: "in/" })
        .reply(200, { files: [
          { name: "a.csv", uploadUrl: presigned(`workspaces/${WORKSPACE}/in/a.csv`), path: "in/a.csv" },
          { name: "b.json", uploadUrl: presigned(`workspaces/${WORKSPACE}/in/b.json`), path: "in/b.json" }
        ] })
      const order: Array<string> = []
      const storage = s3()
        .put(`/workspaces/${WORKSPACE}/in/a.csv`, (body) => (order.push("a.csv"), Buffer.from(body as never).toString() === "x,y\n" || body === "x,y\n"))
        .query(true).matchHeader("content-type", "text/csv").reply(200)
        .put(`/workspaces/${WORKSPACE}/in/b.json`, (body) => (order.push("b.json"), JSON.stringify(body) === "{}" || body === "{}"))
        .query(true).matchHeader("content-type", "application/json").reply(200)
      const uploaded = yield* run("uploadWorkspaceFiles", {
        workspaceId: WORKSPACE,
        prefix: "in/",
        files: [{ base64: Buffer.from("x,y\n").toString("base64"), name: "a.csv" }, { base64: Buffer.from("{}").toString("base64"), name: "b.json" }]
      })
      expect(uploaded).toEqual({ files: [
        { path: "in/a.csv", name: "a.csv", size: 4, contentType: "text/csv" },
        { path: "in/b.json", name: "b.json", size: 2, contentType: "application/json" }
      ] })
      expect(order).toEqual(["a.csv", "b.json"])
      expect(api.isDone() && storage.isDone()).toBe(true)
    }))

  it.effect("uploadWorkspaceFiles: when the second PUT is refused, the error keeps its tag and names the file and what was uploaded; the third is not sent", () =>
    Effect.gen(function*() {
      const names = ["one.txt", "two.txt", "three.txt"]
      browserUse().post(`/api/v3/workspaces/${WORKSPACE}/files/upload`)
        .reply(200, { files: names.map((name) => ({ name, uploadUrl: presigned(`workspaces/${WORKSPACE}/${name}`), path: name })) })
      const storage = s3()
        .put(`/workspaces/${WORKSPACE}/one.txt`).query(true).reply(200)
        .put(`/workspaces/${WORKSPACE}/two.txt`).query(true)
        .reply(403, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>`, { "content-type": "application/xml" })
        .put(`/workspaces/${WORKSPACE}/three.txt`).query(true).reply(200)
      const error = yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: WORKSPACE, files: names.map((name) => ({ base64: "aGk=", name })) }))
      expect(error).toMatchObject({ _tag: "PermissionDenied", status: 403 })
      expect(error.message).toMatch(/^uploading two\.txt \(file 2 of 3\) failed: [\s\S]*Request has expired[\s\S]*; uploaded before it: one\.txt$/)
      expect(storage.pendingMocks()).toEqual([expect.stringContaining("three.txt")])
    }))

  it.effect("uploadWorkspaceFiles: no files, more than 10, two of the same name, or answers for other files: refused, nothing PUT", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().post(/.*/).reply(200, {}).put(/.*/).reply(200)
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      expect(yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: WORKSPACE, files: [] }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "files" }] })
      const eleven = Array.from({ length: 11 }, (_, i) => ({ base64: "aGk=", name: `f${i}.txt` }))
      expect(yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: WORKSPACE, files: eleven }))).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "files" }] })
      const twice = yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: WORKSPACE, files: [{ base64: "aGk=", name: "a.txt" }, { base64: "aG8=", name: "a.txt" }] }))
      expect(twice).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "files[1]", message: expect.stringContaining("same name") }] })
      expect(sent).toEqual([])
      nock.cleanAll()

      browserUse().post(`/api/v3/workspaces/${WORKSPACE}/files/upload`)
        .reply(200, { files: [{ name: "b.txt", uploadUrl: presigned(`workspaces/${WORKSPACE}/b.txt`), path: "b.txt" }] })
      const storage = s3().put(/.*/).query(true).reply(200)
      const wrong = yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: WORKSPACE, files: [{ base64: "aGk=", name: "a.txt" }, { base64: "aG8=", name: "b.txt" }] }))
      expect(wrong).toMatchObject({ _tag: "UnexpectedResponse", message: "asked for upload URLs for a.txt, b.txt, got them for b.txt" })
      expect(storage.isDone()).toBe(false)
    }))

  it.effect("options: deleteWorkspaceFile offers the chosen workspace's files, every page", () =>
    Effect.gen(function*() {
      const file = (path: string) => ({ path, size: 1, lastModified: "2026-11-21T10:05:00Z", url: null })
      const scope = browserUse()
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 100 })
        .reply(200, { files: [file("a.txt")], folders: [], nextCursor: "YS50eHQ", hasMore: true })
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ limit: 100, cursor: "YS50eHQ" })
        .reply(200, { files: [file("b.txt")], folders: [], nextCursor: null, hasMore: false })
      expect(yield* withFetch(executor.options("browseragent/v1/deleteWorkspaceFile", "path", { workspaceId: WORKSPACE }))).toEqual([
        { label: "a.txt", value: "a.txt" },
        { label: "b.txt", value: "b.txt" }
      ])
      expect(scope.isDone()).toBe(true)
    }))
})
