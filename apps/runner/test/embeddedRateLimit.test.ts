/**
 * One rate limit per credential across a runner's two threads on the embedded database: the
 * serving thread's requests (`newCard` reading each delivered card) take their tokens from the
 * engine thread's store, where the runs' steps (`getCard`) take theirs. 60 deliveries make
 * about 120 requests on one token, against a simulator enforcing Trello's 100 per 10 s.
 *
 * What is asserted does not depend on the machine's speed: at most 100 requests arrived at the
 * simulator in any 10 s, and it answered none 429. A request holds its token from its start
 * until its answer, and the token comes back 10 s after that answer; the simulator counts the
 * request when it arrives, between the two, however long it waited on the way. (When the
 * limiter counted a request at its start and gave its token back 10.1 s later, a request that
 * waited more than 0.1 s between its start and its arrival, on a busy thread of a busy machine
 * or once 9 of them on a quiet one, landed within 10 s of a request sent a full interval after
 * it, and was answered 429.) Two limiters of 100 each would let all 120 through at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { createHmac } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runsOf, served } from "./bin.js"

const { boards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
/** When each request the simulator counted arrived (its rate limits' clock, read once a request). */
const arrivals: Array<number> = []
beforeAll(async () => {
  sim = await TrelloSimulator.start({
    key: "limits-key-0123456789",
    token: "limits-token-0123456789abcdef",
    now: () => {
      const now = Date.now()
      arrivals.push(now)
      return now
    }
  })
})
afterAll(() => sim.close())

const dir = mkdtempSync(join(tmpdir(), "x-runner-limits-"))
const workflow = join(dir, "read-cards.json")
writeFileSync(workflow, JSON.stringify({
  label: "Read every new card",
  triggers: [{ label: "A card in To Do", name: "created", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } }],
  tasks: [{ label: "Read it", name: "card", type: "boardtool/v1/getCard", parameters: { id: "${trigger.id}" } }]
}))

/** Trello's delivery of the seeded card, a new action each time, signed for the public URL. */
const delivery = (n: number, publicUrl: string) => {
  const card = TrelloSimulator.seed.cards.launchPost
  const body = JSON.stringify({
    action: {
      id: (0xe10000 + n).toString(16).padStart(24, "0"),
      idMemberCreator: TrelloSimulator.seed.member,
      type: "createCard",
      date: new Date().toISOString(),
      data: {
        card: { id: card, name: "Write the launch post", idShort: n, shortLink: `l${n}` },
        list: { id: lists.roadmapToDo, name: "To Do" },
        board: { id: boards.roadmap, name: "Product Roadmap", shortLink: "rOaDmApX" }
      },
      memberCreator: { id: TrelloSimulator.seed.member, username: "simulated" }
    },
    model: { id: lists.roadmapToDo, name: "To Do", idBoard: boards.roadmap, closed: false, pos: 16384 }
  })
  return { body, signature: createHmac("sha1", sim.secret).update(body + publicUrl).digest("base64") }
}

describe("x-runner serve on the embedded database: one rate limiter for both threads", () => {
  it("about 120 requests on one token, from both threads: at most 100 in any 10 s, none answered 429, every run succeeds", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/read-cards`
    const dataDir = join(dir, "data")
    const runner = served(["serve", workflow, "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir], {
      XRUNNER_BOARDTOOL_KEY: sim.key,
      XRUNNER_BOARDTOOL_TOKEN: sim.token,
      XRUNNER_BOARDTOOL_SECRET: sim.secret,
      XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
    })
    try {
      await runner.waitFor("● serving boardtool/v1/newCard")
      const before = sim.stats.requests
      const sent = Date.now()
      await Promise.all(Array.from({ length: 60 }, async (_, n) => {
        const { body, signature } = delivery(n, publicUrl)
        const response = await fetch(`http://127.0.0.1:${port}/hooks/read-cards`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-trello-webhook": signature },
          body
        })
        expect(response.status).toBe(200)
      }))
      // Until every run has ended, failing only on a stall, to show the log of a runner that
      // never ends its runs: neither a run ended nor a request arrived for 60 s. A request waits
      // at most an interval (10 s) after an answer for its token; a busy machine is slower, not still.
      let progress = { ended: 0, arrived: arrivals.length, at: Date.now() }
      let runs = await runsOf({ dataDir })
      while (runs.filter((run) => run.finishedAt !== null).length < 60) {
        const ended = runs.filter((run) => run.finishedAt !== null).length
        if (ended > progress.ended || arrivals.length > progress.arrived) {
          progress = { ended, arrived: arrivals.length, at: Date.now() }
        } else if (Date.now() - progress.at > 60_000) {
          throw new Error(`the runs stalled at ${ended} of 60 ended:\n${runner.log().slice(-2000)}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 250))
        runs = await runsOf({ dataDir })
      }
      // Both threads' requests: each delivery's read and each run's.
      expect(sim.stats.requests - before).toBeGreaterThanOrEqual(120)
      const afterSent = arrivals.filter((at) => at >= sent)
      expect(afterSent.length).toBeGreaterThanOrEqual(120)
      expect(afterSent.filter((at) => at < sent + 10_000).length).toBeLessThanOrEqual(100)
      // In any window of 10 s, as the simulator counts.
      let most = 0
      for (let i = 0, j = 0; i < arrivals.length; i++) {
        while (arrivals[i]! - arrivals[j]! >= 10_000) j++
        most = Math.max(most, i - j + 1)
      }
      expect(most).toBeLessThanOrEqual(100)
      expect(sim.stats.rateLimited).toBe(0)
      expect(runs.filter((run) => run.status !== "succeeded").map((run) => `${run.event}: ${run.status}`)).toEqual([])
    } finally {
      runner.child.kill("SIGTERM")
      await runner.exited
    }
    // An outer stall limit only (about 15 s alone, 40 s on a loaded machine): the waits above fail first.
  })
})
