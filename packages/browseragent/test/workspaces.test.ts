/** The workspace actions on the wire (nock): requests pinned, realistic answers read. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { API, API_KEY, executor, run, withFetch } from "./support.js"

const browserUse = () => nock(API, { reqheaders: { "x-browser-use-api-key": API_KEY, accept: "application/json" } })

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

const S3 = "https://bu-workspaces.s3.us-east-1.amazonaws.com"
const presigned = (key: string, expires: number) =>
  `${S3}/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAEXAMPLE%2F20261121%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261121T100000Z&X-Amz-Expires=${expires}&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost&X-Amz-Signature=${"ab".repeat(32)}`
/** S3, which must never see the Browser Use key. */
const s3 = () => nock(S3, { badheaders: ["x-browser-use-api-key"] })
const dir = mkdtempSync(join(tmpdir(), "browseragent-workspaces-"))

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

  // The Content-Length of the PUT is set below fetch, where nock does not see it: the
  // simulator's tests pin it (a PUT whose length is not the declared size is refused there).
  it.effect("uploadWorkspaceFile: POST …/files/upload {name, contentType, size}, then the bytes PUT to the presigned URL with that type, no API key", () =>
    Effect.gen(function*() {
      const path = join(dir, "data.csv")
      writeFileSync(path, "name,price\nmouse,19.99\n")
      const size = statSync(path).size
      const uploadUrl = presigned(`workspaces/${WORKSPACE}/uploads/data.csv`, 300)
      const api = browserUse()
        .post(`/api/v3/workspaces/${WORKSPACE}/files/upload`, { files: [{ name: "data.csv", contentType: "text/csv", size }] })
        .query({ prefix: "uploads/" })
        .reply(200, { files: [{ name: "data.csv", uploadUrl, path: "uploads/data.csv" }] })
      let put = ""
      const storage = s3()
        .put(`/workspaces/${WORKSPACE}/uploads/data.csv`, (body) => {
          put = typeof body === "string" ? body : Buffer.from(body as never).toString()
          return true
        })
        .query((query) => query["X-Amz-Signature"] === "ab".repeat(32) && query["X-Amz-Expires"] === "300")
        .matchHeader("content-type", "text/csv")
        .reply(200, "", { etag: "\"5d41402abc4b2a76b9719d911017c592\"" })
      const uploaded = yield* run("uploadWorkspaceFile", { workspaceId: WORKSPACE, file: { path }, prefix: "uploads/" })
      expect(uploaded).toEqual({ path: "uploads/data.csv", name: "data.csv", size, contentType: "text/csv" })
      expect(put).toBe("name,price\nmouse,19.99\n")
      expect(api.isDone()).toBe(true)
      expect(storage.isDone()).toBe(true)
    }))

  it.effect("uploadWorkspaceFile: base64 with a name and type; no prefix means none sent", () =>
    Effect.gen(function*() {
      const uploadUrl = presigned(`workspaces/${WORKSPACE}/shot.png`, 300)
      const api = browserUse()
        .post(`/api/v3/workspaces/${WORKSPACE}/files/upload`, { files: [{ name: "shot.png", contentType: "image/png", size: 4 }] })
        .reply(200, { files: [{ name: "shot.png", uploadUrl, path: "shot.png" }] })
      const storage = s3().put(`/workspaces/${WORKSPACE}/shot.png`, Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("hex"))
        .query(true).matchHeader("content-type", "image/png").reply(200)
      expect(yield* run("uploadWorkspaceFile", { workspaceId: WORKSPACE, file: { base64: "iVBORw==", name: "shot.png" } }))
        .toEqual({ path: "shot.png", name: "shot.png", size: 4, contentType: "image/png" })
      expect(api.isDone() && storage.isDone()).toBe(true)
    }))

  it.effect("uploadWorkspaceFile: a file over 100 MiB is an InvalidInput before anything is sent; S3's refusal is a typed error", () =>
    Effect.gen(function*() {
      const big = join(dir, "big.bin")
      // A sparse file: 100 MiB and one byte, no disk used.
      closeSync(openSync(big, "w"))
      const fd = openSync(big, "r+")
      writeFileSync(fd, Buffer.from([1]), { flag: "r+" } as never)
      closeSync(fd)
      const { truncateSync } = yield* Effect.promise(() => import("node:fs"))
      truncateSync(big, 100 * 1024 * 1024 + 1)
      const sent: Array<string> = []
      nock(/.*/).persist().post(/.*/).reply(200, {}).put(/.*/).reply(200)
        .on("request", (req: { method: string; path: string }) => sent.push(`${req.method} ${req.path}`))
      const error = yield* Effect.flip(run("uploadWorkspaceFile", { workspaceId: WORKSPACE, file: { path: big } }))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "file" }] })
      expect(error.message).toMatch(/^file is 100 MiB \(104857601 bytes\), over its limit of 100 MiB \(104857600 bytes\)$/)
      expect(sent).toEqual([])
      nock.cleanAll()

      const uploadUrl = presigned(`workspaces/${WORKSPACE}/late.txt`, 300)
      browserUse().post(`/api/v3/workspaces/${WORKSPACE}/files/upload`).reply(200, { files: [{ name: "late.txt", uploadUrl, path: "late.txt" }] })
      s3().put(`/workspaces/${WORKSPACE}/late.txt`).query(true).reply(403, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>`, { "content-type": "application/xml" })
      const refused = yield* Effect.flip(run("uploadWorkspaceFile", { workspaceId: WORKSPACE, file: { base64: "aGk=", name: "late.txt" } }))
      expect(refused).toMatchObject({ _tag: "PermissionDenied", status: 403 })
    }))

  it.effect("downloadWorkspaceFile: the listing at the path with includeUrls, then the presigned URL (no API key) streamed to the path", () =>
    Effect.gen(function*() {
      const url = presigned(`workspaces/${WORKSPACE}/out/report.csv`, 60)
      const api = browserUse()
        .get(`/api/v3/workspaces/${WORKSPACE}/files`).query({ prefix: "out/report.csv", includeUrls: "true", limit: 1 })
        .reply(200, { files: [wireFile("out/report.csv", { size: 13, url })], folders: [], nextCursor: null, hasMore: false })
      const storage = s3().get(`/workspaces/${WORKSPACE}/out/report.csv`).query(true)
        .reply(200, "a,b\n1,2\n3,4\n\n", { "content-type": "text/csv", "content-length": "13" })
      const to = join(dir, "report.csv")
      const downloaded = yield* run("downloadWorkspaceFile", { workspaceId: WORKSPACE, path: "out/report.csv", to })
      expect(downloaded).toEqual({ path: to, size: 13, contentType: "text/csv", workspacePath: "out/report.csv" })
      expect(readFileSync(to, "utf8")).toBe("a,b\n1,2\n3,4\n\n")
      expect(statSync(to).mode & 0o777).toBe(0o600)
      expect(api.isDone() && storage.isDone()).toBe(true)
    }))

  it.effect("downloadWorkspaceFile: a path the listing does not start with is a NotFound, nothing downloaded", () =>
    Effect.gen(function*() {
      browserUse().get(`/api/v3/workspaces/${WORKSPACE}/files`).query(true)
        .reply(200, { files: [wireFile("out/report.csv.bak", { url: presigned("x", 60) })], folders: [], nextCursor: null, hasMore: true })
      const storage = s3().get(/.*/).query(true).reply(200, "wrong file")
      const error = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: WORKSPACE, path: "out/report.csv", to: join(dir, "none.csv") }))
      expect(error).toMatchObject({ _tag: "NotFound", message: `no file out/report.csv in workspace ${WORKSPACE}` })
      expect(storage.isDone()).toBe(false)
    }))
})
