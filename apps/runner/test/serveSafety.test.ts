/**
 * What `serve` refuses or reports at its start: a trigger whose provider signs deliveries without
 * its signing secret (unless the operator allows unsigned deliveries), a polling cursor that does
 * not decode (named, with the way out; `/healthz` lists only the triggers really served), and
 * workflow files whose names need percent-encoding or differ only in case (served at the URLs
 * announced) or that would be one workflow (refused).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import { createHmac } from "node:crypto"
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, runsOf, served, type Served, stallMs, storeCursor } from "./bin.js"

const { boards, cards, lists } = TrelloSimulator.seed

let sim: TrelloSimulator.Simulator
let env: Record<string, string>
beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "safety-key-0123456789", token: "safety-token-0123456789abcdef", secret: "safety-secret-0123456789" })
  // The app's secret is left out: the connection cannot verify Trello's signatures.
  env = { XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl }
})
afterAll(() => sim.close())

const temporary = (prefix: string) => mkdtempSync(join(tmpdir(), `x-runner-${prefix}-`))

/** A workflow on a new card in the seeded To Do list, which reads the card back. */
const newCardWorkflow = (dir: string, file: string) => {
  const path = join(dir, file)
  writeFileSync(path, JSON.stringify({
    label: "Read every new card",
    triggers: [{ label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: boards.roadmap, idList: lists.roadmapToDo } }],
    tasks: [{ label: "Read it", name: "read", type: "boardtool/v1/getCard", parameters: { id: "${trigger.id}" } }]
  }))
  return path
}

/** A createCard delivery for the seeded launch-post card, as Trello sends it; signed with `secret` if given. */
const delivery = (publicUrl: string, actionId: string, secret?: string) => {
  const body = JSON.stringify({
    action: {
      id: actionId,
      idMemberCreator: "5eed00000000000000000001",
      type: "createCard",
      date: "2026-11-21T10:00:00.000Z",
      data: {
        card: { id: cards.launchPost, name: "Write the launch post", idShort: 1, shortLink: "aBcDeFgH" },
        list: { id: lists.roadmapToDo, name: "To Do" },
        board: { id: boards.roadmap, name: "Product Roadmap", shortLink: "rOaDmApX" }
      },
      memberCreator: { id: "5eed00000000000000000001", username: "simulated", fullName: "Simulated Member" }
    },
    model: { id: lists.roadmapToDo, name: "To Do", idBoard: boards.roadmap, closed: false, pos: 16384 }
  })
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (secret !== undefined) headers["x-trello-webhook"] = createHmac("sha1", secret).update(body + publicUrl).digest("base64")
  return fetch(publicUrl, { method: "POST", headers, body })
}

/** Started and serving, or ended: whichever comes first. */
const startedOrEnded = (serve: Served, text: string) =>
  Promise.race([serve.exited.then((code) => ({ code })), serve.waitFor(text).then(() => ({ code: undefined }))])

const stop = async (serve: Served) => {
  serve.child.kill("SIGTERM")
  await serve.exited
}

describe("x-runner serve: unsigned deliveries", () => {
  it("without the connection's signing secret the trigger does not start (exit 2, naming the setting); " +
    "--allow-unsigned-deliveries starts it with a warning and accepts unsigned deliveries; with the secret, unsigned is 401", async () => {
    const dir = temporary("unsigned")
    const workflow = newCardWorkflow(dir, "new-card.json")
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/new-card`
    const args = ["serve", workflow, "--public-url", publicUrl, "--port", String(port)]

    const refused = served([...args, "--data-dir", join(dir, "refused")], env)
    expect((await startedOrEnded(refused, "● serving")).code, refused.log()).toBe(2)
    expect(refused.log()).toContain(
      "boardtool/v1/newCard verifies deliveries with the boardtool connection's \"secret\" (XRUNNER_BOARDTOOL_SECRET or the connections file): none is set. " +
        "Set it, or pass --allow-unsigned-deliveries to accept unsigned deliveries"
    )
    // Nothing was registered at Trello.
    expect([...sim.webhooks.values()].filter((hook) => hook.callbackURL === publicUrl)).toEqual([])

    const allowed = served([...args, "--data-dir", join(dir, "allowed"), "--allow-unsigned-deliveries"], env)
    await allowed.waitFor("● serving boardtool/v1/newCard")
    expect(allowed.log()).toContain(
      "⚠ boardtool/v1/newCard accepts unsigned deliveries (--allow-unsigned-deliveries): the boardtool connection has no \"secret\""
    )
    // The operator's choice: an unsigned delivery is run.
    expect((await delivery(publicUrl, "dddddddddddddddddddddddd")).status).toBe(200)
    await allowed.waitFor("■ event dddddddddddddddddddddddd succeeded")
    await stop(allowed)

    // With the secret, a delivery must be signed, the flag or not.
    const signed = served([...args, "--data-dir", join(dir, "signed"), "--allow-unsigned-deliveries"], { ...env, XRUNNER_BOARDTOOL_SECRET: sim.secret })
    await signed.waitFor("● serving boardtool/v1/newCard")
    expect(signed.log()).not.toContain("accepts unsigned deliveries")
    expect((await delivery(publicUrl, "eeeeeeeeeeeeeeeeeeeeeeee")).status).toBe(401)
    expect((await delivery(publicUrl, "ffffffffffffffffffffffff", "a-guessed-secret")).status).toBe(401)
    expect((await delivery(publicUrl, "abababababababababababab", sim.secret)).status).toBe(200)
    await signed.waitFor("■ event abababababababababababab succeeded")
    await stop(signed)
    expect((await runsOf({ dataDir: join(dir, "signed") })).map((run) => run.event)).toEqual(["abababababababababababab"])
    expect(refused.log() + allowed.log() + signed.log()).not.toContain(sim.secret)
  })
})

/** `/healthz`, once it answers what `until` wants (the engine's thread tells the serving thread). */
const healthOf = async (port: number, until: (health: Health) => boolean) => {
  const deadline = Date.now() + stallMs
  for (;;) {
    const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json() as Health
    if (until(health) || Date.now() > deadline) return health
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
interface Health {
  readonly status: string
  readonly workflows: ReadonlyArray<{ readonly name: string; readonly trigger: string; readonly state: string }>
  readonly notServed: ReadonlyArray<{ readonly name: string; readonly trigger: string; readonly reason: string }>
}

describe("x-runner serve: stored cursors", () => {
  it("a cursor that is not JSON, or not the trigger's shape, is named at start with the way out; the others are polled; " +
    "/healthz lists only the triggers polled; --reset-cursor sets a new baseline", async () => {
    const dir = temporary("cursors")
    const workflows = join(dir, "workflows")
    mkdirSync(workflows)
    const dueSoon = fileURLToPath(new URL("../examples/card-due-soon.json", import.meta.url))
    for (const name of ["garbled", "misshapen", "sound"]) copyFileSync(dueSoon, join(workflows, `${name}.json`))
    const dataDir = join(dir, "data")
    const port = await freePort()
    const start = (...more: ReadonlyArray<string>) =>
      served(["serve", workflows, "--poll-interval", "200 millis", "--port", String(port), "--data-dir", dataDir, ...more], env)

    const first = start()
    await first.waitFor("○ baseline set", 3)
    await stop(first)
    storeCursor(dataDir, "garbled", { cursor: "{not json" })
    storeCursor(dataDir, "misshapen", { cursor: JSON.stringify({ polledAt: "yesterday" }) })

    const second = start()
    await second.waitFor("● polling boardtool/v1/cardDueSoon every 200ms, from the stored cursor")
    await second.waitFor("garbled (boardtool/v1/cardDueSoon): its stored cursor is not JSON, so it is not polled. Start serve with --reset-cursor garbled")
    await second.waitFor("misshapen (boardtool/v1/cardDueSoon): its stored cursor is not the shape cardDueSoon keeps (")
    expect(second.log()).toContain("Start serve with --reset-cursor misshapen to drop the cursor: its first poll then sets a new baseline")
    const health = await healthOf(port, (health) => health.workflows.length > 0 && health.notServed.length === 2)
    expect(health.workflows).toEqual([{ name: "sound", trigger: "boardtool/v1/cardDueSoon", state: "polling" }])
    expect(health.notServed.map((failed) => failed.name)).toEqual(["garbled", "misshapen"])
    expect(health.notServed[0]!.reason).toContain("--reset-cursor garbled")
    // The sound one goes on polling; the others send nothing.
    await second.waitFor("· polled: 0 new events", 3)
    expect(second.log()).not.toContain("✘ the poll failed")
    await stop(second)

    const third = start("--reset-cursor", "garbled", "--reset-cursor", "misshapen")
    await third.waitFor("↻ garbled: its stored cursor was dropped (--reset-cursor): its first poll sets a new baseline")
    await third.waitFor("○ baseline set", 2)
    const healed = await healthOf(port, (health) => health.workflows.length === 3)
    expect(healed.workflows.map((served) => [served.name, served.state])).toEqual([["garbled", "polling"], ["misshapen", "polling"], ["sound", "polling"]])
    expect(healed.notServed).toEqual([])
    await stop(third)

    const unknown = start("--reset-cursor", "nothing-here")
    expect(await unknown.exited).toBe(2)
    expect(unknown.log()).toContain("--reset-cursor nothing-here: not a polling workflow served here (those are: garbled, misshapen, sound)")
  })
})

describe("x-runner serve: workflow names", () => {
  it("names that need percent-encoding or differ only in case are served at the URLs announced; two files of one name are refused", async () => {
    const dir = temporary("names")
    const workflows = join(dir, "workflows")
    mkdirSync(workflows)
    const names = ["Case", "a#b", "case", "my hook", "ü"]
    for (const name of names) newCardWorkflow(workflows, `${name}.json`)
    const port = await freePort()
    const dataDir = join(dir, "data")
    const serve = served(
      ["serve", workflows, "--public-url", `http://127.0.0.1:${port}/hooks`, "--port", String(port), "--data-dir", dataDir],
      { ...env, XRUNNER_BOARDTOOL_SECRET: sim.secret }
    )
    // Each registered at Trello, whose HEAD check of its URL had to find the workflow.
    await serve.waitFor("● serving boardtool/v1/newCard", names.length)
    const announced = [...serve.log().matchAll(/● serving boardtool\/v1\/newCard at (\S+) /g)].map((match) => match[1]!)
    expect(announced.sort()).toEqual(names.map((name) => `http://127.0.0.1:${port}/hooks/${encodeURIComponent(name)}`).sort())
    for (const [index, url] of announced.entries()) {
      expect((await delivery(url, `${String(index).repeat(24)}`, sim.secret)).status, url).toBe(200)
    }
    for (let index = 0; index < announced.length; index++) await serve.waitFor(`■ event ${String(index).repeat(24)} succeeded`)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as Health).workflows.map((served) => [served.name, served.state])).toEqual(names.map((name) => [name, "listening"]))
    // A path the router would have taken case-insensitively is another workflow's, or none.
    expect((await delivery(`http://127.0.0.1:${port}/hooks/CASE`, "9".repeat(24), sim.secret)).status).toBe(404)
    // The health check answers at its one path, to GET and HEAD alone.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`, { method: "HEAD" })).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${port}/HEALTHZ`)).status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`, { method: "POST" })).status).toBe(404)
    await stop(serve)
    expect(new Set((await runsOf({ dataDir })).map((run) => run.workflow))).toEqual(new Set(names))

    const twice = join(dir, "twice")
    mkdirSync(twice)
    newCardWorkflow(twice, "hook.json")
    newCardWorkflow(twice, "hook.JSON")
    const refused = served(["serve", twice, "--public-url", `http://127.0.0.1:${port}/hooks`, "--port", String(port), "--data-dir", join(dir, "data2")], {
      ...env,
      XRUNNER_BOARDTOOL_SECRET: sim.secret
    })
    expect((await startedOrEnded(refused, "● serving")).code, refused.log()).toBe(2)
    expect(refused.log()).toContain(`${join(twice, "hook.JSON")} and ${join(twice, "hook.json")} would be served as one workflow ("hook"): rename one`)

    // A workflow at the health check's path would answer for it (or it for the workflow).
    const atHealth = join(dir, "at-health")
    mkdirSync(atHealth)
    newCardWorkflow(atHealth, "healthz.json")
    const clash = served(["serve", atHealth, "--public-url", `http://127.0.0.1:${port}/`, "--port", String(port), "--data-dir", join(dir, "data3")], {
      ...env,
      XRUNNER_BOARDTOOL_SECRET: sim.secret
    })
    expect((await startedOrEnded(clash, "● serving")).code, clash.log()).toBe(2)
    expect(clash.log()).toContain(`${join(atHealth, "healthz.json")} would be served at /healthz, the health check's path`)
  })
})
