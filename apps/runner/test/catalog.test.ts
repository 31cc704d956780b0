/**
 * The catalog workflow (examples/trello-catalog.json): every action of boardtool/v1, the custom
 * action included, run end to end on the sandbox from the built bundle, each step's ids seeded or
 * taken from earlier steps' outputs. An action added to the component without a step here fails.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { boardtool } from "@x/boardtool"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runCatalog } from "./bin.js"

const catalog = fileURLToPath(new URL("../examples/trello-catalog.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-catalog-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const seeded = {
  me: "5eed00000000000000000001",
  roadmap: "5eed00000000000000000002",
  operationsToDo: "5eed00000000000000000007",
  launchPost: "5eed0000000000000000000a",
  loginRedirect: "5eed0000000000000000000b",
  alice: "5eed00000000000000000a01",
  estimate: "5eed00000000000000000a12"
}

describe("x-runner run examples/trello-catalog.json --sandbox", () => {
  it("runs every action of boardtool/v1, each step succeeding with real values", async () => {
    const downloadPath = join(dir, "notes.txt")
    // Trello's pacing is kept (the whole catalog fits in one window of its limit: a catalog that
    // outgrew it would wait for the next window, slower but not failing; pacing has its own tests).
    const { document, extra, failed, missing, output } = await runCatalog(catalog, boardtool, ["--input", `downloadPath=${downloadPath}`, "--files-dir", dir])
    expect(document.status).toBe("succeeded")
    expect(failed).toEqual([])
    // Every action has a step (customAction included), and no step is of another type.
    expect(Object.keys(boardtool.actions)).toContain("customAction")
    expect(Object.keys(boardtool.actions).length).toBeGreaterThan(70)
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })

    // Files: the base64 upload comes back byte for byte.
    expect(output("attachment")).toMatchObject({ name: "Notes", bytes: 18, isUpload: true })
    expect(output("download")).toMatchObject({ path: downloadPath, size: 18, fileName: "notes.txt" })
    expect(readFileSync(downloadPath, "utf8")).toBe("Launch on Monday.\n")
    expect(output("attachments").attachments.map((a: { id: string }) => a.id)).toContain(output("attachment").id)
    expect(output("myBoardNames").status).toBe(200)
    // Cards, votes, comments: references to earlier outputs resolved to the records they made.
    expect(output("card")).toMatchObject({
      name: "Catalog card", idList: "5eed00000000000000000003", due: "2026-11-21T17:00:00.000Z", start: "2026-11-20T09:00:00.000Z", idMembers: [seeded.me]
    })
    expect(output("deletedCard")).toEqual({ id: output("card").id, deleted: true })
    expect(output("voters").voters.map((m: { id: string }) => m.id)).toEqual([seeded.me])
    expect(output("editedComment")).toMatchObject({ id: output("comment").id, data: { text: "Rotated staging and production" } })
    expect(output("movedCards").cards).toEqual([expect.objectContaining({ id: seeded.launchPost, idList: seeded.operationsToDo })])
    // Checklists, labels, lists, boards.
    expect(output("completed")).toMatchObject({ id: output("item").id, name: "Tag the release build", state: "complete", idMember: seeded.alice })
    expect(output("urgent")).toMatchObject({ name: "Urgent", color: "red", idBoard: seeded.roadmap })
    expect(output("renamedLabel")).toMatchObject({ id: output("blocked").id, name: "Waiting", color: "sky" })
    expect(output("movedList")).toMatchObject({ id: output("list").id, idBoard: output("board").id })
    expect(output("closedBoards").boards.map((b: { id: string }) => b.id)).toContain(output("board").id)
    expect(output("doingList")).toMatchObject({ found: true, list: { id: "5eed00000000000000000004", name: "Doing" } })
    expect(output("foundCards").cards.map((c: { id: string }) => c.id)).toContain(seeded.loginRedirect)
    // Members and custom fields.
    expect(output("alice")).toMatchObject({ id: seeded.alice, username: "alice" })
    expect(output("cardMembers").members.map((m: { id: string }) => m.id)).toEqual([seeded.alice])
    expect(output("team").options.map((o: { value: { text: string } }) => o.value.text)).toEqual(["Web", "Mobile"])
    expect(output("teamOptions").options.map((o: { value: { text: string }; color: string }) => [o.value.text, o.color])).toEqual([["Data", "sky"], ["Web", "none"], ["Mobile", "none"]])
    // Notifications: the seeded unread mention and assignment (Alice's), the mention then read.
    expect(output("notifications").notifications.map((n: { type: string }) => n.type)).toEqual(["addedToCard", "mentionedOnCard"])
    expect(output("readMention")).toMatchObject({ id: "5eed00000000000000000b02", unread: false })
    expect(output("values").items).toEqual([expect.objectContaining({ idCustomField: seeded.estimate, value: { number: "3.5" } })])
  })
})
