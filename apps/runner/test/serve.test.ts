import { describe, expect, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, runner, runStatuses, runsOf, served, type Served, stallMs, writesSent } from "./bin.js"

const workflow = fileURLToPath(new URL("../examples/new-card.json", import.meta.url))
const secret = "sandbox-trello-secret"


const start = (publicUrl: string, port: number, dataDir: string): Served =>
  served(["serve", workflow, "--sandbox", "--public-url", publicUrl, "--port", String(port), "--data-dir", dataDir])

/** A createCard delivery for the seeded "Write the launch post" card, shaped and signed as Trello's (an action has its date and creator). */
const delivery = (actionId: string, publicUrl: string, signed = true) => {
  const body = JSON.stringify({
    action: {
      id: actionId,
      idMemberCreator: "5eed00000000000000000001",
      type: "createCard",
      date: "2026-11-21T10:00:00.000Z",
      data: {
        card: { id: "5eed0000000000000000000a", name: "Write the launch post", idShort: 1, shortLink: "aBcDeFgH" },
        list: { id: "5eed00000000000000000003", name: "To Do" },
        board: { id: "5eed00000000000000000002", name: "Product Roadmap", shortLink: "rOaDmApX" }
      },
      memberCreator: { id: "5eed00000000000000000001", username: "simulated", fullName: "Simulated Member" }
    },
    model: { id: "5eed00000000000000000003", name: "To Do", idBoard: "5eed00000000000000000002", closed: false, pos: 16384 }
  })
  const signature = createHmac("sha1", signed ? secret : "forged").update(body + publicUrl).digest("base64")
  return fetch(publicUrl, { method: "POST", headers: { "content-type": "application/json", "x-trello-webhook": signature }, body })
}


/** The runs once the one of event `id` has ended. */
const runsOnceEnded = async (dataDir: string, id: string) => {
  const deadline = Date.now() + stallMs
  const ended = () => runStatuses(dataDir).some((run) => run.event === id && !["accepted", "running"].includes(run.status))
  while (!ended() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  return runsOf({ dataDir })
}

describe("x-runner serve", () => {
  it("a real card fires the trigger; a forged delivery is refused; a duplicate runs once; SIGTERM disables", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-serve-"))
    const served = start(publicUrl, port, dataDir)
    await served.waitFor("● serving boardtool/v1/newCard")
    const trello = /Trello simulator at (\S+) /.exec(served.log())![1]!
    // A card created on the simulator: Trello's own delivery.
    await fetch(`${trello}/cards?idList=5eed00000000000000000003&name=Keyboards&desc=Mechanical`, {
      method: "POST",
      headers: { authorization: "OAuth oauth_consumer_key=\"sandbox-trello-key\", oauth_token=\"sandbox-trello-token\"" }
    })
    await served.waitFor(/■ event [0-9a-f]{24} succeeded/)
    expect(served.log()).toContain("✔ answer succeeded")
    // A forged signature: 401, nothing run.
    const forged = await delivery("aaaaaaaaaaaaaaaaaaaaaaaa", publicUrl, false)
    expect(forged.status).toBe(401)
    // The same delivery twice: one run.
    expect((await delivery("bbbbbbbbbbbbbbbbbbbbbbbb", publicUrl)).status).toBe(200)
    expect((await delivery("bbbbbbbbbbbbbbbbbbbbbbbb", publicUrl)).status).toBe(200)
    await served.waitFor("■ event bbbbbbbbbbbbbbbbbbbbbbbb succeeded")
    await served.waitFor("= event bbbbbbbbbbbbbbbbbbbbbbbb was delivered again")
    const runs = await runsOnceEnded(dataDir, "bbbbbbbbbbbbbbbbbbbbbbbb")
    expect(runs.filter((run) => run.event === "bbbbbbbbbbbbbbbbbbbbbbbb").map((run) => run.status)).toEqual(["succeeded"])
    expect(runs.some((run) => run.event === "aaaaaaaaaaaaaaaaaaaaaaaa")).toBe(false)
    // The health endpoint, beside the webhook's path.
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: "serving", workflows: [{ name: "new-card", trigger: "boardtool/v1/newCard" }] })
    served.child.kill("SIGTERM")
    await served.waitFor("■ trigger disabled")
    await served.exited
    expect(served.log()).not.toContain("sandbox-trello-secret")
  })

  it("killed (-9) while a step's create may have reached the provider: the run ends unknown, not repeated; runs retry runs it once", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const dataDir = mkdtempSync(join(tmpdir(), "x-runner-crash-"))
    const first = start(publicUrl, port, dataDir)
    await first.waitFor("● serving")
    // Acknowledged once the run is committed; the engine then starts the research step: a
    // Browser Use session (a POST that creates it) that takes about a second. Killed once the
    // step's write marker is committed: its POST is then on its way (or has arrived).
    expect((await delivery("cccccccccccccccccccccccc", publicUrl)).status).toBe(200)
    await first.waitFor("▶ event cccccccccccccccccccccccc")
    while (!writesSent(dataDir).some((step) => step.endsWith(":research"))) await new Promise((resolve) => setTimeout(resolve, 10))
    first.child.kill("SIGKILL")
    await first.exited
    expect((await runsOf({ dataDir })).map((run) => `${run.event}:${run.status}`)).toEqual(["cccccccccccccccccccccccc:running"])
    const second = start(publicUrl, port, dataDir)
    await second.waitFor("↻ 1 run accepted before a stop and not finished")
    // The webhook the killed run registered, for the same URL, is kept (no second one at Trello).
    await second.waitFor(`↻ the trigger enabled before at ${publicUrl} is kept`)
    // The session may exist: createSession cannot find it again, so the step is not sent twice.
    await second.waitFor("■ event cccccccccccccccccccccccc unknown")
    expect(second.log()).toContain("✘ research unknown: OutcomeUnknown")
    const [run] = await runsOf({ dataDir })
    expect(run).toMatchObject({ event: "cccccccccccccccccccccccc", status: "unknown", failedStep: "research", attempt: 0 })
    // Delivered again: recognised, not run again.
    expect((await delivery("cccccccccccccccccccccccc", publicUrl)).status).toBe(200)
    await second.waitFor("= event cccccccccccccccccccccccc was delivered again")
    // A person decides: run it again, from the step whose outcome was unknown.
    const retried = await runner(["runs", "retry", run!.id, "--data-dir", dataDir])
    expect(retried.code).toBe(0)
    expect(retried.stderr).toContain(`↻ run ${run!.id} goes back to the engine (attempt 2): its tasks that succeeded keep their outputs, the others run again`)
    await second.waitFor("■ event cccccccccccccccccccccccc succeeded")
    expect((await runsOnceEnded(dataDir, "cccccccccccccccccccccccc")).map((run) => `${run.event}:${run.status}:${run.attempt}`)).toEqual([
      "cccccccccccccccccccccccc:succeeded:1"
    ])
    // A run that succeeded is not retried.
    const again = await runner(["runs", "retry", run!.id, "--data-dir", dataDir])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("is succeeded: only a failed or unknown run is retried")
    second.child.kill("SIGINT")
    await second.waitFor("■ trigger disabled")
    await second.exited
  })
})
