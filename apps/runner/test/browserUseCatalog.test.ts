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
    const { document, extra, failed, missing, output } = await runCatalog(catalog, browseragent, ["--input", `downloadPath=${downloadPath}`])
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
    // sessions
    expect(output("sessionInWorkspace")).toMatchObject({ status: "stopped", workspaceId: output("workspace").id, proxyCountryCode: "de", maxCostUsd: "1.5", model: "modelfamilyB-5.4-mini" })
    expect(output("sessionInWorkspace").recordingUrls).toHaveLength(1)
    expect(output("sessions").sessions.map((s: { id: string }) => s.id)).toEqual([output("sessionInWorkspace").id, output("session").id])
    expect(output("messages").messages.map((m: { role: string; type: string }) => `${m.role} ${m.type}`)).toEqual([
      "human user_message", "ai browser_action", "ai browser_action", "ai browser_action", "ai assistant_message"
    ])
    expect(output("messages").messages[0].data).toBe("Find the price of the Acme towel")
    expect(output("deleted")).toBeNull()
    expect(output("sessionsByPath")).toMatchObject({ status: 200, body: { total: 1 } })
  }, 60_000)
})
