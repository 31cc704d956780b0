/**
 * `serve` of a polling trigger (Trello "card due soon"), against a Trello simulator in this
 * process, so that it outlives the runner between its starts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runner, runsOf, served, storeCursor, storedCursor } from "./bin.js"

const workflow = fileURLToPath(new URL("../examples/card-due-soon.json", import.meta.url))
const { boards, cards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "polling-key-0123456789", token: "polling-token-0123456789abcdef" })
  env = { XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl }
})
afterAll(() => sim.close())

const trello = (method: string, path: string) =>
  fetch(`${sim.baseUrl}${path}`, { method, headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` } })

const start = (dataDir: string) => served(["serve", workflow, "--poll-interval", "200 millis", "--data-dir", dataDir], env)

const reminders = () => [...sim.cards.values()].filter((c) => c.idList === lists.operationsToDo && c.name.startsWith("Reminder: "))

describe("x-runner serve, a polling trigger", () => {
  it("baseline first; a card whose due date enters the window runs once; completed cards are skipped; " +
    "a restart, even from an older cursor, runs nothing again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-poll-"))
    const first = start(dataDir)
    await first.waitFor("● polling boardtool/v1/cardDueSoon every 200ms")
    await first.waitFor("○ baseline set")
    const baselineCursor = storedCursor(dataDir, "card-due-soon")!
    expect(JSON.parse(baselineCursor)).toMatchObject({ inWindow: expect.any(Array) })
    // The seeded card due in 12 hours was there before: not an event.
    await first.waitFor("· polled: 0 new events", 2)
    expect(first.log()).not.toContain("▶ event")

    const due = new Date(Date.now() + 3600_000).toISOString()
    expect((await trello("PUT", `/cards/${cards.launchPost}?due=${encodeURIComponent(due)}`)).status).toBe(200)
    // Due as soon, but completed: never an event.
    const done = await trello("POST", `/cards?idList=${lists.roadmapDoing}&name=Shipped&due=${encodeURIComponent(due)}&dueComplete=true`)
    const completed = (await done.json() as { id: string }).id
    const id = `${cards.launchPost}:${due}`
    await first.waitFor(`■ event ${id} succeeded`)
    await first.waitFor("· polled: 0 new events", 4)
    expect(first.log()).toContain("✔ reminder succeeded")
    expect(first.log()).not.toContain(completed)
    expect(reminders().map((c) => c.name)).toEqual(["Reminder: Write the launch post"])
    expect(reminders()[0]!.desc).toBe(`Due ${due} (card ${cards.launchPost})`)

    // Killed, then started again from the cursor stored after the baseline, as if the kill had
    // come between the event's run and its cursor: polled again, not run again.
    first.child.kill("SIGKILL")
    await first.exited
    storeCursor(dataDir, "card-due-soon", { cursor: baselineCursor })
    const second = start(dataDir)
    await second.waitFor("● polling boardtool/v1/cardDueSoon every 200ms, from the stored cursor")
    await second.waitFor(`= event ${id} was polled again: already accepted, not run twice`)
    await second.waitFor("· polled: 0 new events", 3)
    expect(second.log()).not.toContain("○ baseline set")
    expect(second.log()).not.toContain("▶ event")
    expect(reminders().length).toBe(1)
    expect((await runsOf({ dataDir })).filter((run) => run.event === id).map((run) => run.status)).toEqual(["succeeded"])
    second.child.kill("SIGTERM")
    await second.exited
    expect(first.log() + second.log()).not.toContain(sim.token)
  })

  it("a cursor stored for other parameters is not used: a new baseline", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-poll-other-"))
    const first = start(dataDir)
    await first.waitFor("○ baseline set")
    first.child.kill("SIGTERM")
    await first.exited
    storeCursor(dataDir, "card-due-soon", { cursor: JSON.stringify({ polledAt: 0, inWindow: [] }), parameters: { idBoard: boards.operations, hours: 12 } })
    const served = start(dataDir)
    await served.waitFor("↻ the stored cursor belongs to another trigger")
    await served.waitFor("○ baseline set")
    served.child.kill("SIGTERM")
    await served.exited
  })

  it("sample: the trigger's sample events as JSON, nothing served", async () => {
    const sampled = await runner(["sample", workflow, "--sandbox"])
    expect(sampled.code).toBe(0)
    const events = JSON.parse(sampled.stdout) as Array<{ id: string; output: { id: string; name: string; due: string } }>
    // The sandbox's seeded card due in 12 hours.
    expect(events.map((e) => e.output.name)).toEqual(["Fix the login redirect"])
    expect(events[0]!.id).toBe(`${cards.loginRedirect}:${events[0]!.output.due}`)
    expect(sampled.stderr).toContain("1 sample event of boardtool/v1/cardDueSoon")
    const newCard = fileURLToPath(new URL("../examples/new-card.json", import.meta.url))
    const cardsSample = await runner(["sample", newCard, "--sandbox"])
    // The seeded card created in To Do, as its createCard action's event (the action's id, as a delivery's).
    const created = JSON.parse(cardsSample.stdout) as Array<{ id: string; output: { id: string } }>
    expect(created.map((e) => e.output.id)).toEqual([cards.launchPost])
    expect(created[0]!.id).toMatch(/^[0-9a-f]{24}$/)
    expect(created[0]!.id).not.toBe(cards.launchPost)
    const demo = fileURLToPath(new URL("../examples/demo.json", import.meta.url))
    const none = await runner(["sample", demo, "--sandbox"])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("has no trigger to sample")
  })

  it("a webhook trigger still needs --public-url; a bad --poll-interval is refused", async () => {
    const newCard = fileURLToPath(new URL("../examples/new-card.json", import.meta.url))
    const noUrl = await runner(["serve", newCard, "--sandbox"])
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain("--public-url is needed")
    const bad = await runner(["serve", workflow, "--sandbox", "--poll-interval", "soon"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--poll-interval soon: not a positive duration")
  })
})
