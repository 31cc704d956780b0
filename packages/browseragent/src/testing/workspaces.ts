/**
 * The simulated `/workspaces` endpoints of Browser Use v3: workspaces (create, get, update,
 * list by `pageNumber`/`pageSize`, delete with their files) and their files, kept in the
 * simulator's object storage (`./storage.ts`): listed in key order by `limit` and opaque
 * `cursor` (`nextCursor`, `hasMore`), under a `prefix`, `shallow` (immediate files and
 * `folders`) or not, with presigned GET URLs (60 s) when `includeUrls=true`; uploaded through
 * presigned PUT URLs (5 minutes) that `POST …/files/upload` hands out for each declared file
 * (its `size` required); deleted one by one (`DELETE …/files?path=`). A workspace's size
 * (`GET …/size`, which the v3 document leaves untyped) is `{workspaceId, usedBytes, fileCount}`.
 */
import { randomUUID } from "node:crypto"
import { Detail, type Issue, invalid, integerQuery, booleanQuery, jsonObject, Reply, uuidPath } from "./fastapi.js"
import type { Storage } from "./storage.js"

export interface SimulatedWorkspace {
  readonly id: string
  name: string | null
  readonly createdAt: number
  updatedAt: number
}

/** How long the presigned URLs last, as the service documents them. */
export const downloadUrlSeconds = 60
export const uploadUrlSeconds = 300

export interface Workspaces {
  readonly workspaces: Map<string, SimulatedWorkspace>
  /** Answers a request to `/workspaces…`; undefined for any other path. */
  readonly route: (method: string, path: string, query: URLSearchParams, raw: string) => unknown
}

const keyOf = (workspaceId: string, path: string) => `workspaces/${workspaceId}/${path}`
const encodeCursor = (after: string) => Buffer.from(after, "utf8").toString("base64url")

const name = (body: Record<string, unknown>): string | null => {
  const value = body["name"]
  if (value === undefined || value === null) return null
  if (typeof value !== "string") throw invalid({ loc: ["body", "name"], msg: "Input should be a valid string", type: "string_type" })
  if (value.length > 100) throw invalid({ loc: ["body", "name"], msg: "String should have at most 100 characters", type: "string_too_long" })
  return value
}

/** The declared files of an upload request, checked as `FileUploadRequest` is. */
const declaredFiles = (body: Record<string, unknown>) => {
  const files = body["files"]
  if (files === undefined) throw invalid({ loc: ["body", "files"], msg: "Field required", type: "missing" })
  if (!Array.isArray(files)) throw invalid({ loc: ["body", "files"], msg: "Input should be a valid list", type: "list_type" })
  if (files.length < 1) throw invalid({ loc: ["body", "files"], msg: "List should have at least 1 item after validation, not 0", type: "too_short" })
  if (files.length > 10) throw invalid({ loc: ["body", "files"], msg: `List should have at most 10 items after validation, not ${files.length}`, type: "too_long" })
  const issues: Array<Issue> = []
  const declared = files.map((file: unknown, index) => {
    const at = (field: string) => ["body", "files", index, field]
    if (typeof file !== "object" || file === null || Array.isArray(file)) {
      issues.push({ loc: ["body", "files", index], msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" })
      return undefined
    }
    const { name, contentType = "application/octet-stream", size } = file as Record<string, unknown>
    if (name === undefined) issues.push({ loc: at("name"), msg: "Field required", type: "missing" })
    else if (typeof name !== "string") issues.push({ loc: at("name"), msg: "Input should be a valid string", type: "string_type" })
    else if (name.length < 1) issues.push({ loc: at("name"), msg: "String should have at least 1 character", type: "string_too_short" })
    else if (name.length > 255) issues.push({ loc: at("name"), msg: "String should have at most 255 characters", type: "string_too_long" })
    if (typeof contentType !== "string") issues.push({ loc: at("contentType"), msg: "Input should be a valid string", type: "string_type" })
    else if (contentType.length > 255) issues.push({ loc: at("contentType"), msg: "String should have at most 255 characters", type: "string_too_long" })
    if (size === undefined || size === null) issues.push({ loc: at("size"), msg: "Field required for workspace uploads", type: "missing" })
    else if (typeof size !== "number" || !Number.isInteger(size)) issues.push({ loc: at("size"), msg: "Input should be a valid integer", type: "int_type" })
    else if (size < 1) issues.push({ loc: at("size"), msg: "Input should be greater than or equal to 1", type: "greater_than_equal" })
    return { name: name as string, contentType: contentType as string, size: size as number }
  })
  if (issues.length > 0) throw invalid(...issues)
  return declared as ReadonlyArray<{ readonly name: string; readonly contentType: string; readonly size: number }>
}

export const make = (storage: Storage): Workspaces => {
  const workspaces = new Map<string, SimulatedWorkspace>()

  const view = (workspace: SimulatedWorkspace) => ({
    id: workspace.id,
    name: workspace.name,
    createdAt: new Date(workspace.createdAt).toISOString(),
    updatedAt: new Date(workspace.updatedAt).toISOString()
  })

  const find = (id: string): SimulatedWorkspace => {
    const workspace = workspaces.get(id)
    if (workspace === undefined) throw new Detail(404, "Workspace not found")
    return workspace
  }

  /** The workspace's files, by path, in key order. */
  const filesOf = (workspace: SimulatedWorkspace) => {
    const root = keyOf(workspace.id, "")
    return [...storage.objects.entries()]
      .filter(([key]) => key.startsWith(root))
      .map(([key, object]) => ({ path: key.slice(root.length), object }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  // As FastAPI does, the path, query and body are validated (422) before the workspace is looked up (404).
  const listFiles = (id: string, query: URLSearchParams) => {
    const prefix = query.get("prefix") ?? ""
    const limit = integerQuery(query, "limit", 50, 1, 100)
    const includeUrls = booleanQuery(query, "includeUrls")
    const shallow = booleanQuery(query, "shallow")
    const cursor = query.get("cursor")
    let after = ""
    if (cursor !== null && cursor !== "") {
      after = Buffer.from(cursor, "base64url").toString("utf8")
      if (encodeCursor(after) !== cursor) throw invalid({ loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" })
    }
    const workspace = find(id)
    // Entries in key order: files, and with `shallow` the folders right under the prefix.
    const entries: Array<{ readonly path: string; readonly folder: boolean }> = []
    for (const { path } of filesOf(workspace)) {
      if (!path.startsWith(prefix)) continue
      const slash = path.indexOf("/", prefix.length)
      if (shallow && slash >= 0) {
        const folder = path.slice(0, slash + 1)
        if (entries.at(-1)?.path !== folder) entries.push({ path: folder, folder: true })
      } else entries.push({ path, folder: false })
    }
    const start = entries.findIndex((entry) => entry.path > after)
    const page = start < 0 ? [] : entries.slice(start, start + limit)
    const hasMore = start >= 0 && start + limit < entries.length
    return {
      files: page.filter((entry) => !entry.folder).map(({ path }) => {
        const object = storage.objects.get(keyOf(workspace.id, path))!
        return {
          path,
          size: object.bytes.length,
          lastModified: new Date(object.lastModified).toISOString(),
          url: includeUrls ? storage.presignGet(keyOf(workspace.id, path), downloadUrlSeconds) : null
        }
      }),
      folders: page.filter((entry) => entry.folder).map(({ path }) => path.slice(prefix.length, -1)),
      nextCursor: hasMore ? encodeCursor(page.at(-1)!.path) : null,
      hasMore
    }
  }

  const upload = (id: string, query: URLSearchParams, raw: string) => {
    const files = declaredFiles(jsonObject(raw))
    const workspace = find(id)
    const given = query.get("prefix") ?? ""
    const prefix = given === "" || given.endsWith("/") ? given : `${given}/`
    return {
      files: files.map((file) => ({
        name: file.name,
        uploadUrl: storage.presignPut(keyOf(workspace.id, prefix + file.name), file.contentType, file.size, uploadUrlSeconds),
        path: prefix + file.name
      }))
    }
  }

  /** The bytes the workspace's files take, and how many there are. */
  const size = (id: string) => {
    const files = filesOf(find(id))
    return { workspaceId: id, usedBytes: files.reduce((total, { object }) => total + object.bytes.length, 0), fileCount: files.length }
  }

  const route = (method: string, path: string, query: URLSearchParams, raw: string): unknown => {
    if (path === "/workspaces") {
      if (method === "POST") {
        const now = Date.now()
        const workspace: SimulatedWorkspace = { id: randomUUID(), name: name(jsonObject(raw, false)), createdAt: now, updatedAt: now }
        workspaces.set(workspace.id, workspace)
        return new Reply(201, view(workspace))
      }
      if (method === "GET") {
        const pageSize = integerQuery(query, "pageSize", 10, 1, 100)
        const pageNumber = integerQuery(query, "pageNumber", 1, 1, Number.MAX_SAFE_INTEGER)
        const all = [...workspaces.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
        return { items: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize).map(view), totalItems: all.length, pageNumber, pageSize }
      }
      throw new Detail(405, "Method Not Allowed")
    }
    const match = /^\/workspaces\/([^/]+)(\/files(\/upload)?|\/size)?$/.exec(path)
    if (match === null) return undefined
    const id = uuidPath(decodeURIComponent(match[1]!), "workspace_id")
    if (match[2] === "/size") {
      if (method === "GET") return size(id)
    } else if (match[3] !== undefined) {
      if (method === "POST") return upload(id, query, raw)
    } else if (match[2] !== undefined) {
      if (method === "GET") return listFiles(id, query)
      if (method === "DELETE") {
        const file = query.get("path")
        if (file === null) throw invalid({ loc: ["query", "path"], msg: "Field required", type: "missing" })
        const workspace = find(id)
        if (!storage.objects.delete(keyOf(workspace.id, file))) throw new Detail(404, "File not found")
        return new Reply(204)
      }
    } else {
      if (method === "GET") return view(find(id))
      if (method === "PATCH") {
        const renamed = name(jsonObject(raw))
        const workspace = find(id)
        workspace.name = renamed
        workspace.updatedAt = Date.now()
        return view(workspace)
      }
      if (method === "DELETE") {
        const workspace = find(id)
        for (const { path } of filesOf(workspace)) storage.objects.delete(keyOf(workspace.id, path))
        workspaces.delete(workspace.id)
        return new Reply(204)
      }
    }
    throw new Detail(405, "Method Not Allowed")
  }

  return { workspaces, route }
}
