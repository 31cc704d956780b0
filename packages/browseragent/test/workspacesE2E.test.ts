/** The workspace actions end to end, against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor, step } from "./support.js"

let sim: Simulator.Simulator
let connection: Record<string, string>
beforeAll(async () => {
  sim = await Simulator.start()
  connection = { value: sim.apiKey, baseUrl: sim.baseUrl }
})
afterAll(() => sim.close())

const run = (action: string, parameters: Record<string, unknown>) =>
  executor.run(step(action, parameters)).pipe(Effect.provide(connectedTo(connection, UndiciHttpClient.layer)))

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
})
