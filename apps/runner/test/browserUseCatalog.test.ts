/**
 * The catalog workflow (examples/browser-use-catalog.json): every action of browseragent/v1, the
 * custom action included, run end to end on the sandbox from the built bundle, each step's ids
 * taken from earlier steps' outputs. An action added to the component without a step here fails.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { browseragent } from "@x/browseragent"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runCatalog } from "./bin.js"

const catalog = fileURLToPath(new URL("../examples/browser-use-catalog.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-browser-use-catalog-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("x-runner run examples/browser-use-catalog.json --sandbox", () => {
  it("runs every action of browseragent/v1, each step succeeding with real values", async () => {
    const downloadPath = join(dir, "notes.txt")
    const browserDownloadPath = join(dir, "example.txt")
    const { document, extra, failed, missing, output } = await runCatalog(catalog, browseragent, [
      "--input", `downloadPath=${downloadPath}`,
      "--input", `browserDownloadPath=${browserDownloadPath}`,
      "--files-dir", dir
    ])
    expect(document.status).toBe("succeeded")
    expect(failed).toEqual([])
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })

    // Sessions: the task ran to its end on the simulator, and reads back the same.
    expect(output("session")).toMatchObject({ status: "stopped", isTaskSuccessful: true, output: "Done: Find the price of the Acme towel" })
    expect(output("sessionAgain")).toMatchObject({ id: output("session").id, status: "stopped" })
    // Workspaces: the upload comes back byte for byte.
    expect(output("workspaces").workspaces.map((w: { id: string }) => w.id)).toContain(output("workspace").id)
    expect(output("files").files.map((f: { path: string }) => f.path)).toEqual(["notes.txt"])
    expect(readFileSync(downloadPath, "utf8")).toBe("Prices of towels.\n")
    // workspaces
    expect(output("workspaceAgain")).toEqual(output("workspace"))
    expect(output("workspaceRenamed")).toMatchObject({ id: output("workspace").id, name: "Catalog workspace, renamed" })
    expect(output("uploadedMany").files.map((f: { path: string; size: number }) => [f.path, f.size])).toEqual([["more/one.txt", 4], ["more/two.txt", 5]])
    expect(output("fileDeleted")).toEqual({ workspaceId: output("workspace").id, path: "more/one.txt", deleted: true })
    // notes.txt (18 bytes) and more/two.txt (5): what is left after the deletion.
    expect(output("workspaceSize")).toMatchObject({ workspaceId: output("workspace").id, usedBytes: 23, fileCount: 2 })
    expect(output("workspaceDeleted")).toEqual({ workspaceId: output("scratchWorkspace").id, deleted: true })
    // run: the task waited for, its output checked against the schema; then its session stopped.
    expect(output("ran")).toMatchObject({ status: "idle", isTaskSuccessful: true, output: { price: 19.99 }, files: [], cost: { inputTokens: 4560 } })
    expect(output("stopped")).toMatchObject({ id: output("ran").sessionId, status: "stopped" })
    // browsers
    expect(output("profileAgain")).toMatchObject({ id: output("profile").id, name: "Catalog profile", userId: "catalog-user" })
    expect(output("profileRenamed")).toMatchObject({ id: output("profile").id, name: "Catalog profile, renamed" })
    expect(output("profiles").profiles.map((p: { id: string }) => p.id)).toEqual([output("profile").id])
    expect(output("browser")).toMatchObject({ status: "active", finishedAt: null, cdpUrl: expect.stringMatching(/^ws:\/\//) })
    expect(Date.parse(output("browser").timeoutAt) - Date.parse(output("browser").startedAt)).toBe(30 * 60_000)
    expect(output("browserAgain")).toEqual(output("browser"))
    expect(output("browsers").sessions.map((s: { id: string }) => s.id)).toContain(output("browser").id)
    expect(output("browserDownloads").files.map((f: { path: string }) => f.path)).toEqual(["example.txt"])
    expect(output("browserFile")).toMatchObject({ downloadPath: "example.txt", contentType: "text/plain" })
    expect(readFileSync(browserDownloadPath, "utf8")).toBe("Downloaded by the simulated browser.\n")
    expect(output("browserStopped")).toMatchObject({ id: output("browser").id, status: "stopped", cdpUrl: null })
    expect(output("profileDeleted")).toEqual({ id: output("profile").id, deleted: true })
    expect(output("account")).toMatchObject({ rateLimit: 25, plan: { name: "Starter" } })
    // sessions
    expect(output("sessionInWorkspace")).toMatchObject({ status: "stopped", workspaceId: output("workspace").id, proxyCountryCode: "de", maxCostUsd: "1.5", model: "modelfamilyB-5.4-mini" })
    expect(output("sessionInWorkspace").recordingUrls).toHaveLength(1)
    expect(output("sessions").sessions.map((s: { id: string }) => s.id)).toEqual([output("sessionInWorkspace").id, output("ran").sessionId, output("session").id])
    expect(output("messages").messages.map((m: { role: string; type: string }) => `${m.role} ${m.type}`)).toEqual([
      "human user_message", "ai browser_action", "ai browser_action", "ai browser_action", "ai assistant_message"
    ])
    expect(output("messages").messages[0].data).toBe("Find the price of the Acme towel")
    expect(output("deleted")).toBeNull()
    // V4: the run waited for on runTask's backoff, its answer following the schema, judged.
    expect(output("v4Ran")).toMatchObject({ status: "completed", output: { price: 19.99 }, error: null, run: { model: "modelfamilyA-sonnet-5", judgement: { verdict: "pass" } } })
    expect(output("v4Run")).toMatchObject({ sessionId: output("v4Ran").sessionId, status: "queued", missingFileIds: [] })
    expect(output("v4Queued")).toMatchObject({ sessionId: output("v4Ran").sessionId, status: "pending", runId: null, text: "And the hand towel?" })
    expect(output("v4Removed")).toMatchObject({ id: output("v4Queued").id, status: "cancelled" })
    expect(output("v4Queue")).toEqual({ messages: [] })
    expect(["queued", "dispatching", "running", "completed"]).toContain(output("v4Status").status)
    expect(output("v4Cancelled").id).toBe(output("v4Run").id)
    expect(output("v4RanAgain")).toEqual(output("v4Ran").run)
    expect(output("v4Events").events.map((e: { type: string }) => e.type)).toEqual(["run.created", "run.started", "run.step", "run.step", "run.step", "run.completed"])
    expect(output("v4Attachments")).toEqual({ attachments: [] })
    expect(output("v4Runs").runs.map((r: { id: string }) => r.id)).toEqual([output("v4Run").id, output("v4Ran").runId])
    expect(output("v4Sessions").sessions).toEqual([expect.objectContaining({ sessionId: output("v4Ran").sessionId, latestRunId: output("v4Run").id })])
    // Three sessions were made (session, ran, sessionInWorkspace), one deleted.
    expect(output("sessionsByPath")).toMatchObject({ status: 200, body: { total: 2 } })
  })
})
