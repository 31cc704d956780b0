/**
 * A branch on trigger data under `serve`, through the bundle as a user serves it:
 * examples/branch-on-trigger.json against a Webflow simulator (the trigger: its "Contact Us"
 * form, each submission delivered signed to the served webhook) and a Trello simulator (the
 * branches' writes). A submission whose Plan is "enterprise" takes the enterprise group (a card
 * in Doing, a comment on it) and skips the other; one with another plan takes the other group
 * (a card in To Do) and skips the enterprise one. Asserted at the Trello simulator (which writes
 * happened, each once) and in `runs show --output json` (each task's status, the skipped ones
 * included).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, runner, runsOf, served } from "./bin.js"

const example = fileURLToPath(new URL("../examples/branch-on-trigger.json", import.meta.url))
const { lists } = TrelloSimulator.seed

let trello: TrelloSimulator.Simulator
let webflow: WebflowSimulator.Simulator
beforeAll(async () => {
  trello = await TrelloSimulator.start({ rateLimits: false })
  webflow = await WebflowSimulator.start({ rateLimit: false, deliveryRetryDelayMs: 100 })
})
afterAll(async () => {
  await trello?.close()
  await webflow?.close()
})

/** A task as `runs show --output json` lists it. */
interface ShownStep {
  readonly path: string
  readonly status: string
  readonly output?: any
}

const cardsIn = (idList: string) => [...trello.cards.values()].filter((card) => card.idList === idList).map((card) => card.name)
const commentsOn = (idCard: string) =>
  trello.actions.filter((action) => action.type === "commentCard" && (action.data["card"] as { id?: string } | undefined)?.id === idCard)
    .map((action) => action.data["text"])

describe("x-runner serve: a branch on trigger data (examples/branch-on-trigger.json)", () => {
  it("an enterprise submission takes the enterprise group and skips the other; another plan the reverse; each write once", async () => {
    const port = await freePort()
    const dataDir = join(mkdtempSync(join(tmpdir(), "x-runner-branch-")), "data")
    const server = served(["serve", example, "--public-url", `http://127.0.0.1:${port}/hooks/branch-on-trigger`, "--port", String(port), "--data-dir", dataDir], {
      XRUNNER_SITEBUILDER_CLIENT_ID: webflow.clientId,
      XRUNNER_SITEBUILDER_CLIENT_SECRET: webflow.clientSecret,
      XRUNNER_SITEBUILDER_ACCESS_TOKEN: webflow.issueToken(),
      XRUNNER_SITEBUILDER_BASE_URL: webflow.baseUrl,
      XRUNNER_BOARDTOOL_KEY: trello.key,
      XRUNNER_BOARDTOOL_TOKEN: trello.token,
      XRUNNER_BOARDTOOL_BASE_URL: trello.baseUrl
    })
    try {
      // A serve that refuses the file exits at once: fail with its log rather than wait.
      await server.ready("● serving sitebuilder/v1/formSubmitted")
      const contact = WebflowSimulator.seed.forms.contact
      const enterprise = webflow.submitForm(contact, { Name: "Ada", Email: "ada@example.com", Message: "50 seats", Plan: "enterprise" })
      await server.waitFor(/■ event \S+ succeeded/)
      const team = webflow.submitForm(contact, { Name: "Grace", Email: "grace@example.com", Message: "A question", Plan: "team" })
      await server.waitFor(/■ event \S+ succeeded[\s\S]*■ event \S+ succeeded/)
      await webflow.idle()

      // At the provider: the enterprise lead's card in Doing with its comment, the other's in To Do; nothing else.
      expect(cardsIn(lists.roadmapDoing).filter((name) => name.startsWith("Call "))).toEqual(["Call Ada (enterprise)"])
      expect(cardsIn(lists.roadmapToDo).filter((name) => name.startsWith("Reply to "))).toEqual(["Reply to Grace (team)"])
      const call = [...trello.cards.values()].find((card) => card.name === "Call Ada (enterprise)")!
      expect(call.desc).toBe("ada@example.com: 50 seats")
      expect(commentsOn(call.id)).toEqual([`Enterprise lead from the Contact Us form, submitted ${enterprise.dateSubmitted}`])

      // In the run history: one succeeded run per submission, the branch not taken skipped.
      const runs = await runsOf({ dataDir })
      expect(runs.map((run) => run.status)).toEqual(["succeeded", "succeeded"])
      const statuses = async (event: string) => {
        const run = runs.find((row) => row.event === event)!
        const shown = await runner(["runs", "show", run.id, "--data-dir", dataDir, "--output", "json"])
        expect(shown.code, shown.stderr).toBe(0)
        return Object.fromEntries((JSON.parse(shown.stdout).steps as ReadonlyArray<ShownStep>).map((step) => [step.path, step.status]))
      }
      /** A run's tasks by key: the branch taken, and the other's (each skipped, its group first). */
      const branches = async (event: string, taken: string, other: string) => {
        const all = await statuses(event)
        const of = (group: string) => Object.fromEntries(Object.entries(all).filter(([key]) => key === group || key.startsWith(`${group}.`)))
        expect(Object.keys(all).sort()).toEqual([...Object.keys(of(taken)), ...Object.keys(of(other))].sort())
        expect(of(other)[other], `${other} in ${JSON.stringify(all)}`).toBe("skipped")
        expect(Object.values(of(other)).every((status) => status === "skipped"), JSON.stringify(all)).toBe(true)
        return of(taken)
      }
      expect(await branches(enterprise.id, "enterprise", "standard")).toEqual({ "enterprise": "succeeded", "enterprise.call": "succeeded", "enterprise.note": "succeeded" })
      expect(await branches(team.id, "standard", "enterprise")).toEqual({ "standard": "succeeded", "standard.reply": "succeeded" })
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })
})
