/**
 * Webflow's webhook triggers that do not go quiet: `serve` of sitebuilder's formSubmitted against
 * a Webflow simulator in this process. Submissions made while serve was down (killed: its
 * webhook stays registered and Webflow retries the failed deliveries) are caught up at the next
 * start and delivered as well, and each runs once; a webhook deleted at Webflow is found at the
 * next check and registered again, and the next submission runs.
 */
import * as Simulator from "@x/sitebuilder/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, served } from "./bin.js"

const store = "5eed00000000000000000001"
const { contact, newsletter } = Simulator.seed.forms

let sim: Simulator.Simulator
let env: Record<string, string>
const dir = mkdtempSync(join(tmpdir(), "x-runner-webflow-alive-"))
beforeAll(async () => {
  // Webflow retries a failed delivery (3 times, 10 minutes apart): here often and soon, so that
  // a retry reaches the restarted serve.
  sim = await Simulator.start({ rateLimit: false, deliveryRetries: 30, deliveryRetryDelayMs: 500 })
  env = {
    XRUNNER_SITEBUILDER_CLIENT_ID: sim.clientId,
    XRUNNER_SITEBUILDER_CLIENT_SECRET: sim.clientSecret,
    XRUNNER_SITEBUILDER_ACCESS_TOKEN: sim.issueToken(),
    XRUNNER_SITEBUILDER_BASE_URL: sim.baseUrl
  }
})
afterAll(async () => {
  await sim.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A workflow that reads every submission of the Contact Us form (a read fires no trigger). */
const workflow = () => {
  const file = join(dir, "contact-submissions.json")
  writeFileSync(file, JSON.stringify({
    label: "Read every contact submission",
    triggers: [{ label: "Contact Us submitted", name: "formSubmitted", type: "sitebuilder/v1/formSubmitted", parameters: { siteId: store, formName: "Contact Us" } }],
    tasks: [{ label: "Read it", name: "read", type: "sitebuilder/v1/getFormSubmission", parameters: { submissionId: "${trigger.id}" } }]
  }))
  return file
}
const succeeded = (log: string, id: string) => log.split(`■ event ${id} succeeded`).length - 1
const webhooksTo = (url: string) => [...sim.webhooks.values()].filter((webhook) => webhook.url === url)

describe("x-runner serve, Webflow's triggers that do not go quiet", () => {
  it("submissions made while serve was down each run once after it starts again, one delivered as well as caught up too; a deleted webhook is registered again", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/contact`
    const args = ["serve", workflow(), "--public-url", publicUrl, "--port", String(port), "--data-dir", join(dir, "data"), "--poll-interval", "1 second"]
    const first = served(args, env)
    await first.waitFor("● serving sitebuilder/v1/formSubmitted")
    const served1 = sim.submitForm(contact, { Name: "Served", Email: "served@example.com" }).id
    await first.waitFor(`■ event ${served1} succeeded`)
    // Killed: nothing disables the webhook, and Webflow's deliveries to it fail and are retried.
    first.child.kill("SIGKILL")
    await first.exited
    const [webhook] = webhooksTo(publicUrl)
    expect(webhook).toBeDefined()
    const deliveredBefore = sim.deliveries.filter((d) => d.webhookId === webhook!.id && d.status === 200).length

    const missed = [
      sim.submitForm(contact, { Name: "Missed one", Email: "one@example.com" }).id,
      sim.submitForm(contact, { Name: "Missed two", Email: "two@example.com" }).id
    ]
    // Another form's submission is not this trigger's.
    const other = sim.submitForm(newsletter, { Email: "news@example.com" }).id

    const second = served(args, env)
    try {
      await second.waitFor("● serving sitebuilder/v1/formSubmitted")
      await second.waitFor(/↻ caught up after the stop: \d events? missed since \S+ to run \(\d run already\)/)
      // Listed: the two missed and the one served before the kill (the catch-up starts at the
      // previous start); the missed ones are run by whichever comes first, retry or catch-up.
      const [, fresh, already] = /caught up after the stop: (\d) events? missed since \S+ to run \((\d) run already\)/.exec(second.log())!
      expect(Number(fresh) + Number(already)).toBe(3)
      for (const id of missed) await second.waitFor(`■ event ${id} succeeded`)
      // Every retry answered: the missed ones were delivered as well as caught up.
      await sim.idle()
      expect(sim.deliveries.filter((d) => d.webhookId === webhook!.id && d.status === 200).length - deliveredBefore).toBe(2)
      const log = first.log() + second.log()
      for (const id of [served1, ...missed]) expect(succeeded(log, id), `${id}: ${second.log()}`).toBe(1)
      expect(log).not.toContain(other)

      // Deleted at Webflow: the next check registers it again, and the next submission runs.
      sim.webhooks.delete(webhook!.id)
      await second.waitFor("✘ contact-submissions: the provider removed the webhook: registering it again")
      await second.waitFor("✔ contact-submissions: the webhook is registered again")
      expect(webhooksTo(publicUrl)).toHaveLength(1)
      const after = sim.submitForm(contact, { Name: "After", Email: "after@example.com" }).id
      await second.waitFor(`■ event ${after} succeeded`)
    } finally {
      second.child.kill("SIGTERM")
      await second.exited
    }
  })
})
