/**
 * The webhook triggers end to end against the simulator: enabled through the executor (the
 * site's webhook registered, or reused), a change made through the executor, the simulator's
 * signed delivery received on 127.0.0.1 and handed to `executor.handleDelivery`, one event out
 * with its id; the sample gives the same event; a failed delivery retried as Webflow retries;
 * disabled, the webhook is gone. And the simulator's webhooks API on its own: Webflow's checks.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHmac } from "node:crypto"
import { createServer } from "node:http"
import * as Deliveries from "../src/testing/deliveries.js"
import * as Simulator from "../src/testing/simulator.js"
import * as Store from "../src/testing/store.js"
import { executor } from "./support.js"
import { webhookTriggers } from "./webhookTriggers.js"

const { seed } = Simulator
const { exercise, simulation, trigger } = webhookTriggers()
const { provide, run } = simulation

describe("sitebuilder triggers against the simulator", () => {
  it.live("collectionItemCreated: an item created through the API is one signed delivery, one event; another collection's is none", () =>
    Effect.gen(function*() {
      const { answers, deliveries, events, sample } = yield* exercise(
        "collectionItemCreated",
        { siteId: seed.sites.store, collectionId: seed.collections.products },
        Effect.gen(function*() {
          yield* run("createCollectionItem", { siteId: seed.sites.store, collectionId: seed.collections.blogPosts, fieldData: { name: "Elsewhere", slug: "elsewhere" } })
          return yield* run("createCollectionItem", { siteId: seed.sites.store, collectionId: seed.collections.products, fieldData: { name: "Hook tee", slug: "hook-tee", price: 20 } })
        })
      )
      // Both are the site's collection_item_created: delivered (and answered 200), one is the trigger's.
      expect(deliveries.map((d) => [d.triggerType, d.attempt, d.status])).toEqual([["collection_item_created", 1, 200], ["collection_item_created", 1, 200]])
      expect(answers).toEqual([200, 200])
      expect(events).toHaveLength(1)
      const item = [...simulation.sim.items.values()].find((i) => i.fieldData["slug"] === "hook-tee")!
      expect(events[0]).toEqual({
        id: `${item.id}@${item.lastUpdated}`,
        output: expect.objectContaining({ id: item.id, siteId: seed.sites.store, collectionId: seed.collections.products, fieldData: expect.objectContaining({ name: "Hook tee", price: 20 }) })
      })
      // The newest item of the collection, first in the sample, is the same event.
      expect(sample[0]).toMatchObject({ id: events[0]!.id, output: { id: item.id, fieldData: { name: "Hook tee" } } })
    }))

  it.live("collectionItemChanged: an update is one event keyed by the item's new lastUpdated; a refused delivery is retried", () =>
    Effect.gen(function*() {
      const { answers, deliveries, events, sample } = yield* exercise(
        "collectionItemChanged",
        { siteId: seed.sites.store },
        run("updateCollectionItem", { siteId: seed.sites.store, collectionId: seed.collections.products, itemId: seed.productItem(3), fieldData: { name: "Renamed 3" } }),
        1
      )
      // Webflow retries anything but a 200: the second attempt is handled.
      expect(deliveries.map((d) => [d.attempt, d.status])).toEqual([[1, 503], [2, 200]])
      expect(answers).toEqual([503, 200])
      const item = simulation.sim.items.get(seed.productItem(3))!
      expect(events).toEqual([{ id: `${seed.productItem(3)}@${item.lastUpdated}`, output: expect.objectContaining({ fieldData: expect.objectContaining({ name: "Renamed 3" }) }) }])
      expect(sample[0]!.id).toBe(events[0]!.id)
    }))

  it.live("orderChanged: fulfilling an order is one event, the order fulfilled; the sample has it", () =>
    Effect.gen(function*() {
      const { events, sample } = yield* exercise(
        "orderChanged",
        { siteId: seed.sites.store },
        run("fulfillOrder", { siteId: seed.sites.store, orderId: seed.orders.unfulfilledToo })
      )
      expect(events).toHaveLength(1)
      expect(events[0]!.id).toMatch(new RegExp(`^${seed.orders.unfulfilledToo}:fulfilled:[0-9a-f]{16}$`))
      expect(events[0]!.output).toMatchObject({ orderId: seed.orders.unfulfilledToo, status: "fulfilled", customerInfo: { fullName: "Alan Turing" } })
      expect(sample.map((e) => e.id)).toContain(events[0]!.id)
    }))

  it.live("newOrder and sitePublished: enabled and disabled on the site; their samples read the site's orders and last publish", () =>
    Effect.gen(function*() {
      const orders = yield* exercise("newOrder", { siteId: seed.sites.store }, Effect.void)
      expect(orders.events).toEqual([])
      expect(orders.sample.length).toBe(5)
      const publish = yield* exercise("sitePublished", { siteId: seed.sites.portfolio }, Effect.void)
      expect(publish.sample).toEqual([{
        id: `${seed.sites.portfolio}@${simulation.sim.sites.get(seed.sites.portfolio)!.lastPublished}`,
        output: { siteId: seed.sites.portfolio, publishedOn: simulation.sim.sites.get(seed.sites.portfolio)!.lastPublished, domains: ["portfolio.webflow.io"] }
      }])
    }))

  it.live("formSubmitted: a visitor's submission of the named form is one event with what they sent; another form's is none; the sample has it", () =>
    Effect.gen(function*() {
      const { deliveries, events, sample } = yield* exercise(
        "formSubmitted",
        { siteId: seed.sites.store, formName: "Contact Us" },
        Effect.sync(() => {
          simulation.sim.submitForm(seed.forms.newsletter, { Email: "other@example.com" })
          simulation.sim.submitForm(seed.forms.contact, { Name: "Marvin", Email: "marvin@example.com", Message: "Life. Don't talk to me about life." })
        })
      )
      // Webflow filters by the form's name: the newsletter's submission is not even delivered.
      expect(deliveries.map((d) => d.triggerType)).toEqual(["form_submission"])
      const submission = [...simulation.sim.formSubmissions.values()].find((s) => s.formResponse["Name"] === "Marvin")!
      expect(events).toEqual([{
        id: submission.id,
        output: expect.objectContaining({ name: "Contact Us", formId: seed.forms.contact, data: { Name: "Marvin", Email: "marvin@example.com", Message: "Life. Don't talk to me about life." } })
      }])
      // The newest submission of the form, read through the forms API, is the same event.
      expect(sample[0]).toMatchObject({ id: submission.id, output: { name: "Contact Us", siteId: seed.sites.store, data: { Name: "Marvin" } } })
      expect(sample.every((event) => (event.output as { name: string }).name === "Contact Us")).toBe(true)
    }))

  it.live("formSubmitted with a form name: the webhook carries the filter", () =>
    Effect.gen(function*() {
      const t = trigger("formSubmitted", { siteId: seed.sites.store, formName: "Contact Us" })
      const state = (yield* provide(executor.enableTrigger(t, "http://127.0.0.1:9/hooks/form"))) as { webhookId: string }
      expect(simulation.sim.webhooks.get(state.webhookId)).toMatchObject({ triggerType: "form_submission", filter: { name: "Contact Us" } })
      yield* provide(executor.disableTrigger(t, state))
      // Already gone: fine.
      yield* provide(executor.disableTrigger(t, state))
    }))
})

describe("the simulator's webhooks API", () => {
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${simulation.sim.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${simulation.values["accessToken"]}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then(async (r) => ({ status: r.status, body: r.status === 204 ? undefined : await r.json() as any }))
  const site = () => seed.sites.portfolio

  it("creates (201), lists, reads and deletes (204, then 404) webhooks with Webflow's checks and limit", async () => {
    const made = await api("POST", `/sites/${site()}/webhooks`, { triggerType: "site_publish", url: "https://hooks.example.com/a" })
    expect(made).toMatchObject({ status: 201, body: { triggerType: "site_publish", siteId: site(), url: "https://hooks.example.com/a", filter: null } })
    expect((await api("GET", `/sites/${site()}/webhooks`)).body.webhooks.map((w: { id: string }) => w.id)).toContain(made.body.id)
    expect(await api("GET", `/webhooks/${made.body.id}`)).toMatchObject({ status: 200, body: { id: made.body.id } })
    expect((await api("DELETE", `/webhooks/${made.body.id}`)).status).toBe(204)
    expect(await api("GET", `/webhooks/${made.body.id}`)).toMatchObject({ status: 404, body: { code: "resource_not_found" } })

    expect(await api("POST", `/sites/${site()}/webhooks`, { triggerType: "item_sold", url: "https://hooks.example.com/a" }))
      .toMatchObject({ status: 400, body: { code: "unsupported_webhook_trigger_type" } })
    expect(await api("POST", `/sites/${site()}/webhooks`, { triggerType: "site_publish", url: "not a url" }))
      .toMatchObject({ status: 400, body: { code: "validation_error", details: [{ param: "url" }] } })
    expect(await api("POST", `/sites/${site()}/webhooks`, { triggerType: "site_publish", url: "https://hooks.example.com/a", filter: { name: "Contact" } }))
      .toMatchObject({ status: 400, body: { code: "incompatible_webhook_filter" } })

    for (let i = 0; i < 75; i++) {
      expect((await api("POST", `/sites/${site()}/webhooks`, { triggerType: "page_created", url: `https://hooks.example.com/${i}` })).status).toBe(201)
    }
    expect(await api("POST", `/sites/${site()}/webhooks`, { triggerType: "page_created", url: "https://hooks.example.com/76" }))
      .toMatchObject({ status: 400, body: { details: [{ param: "triggerType" }] } })
    // Another type, or another site, has its own 75.
    expect((await api("POST", `/sites/${site()}/webhooks`, { triggerType: "page_deleted", url: "https://hooks.example.com/x" })).status).toBe(201)
    for (const w of [...simulation.sim.webhooks.values()].filter((w) => w.siteId === site())) simulation.sim.webhooks.delete(w.id)
  })

  it("deliveries: a form submission's webhook with a filter gets only its form's; the body and signature are Webflow's", async () => {
    const received: Array<{ headers: Record<string, unknown>; body: string }> = []
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/form`
    // The simulator's deliveries on a store of their own: the forms' simulator (submitForm) is not in this package yet.
    const store = Store.make()
    const deliveries = Deliveries.make({ secret: "app-secret", store, retries: 3, retryDelayMs: 20 })
    const webhook = (id: string, triggerType: string, filter: { name: string } | null, siteId = "5eed00000000000000000001") =>
      store.webhooks.set(id, { id, siteId, triggerType, url: `${url}?${id}`, filter, createdOn: "", lastTriggered: null })
    webhook("contact", "form_submission", { name: "Contact" })
    webhook("every", "form_submission", null)
    webhook("publish", "site_publish", null)
    webhook("elsewhere", "form_submission", null, "5eed00000000000000000002")
    const submission = (name: string) => ({ name, siteId: "5eed00000000000000000001", id: name, data: { email: "a@example.com" }, submittedAt: "2026-11-21T10:00:00.000Z" })
    store.emit("5eed00000000000000000001", "form_submission", submission("Newsletter"))
    store.emit("5eed00000000000000000001", "form_submission", submission("Contact"))
    await deliveries.idle()
    expect(deliveries.deliveries.map((d) => d.webhookId).sort()).toEqual(["contact", "every", "every"])
    const toContact = received.find((r) => r.body.includes('"Contact"') && String(r.headers["content-type"]) === "application/json")!
    expect(JSON.parse(toContact.body)).toEqual({ triggerType: "form_submission", payload: submission("Contact") })
    const timestamp = String(toContact.headers["x-webflow-timestamp"])
    expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(60_000)
    expect(toContact.headers["x-webflow-signature"]).toBe(createHmac("sha256", "app-secret").update(`${timestamp}:${toContact.body}`).digest("hex"))
    await deliveries.close()
    await new Promise((resolve) => server.close(resolve))
  })

  it("a delivery nobody answers is tried 4 times (Webflow's 3 retries); close stops the retries waiting", async () => {
    const store = Store.make()
    const deliveries = Deliveries.make({ secret: "s", store, retries: 3, retryDelayMs: 10 })
    store.webhooks.set("w", { id: "w", siteId: "s1", triggerType: "page_created", url: "http://127.0.0.1:9/none", filter: null, createdOn: "", lastTriggered: null })
    store.emit("s1", "page_created", { siteId: "s1", pageId: "p" })
    await deliveries.idle()
    expect(deliveries.deliveries.map((d) => [d.attempt, d.status])).toEqual([[1, "error"], [2, "error"], [3, "error"], [4, "error"]])
    const slow = Deliveries.make({ secret: "s", store, retries: 3, retryDelayMs: 60_000 })
    store.emit("s1", "page_created", { siteId: "s1", pageId: "q" })
    // Its first attempt made (and failed): the retry now waits its minute.
    while (slow.deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await slow.close()
    await slow.idle()
    expect(slow.deliveries.map((d) => d.attempt)).toEqual([1])
    await deliveries.close()
  })
})
