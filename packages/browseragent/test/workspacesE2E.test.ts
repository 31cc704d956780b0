/** The workspace actions end to end, against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

let sim: Simulator.Simulator
/** Added to the storage's clock on every reading: 0, or enough for a URL to expire between signing and use. */
let jump = 0
let skew = 0
const dir = mkdtempSync(join(tmpdir(), "browseragent-workspaces-e2e-"))
beforeAll(async () => {
  sim = await Simulator.start({ now: () => Date.now() + (skew += jump) })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)

/** Stores a file in the workspace as an upload through the presigned flow would. */
const seed = (workspaceId: string, path: string, content: string) =>
  sim.storage.objects.set(`workspaces/${workspaceId}/${path}`, { bytes: Buffer.from(content), contentType: "text/plain", lastModified: Date.now(), etag: "\"seeded\"" })

describe("browseragent workspaces against the simulator", () => {
  it.effect("create, then list every workspace across pages (and up to a limit)", () =>
    Effect.gen(function*() {
      const created = (yield* run("createWorkspace", { name: "Research" })) as { id: string; name: string }
      expect(created.name).toBe("Research")
      expect(sim.workspaces.get(created.id)?.name).toBe("Research")
      for (let i = 0; i < 104; i++) sim.workspaces.set(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, { id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, name: null, createdAt: 0, updatedAt: 0 })
      const all = (yield* run("listWorkspaces", { limit: 5000 })) as { workspaces: Array<{ id: string }> }
      expect(all.workspaces).toHaveLength(sim.workspaces.size)
      expect(new Set(all.workspaces.map((w) => w.id)).size).toBe(sim.workspaces.size)
      // Newest first: the one created through the API comes before the seeded ones.
      expect(all.workspaces[0]!.id).toBe(created.id)
      const some = (yield* run("listWorkspaces", { limit: 3 })) as { workspaces: ReadonlyArray<unknown> }
      expect(some.workspaces).toHaveLength(3)
    }))

  it.effect("list a workspace's files across cursor pages, under a prefix; an unknown workspace is a NotFound", () =>
    Effect.gen(function*() {
      const { id } = (yield* run("createWorkspace", {})) as { id: string }
      const names = Array.from({ length: 130 }, (_, i) => `pages/${String(i).padStart(3, "0")}.html`)
      for (const name of names) seed(id, name, `<p>${name}</p>`)
      seed(id, "notes.txt", "top level")
      const listed = (yield* run("listWorkspaceFiles", { workspaceId: id, prefix: "pages/", limit: 5000 })) as { files: Array<{ path: string; size: number }> }
      expect(listed.files.map((f) => f.path)).toEqual(names)
      expect(listed.files[0]!.size).toBe(Buffer.byteLength("<p>pages/000.html</p>"))
      const everything = (yield* run("listWorkspaceFiles", { workspaceId: id })) as { files: ReadonlyArray<unknown> }
      expect(everything.files).toHaveLength(100)
      const missing = yield* Effect.flip(run("listWorkspaceFiles", { workspaceId: "00000000-0000-4000-8000-ffffffffffff" }))
      expect(missing).toMatchObject({ _tag: "NotFound", message: "Workspace not found" })
    }))

  it.effect("upload a file, then download it: the same bytes, sent and fetched through presigned URLs with no API key", () =>
    Effect.gen(function*() {
      const { id } = (yield* run("createWorkspace", { name: "Files" })) as { id: string }
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256))
      const source = join(dir, "capture.bin")
      writeFileSync(source, bytes)
      const uploaded = yield* run("uploadWorkspaceFile", { workspaceId: id, file: { path: source, contentType: "application/octet-stream" }, prefix: "inputs" })
      expect(uploaded).toEqual({ path: "inputs/capture.bin", name: "capture.bin", size: 70_000, contentType: "application/octet-stream" })
      const put = sim.storage.requests.at(-1)!
      expect(put).toMatchObject({ method: "PUT", key: `workspaces/${id}/inputs/capture.bin`, status: 200 })
      expect(put.headers["content-length"]).toBe("70000")
      expect(put.headers["content-type"]).toBe("application/octet-stream")
      expect(put.headers["x-browser-use-api-key"]).toBeUndefined()
      // Another, from base64: it lists too, in path order.
      yield* run("uploadWorkspaceFile", { workspaceId: id, file: { base64: Buffer.from("hello").toString("base64"), name: "a.txt" } })
      const listed = (yield* run("listWorkspaceFiles", { workspaceId: id })) as { files: Array<{ path: string; size: number }> }
      expect(listed.files.map((f) => [f.path, f.size])).toEqual([["a.txt", 5], ["inputs/capture.bin", 70_000]])

      const to = join(dir, "fetched.bin")
      const downloaded = yield* run("downloadWorkspaceFile", { workspaceId: id, path: "inputs/capture.bin", to })
      expect(downloaded).toEqual({ path: to, size: 70_000, contentType: "application/octet-stream", workspacePath: "inputs/capture.bin" })
      expect(readFileSync(to).equals(bytes)).toBe(true)
      const get = sim.storage.requests.at(-1)!
      expect(get).toMatchObject({ method: "GET", status: 200 })
      expect(get.headers["x-browser-use-api-key"]).toBeUndefined()

      // The file is there now: downloading to it again is refused before anything is sent, unless overwriting is asked for.
      const stored = sim.storage.requests.length
      const again = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: id, path: "inputs/capture.bin", to }))
      expect(again).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "to", message: `${to} already exists, and overwriting it is off` }] })
      expect(sim.storage.requests.length).toBe(stored)
      const missing = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: id, path: "inputs/capture", to, overwrite: true }))
      expect(missing).toMatchObject({ _tag: "NotFound" })
      const unwritable = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: id, path: "a.txt", to: join(dir, "no-such-dir", "a.txt") }))
      expect(unwritable).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "to" }] })
      const tooLarge = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: id, path: "inputs/capture.bin", to: join(dir, "capped.bin"), maxBytes: 1000 }))
      expect(tooLarge).toMatchObject({ _tag: "UnexpectedResponse", message: "the file is 68.4 KiB (70000 bytes), over the limit of 1000 bytes" })
      expect(() => readFileSync(join(dir, "capped.bin"))).toThrow()
    }))

  it.effect("a presigned URL expired by the time it is used is refused (403): nothing stored, nothing written", () =>
    Effect.gen(function*() {
      const { id } = (yield* run("createWorkspace", {})) as { id: string }
      seed(id, "old.txt", "kept")
      jump = 301_000
      const upload = yield* Effect.flip(run("uploadWorkspaceFile", { workspaceId: id, file: { base64: "aGk=", name: "late.txt" } })).pipe(
        Effect.ensuring(Effect.sync(() => { jump = 0 }))
      )
      expect(upload).toMatchObject({ _tag: "PermissionDenied", status: 403, message: expect.stringContaining("Request has expired") })
      expect(sim.storage.requests.at(-1)).toMatchObject({ method: "PUT", status: 403 })
      expect(sim.storage.objects.has(`workspaces/${id}/late.txt`)).toBe(false)

      jump = 61_000
      const to = join(dir, "never.txt")
      const download = yield* Effect.flip(run("downloadWorkspaceFile", { workspaceId: id, path: "old.txt", to })).pipe(
        Effect.ensuring(Effect.sync(() => { jump = 0 }))
      )
      expect(download).toMatchObject({ _tag: "PermissionDenied", status: 403, message: expect.stringContaining("Request has expired") })
      expect(() => readFileSync(to)).toThrow()
    }))
})
