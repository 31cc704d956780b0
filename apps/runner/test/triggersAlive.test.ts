/**
 * Triggers that do not go quiet: `serve` of Trello's newCard against a Trello simulator in this
 * process. A webhook Trello turned off (its `active` flag, as Trello sets it after failed
 * deliveries) is found at the next check and activated again, and the next card runs; cards
 * created in the watched list while nothing served are caught up at the next start, each run once.
 */
import * as TrelloSimulator from "@x/boardtool/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, served } from "./bin.js"
import * as Deliveries from "./fixtures/deliveries.js"

const { boards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "alive-key-0123456789", token: "alive-token-0123456789abcdef" })
  env = Deliveries.environment(sim)
})
afterAll(() => sim.close())

const trello = (method: string, path: string) =>
  fetch(`${sim.baseUrl}${path}`, { method, headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"` } })

/** A workflow that comments on every card created in the roadmap's To Do list. */
const workflowIn = (dir: string) => {
  const file = join(dir, "comment-new-cards.json")
  writeFileSync(file, JSON.stringify({
    label: "Comment on every new card",
    triggers: [{ label: "A card in To Do", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } }],
    tasks: [{ label: "Say hello", name: "hello", type: "boardtool/v1/addComment", parameters: { idCard: "${trigger.id}", text: "hello ${trigger.name}" } }]
  }))
  return file
}

const createCard = async (name: string) => {
  const created = await trello("POST", `/cards?idList=${lists.roadmapToDo}&name=${encodeURIComponent(name)}`)
  expect(created.status).toBe(200)
  return (await created.json() as { id: string }).id
}
const commentsOn = (card: string) =>
  sim.actions.filter((action) => action.type === "commentCard" && (action.data["card"] as { id?: string } | undefined)?.id === card)
const webhooksTo = (url: string) => [...sim.webhooks.values()].filter((webhook) => webhook.callbackURL === url)

describe("x-runner serve, triggers that do not go quiet", () => {
  it("a webhook Trello turned off is active again at the next check, and the next card runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-alive-"))
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const server = served(["serve", workflowIn(dir), "--public-url", publicUrl, "--port", String(port), "--data-dir", join(dir, "data"), "--poll-interval", "1 second"], env)
    try {
      await server.waitFor("● serving boardtool/v1/newCard")
      const [webhook] = webhooksTo(publicUrl)
      expect(webhook?.active).toBe(true)
      // What Trello does to a webhook whose deliveries keep failing.
      webhook!.active = false
      await server.waitFor("✘ comment-new-cards: the provider turned the webhook off: registering it again")
      await server.waitFor("✔ comment-new-cards: the webhook is active again")
      // The same webhook, active again: not a second one.
      expect(webhooksTo(publicUrl).map((w) => [w.id, w.active])).toEqual([[webhook!.id, true]])
      const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json() as { workflows: Array<{ name: string; state: string }> }
      expect(health.workflows).toEqual([{ name: "comment-new-cards", trigger: "boardtool/v1/newCard", state: "listening" }])
      const card = await createCard("After the reactivation")
      await server.waitFor(/■ event [0-9a-f]{24} succeeded/)
      expect(commentsOn(card).map((action) => action.data["text"])).toEqual(["hello After the reactivation"])
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })

  it("cards created in the watched list while serve was stopped each run once after it starts again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-catch-up-"))
    const workflow = workflowIn(dir)
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const args = ["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", join(dir, "data")]
    const first = served(args, env)
    await first.waitFor("● serving boardtool/v1/newCard")
    const before = await createCard("Served")
    await first.waitFor(/■ event [0-9a-f]{24} succeeded/)
    first.child.kill("SIGTERM")
    await first.waitFor("■ trigger disabled")
    await first.exited
    expect(webhooksTo(publicUrl)).toEqual([])

    // Nothing serves: Trello has no webhook to deliver these to.
    const missed = [await createCard("Missed one"), await createCard("Missed two")]
    // Another list's card is not this trigger's.
    await trello("POST", `/cards?idList=${lists.roadmapDoing}&name=Elsewhere`)

    const second = served(args, env)
    try {
      await second.waitFor("● serving boardtool/v1/newCard")
      await second.waitFor(/↻ caught up after the stop: 2 events missed since \S+ to run \(1 run already\)/)
      // (A pattern is seen once at most: the text counts.)
      await second.waitFor(" succeeded (run ", 2)
      for (const [card, name] of [[missed[0]!, "Missed one"], [missed[1]!, "Missed two"], [before, "Served"]] as const) {
        expect(commentsOn(card).map((action) => action.data["text"])).toEqual([`hello ${name}`])
      }
      expect(second.log().match(/■ event [0-9a-f]{24} succeeded/g)).toHaveLength(2)
    } finally {
      second.child.kill("SIGTERM")
      await second.exited
    }
  })
})
