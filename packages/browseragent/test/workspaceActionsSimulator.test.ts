/** The workspace actions beyond create/list/upload/download, end to end through the executor against the simulator; and the simulator's size endpoint on the wire. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
const dir = mkdtempSync(join(tmpdir(), "browseragent-workspace-actions-"))
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(async () => {
  await sim.close()
  rmSync(dir, { recursive: true, force: true })
})

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const UNKNOWN = "00000000-0000-4000-8000-ffffffffffff"

describe("browseragent workspace actions against the simulator", () => {
  it.effect("get, rename (then clear the name), and delete a workspace with its files; afterwards it is a NotFound", () =>
    Effect.gen(function*() {
      const created = (yield* run("createWorkspace", { name: "Drafts" })) as { id: string; createdAt: string }
      expect(yield* run("getWorkspace", { workspaceId: created.id })).toEqual({ ...created, name: "Drafts" })
      const renamed = (yield* run("updateWorkspace", { workspaceId: created.id, name: "Final" })) as { name: string; createdAt: string }
      expect(renamed).toMatchObject({ id: created.id, name: "Final", createdAt: created.createdAt })
      expect(sim.workspaces.get(created.id)?.name).toBe("Final")
      expect(yield* run("updateWorkspace", { workspaceId: created.id })).toMatchObject({ id: created.id, name: null })

      yield* run("uploadWorkspaceFile", { workspaceId: created.id, file: { base64: "aGk=", name: "a.txt" } })
      expect(yield* run("deleteWorkspace", { workspaceId: created.id })).toEqual({ workspaceId: created.id, deleted: true })
      expect(sim.workspaces.has(created.id)).toBe(false)
      expect([...sim.storage.objects.keys()].filter((key) => key.includes(created.id))).toEqual([])
      expect(yield* Effect.flip(run("getWorkspace", { workspaceId: created.id }))).toMatchObject({ _tag: "NotFound", message: "Workspace not found" })
      expect(yield* Effect.flip(run("deleteWorkspace", { workspaceId: created.id }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("updateWorkspace", { workspaceId: UNKNOWN, name: "x" }))).toMatchObject({ _tag: "NotFound" })
    }))

  it.effect("upload several files in one declaration, see the size grow, delete one file and the size shrink", () =>
    Effect.gen(function*() {
      const { id } = (yield* run("createWorkspace", {})) as { id: string }
      expect(yield* run("getWorkspaceSize", { workspaceId: id })).toEqual({ workspaceId: id, usedBytes: 0, fileCount: 0, usage: { workspaceId: id, usedBytes: 0, fileCount: 0 } })
      const local = join(dir, "table.csv")
      writeFileSync(local, "a,b\n1,2\n")
      const declarations = sim.storage.requests.length
      const uploaded = yield* run("uploadWorkspaceFiles", {
        workspaceId: id,
        prefix: "in",
        files: [{ path: local }, { base64: Buffer.from("hello world").toString("base64"), name: "note.txt" }]
      })
      expect(uploaded).toEqual({ files: [
        { path: "in/table.csv", name: "table.csv", size: 8, contentType: "text/csv" },
        { path: "in/note.txt", name: "note.txt", size: 11, contentType: "text/plain" }
      ] })
      expect(sim.storage.requests.slice(declarations).map((r) => [r.method, r.key, r.status])).toEqual([
        ["PUT", `workspaces/${id}/in/table.csv`, 200],
        ["PUT", `workspaces/${id}/in/note.txt`, 200]
      ])
      expect(sim.storage.objects.get(`workspaces/${id}/in/note.txt`)?.bytes.toString()).toBe("hello world")
      expect(yield* run("getWorkspaceSize", { workspaceId: id })).toMatchObject({ usedBytes: 19, fileCount: 2 })

      expect(yield* run("deleteWorkspaceFile", { workspaceId: id, path: "in/table.csv" })).toEqual({ workspaceId: id, path: "in/table.csv", deleted: true })
      expect(yield* run("getWorkspaceSize", { workspaceId: id })).toMatchObject({ usedBytes: 11, fileCount: 1 })
      const files = (yield* run("listWorkspaceFiles", { workspaceId: id })) as { files: Array<{ path: string }> }
      expect(files.files.map((f) => f.path)).toEqual(["in/note.txt"])
      expect(yield* Effect.flip(run("deleteWorkspaceFile", { workspaceId: id, path: "in/table.csv" }))).toMatchObject({ _tag: "NotFound", message: "File not found" })
      expect(yield* Effect.flip(run("getWorkspaceSize", { workspaceId: UNKNOWN }))).toMatchObject({ _tag: "NotFound", message: "Workspace not found" })
    }))

  it.effect("a missing local file among several is an InvalidInput naming it: nothing declared, nothing stored", () =>
    Effect.gen(function*() {
      const { id } = (yield* run("createWorkspace", {})) as { id: string }
      const before = sim.storage.requests.length
      const error = yield* Effect.flip(run("uploadWorkspaceFiles", { workspaceId: id, files: [{ base64: "aGk=", name: "ok.txt" }, { path: join(dir, "absent.csv") }] }))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "files[1]" }] })
      expect(sim.storage.requests.length).toBe(before)
      expect([...sim.storage.objects.keys()].filter((key) => key.includes(id))).toEqual([])
    }))
})

describe("simulator: GET /workspaces/{id}/size", () => {
  const get = async (path: string) => {
    const response = await fetch(`${sim.baseUrl}${path}`, { headers: { "x-browser-use-api-key": sim.apiKey } })
    return { status: response.status, body: await response.json() as unknown }
  }
  it("answers the bytes and files of the workspace; 404 for an unknown one, 422 for a bad id, 405 for another method", async () => {
    const { id } = await (await fetch(`${sim.baseUrl}/workspaces`, { method: "POST", headers: { "x-browser-use-api-key": sim.apiKey } })).json() as { id: string }
    sim.storage.objects.set(`workspaces/${id}/x/y.bin`, { bytes: Buffer.alloc(1000), contentType: "application/octet-stream", lastModified: Date.now(), etag: "\"e\"" })
    expect(await get(`/workspaces/${id}/size`)).toEqual({ status: 200, body: { workspaceId: id, usedBytes: 1000, fileCount: 1 } })
    expect(await get(`/workspaces/${UNKNOWN}/size`)).toEqual({ status: 404, body: { detail: "Workspace not found" } })
    expect(await get("/workspaces/nope/size")).toEqual({ status: 422, body: { detail: [{ loc: ["path", "workspace_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" }] } })
    const posted = await fetch(`${sim.baseUrl}/workspaces/${id}/size`, { method: "POST", headers: { "x-browser-use-api-key": sim.apiKey } })
    expect(posted.status).toBe(405)
  })
})
