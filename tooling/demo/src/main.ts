/**
 * The demo: workflow steps run through the @x/core executor, with no credentials and no
 * network: a small example component against a loopback service, then the board component
 * against its Trello simulator, its newCard trigger included. It shows outputs, and the
 * typed errors bad input gets before anything is sent.
 */
import { boardtool } from "@x/boardtool"
import * as TrelloSimulator from "@x/boardtool/testing"
import { browseragent } from "@x/browseragent"
import * as BrowserUseSimulator from "@x/browseragent/testing"
import { Connection, Connections, Executor, OAuth2 } from "@x/core"
import { sitebuilder } from "@x/sitebuilder"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import * as Redacted from "effect/Redacted"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { createServer } from "node:http"
import { notes } from "./notes.js"
import { API_KEY, startNotesServer } from "./server.js"

const notesServer = await startNotesServer()
const trello = await TrelloSimulator.start({ deliveryRetryDelayMs: 50 })
const webflow = await WebflowSimulator.start()
const browserUse = await BrowserUseSimulator.start({ stepMs: 100 })
const executor = Executor.make([notes, boardtool, sitebuilder, browseragent])
// The connections' values by component; sitebuilder's is added once connected (below): a
// connection is opened when a step first needs it.
const connections = new Map<string, object>([
  ["notes", { apiKey: API_KEY, baseUrl: notesServer.baseUrl }],
  ["boardtool", { key: trello.key, token: trello.token, secret: trello.secret, baseUrl: trello.baseUrl }],
  ["browseragent", { key: "X-Browser-Use-API-Key", value: browserUse.apiKey, baseUrl: browserUse.baseUrl }]
])
// What the runner provides: the undici HttpClient, the opened connections over it, and no
// tracer (nothing exports spans).
const runtime = ManagedRuntime.make(Layer.merge(
  Connections.layer(connections).pipe(Layer.provideMerge(UndiciHttpClient.layer)),
  Layer.setTracerEnabled(false)
))
const run = <A, E>(effect: Effect.Effect<A, E, Connections.Connections | import("@effect/platform/HttpClient").HttpClient>) =>
  runtime.runPromise(effect)

const show = async (step: { label: string; name: string; type: string; parameters: Record<string, unknown> }) => {
  const outcome = await run(Effect.either(executor.run(step)))
  if (outcome._tag === "Right") {
    console.log(`✔ ${step.label} (${step.type})\n  ${JSON.stringify(outcome.right)}`)
    return outcome.right
  }
  const error = outcome.left
  const where = "request" in error && error.request !== undefined ? ` [${error.request.method} ${error.request.path}]` : ""
  console.log(`✘ ${step.label} (${step.type})\n  ${error._tag}: ${error.message}${where}`)
  return undefined
}

console.log("— an example component against a loopback service —")
await show({ label: "Create a note", name: "create", type: "notes/v1/createNote", parameters: { title: "Hello", body: "from the demo" } })
await show({ label: "Read it back", name: "read", type: "notes/v1/getNote", parameters: { id: "n1" } })
await show({ label: "Bad parameters", name: "bad", type: "notes/v1/createNote", parameters: { title: "", colour: "red" } })
await show({ label: "Missing note", name: "missing", type: "notes/v1/getNote", parameters: { id: "n99" } })
await show({ label: "Leaving the base URL", name: "escape", type: "notes/v1/customAction", parameters: { method: "GET", path: "https://elsewhere.example/" } })
await show({ label: "Unknown action", name: "unknown", type: "notes/v1/deleteNote", parameters: {} })

console.log("\n— boardtool/v1 against the Trello simulator —")
const boards = await run(executor.options("boardtool/v1/createCard", "idBoard", {}))
console.log(`  boards: ${boards.map((b) => b.label).join(", ")}`)
const idBoard = boards[0]!.value
const lists = await run(executor.options("boardtool/v1/createCard", "idList", { idBoard }))
console.log(`  lists of "${boards[0]!.label}": ${lists.map((l) => l.label).join(", ")}`)

// A webhook receiver on loopback, as the runner's `serve` will be: every request goes to the trigger.
const trigger = { label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard } }
let state: unknown = { webhookId: "pending" }
const receiver = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    const request = {
      method: req.method ?? "POST",
      url: callbackUrl,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body: new Uint8Array(Buffer.concat(chunks))
    }
    run(executor.handleDelivery(trigger, state, request)).then(({ events, response }) => {
      for (const event of events) console.log(`  ⚡ newCard event ${event.id}: ${JSON.stringify(event.output)}`)
      res.writeHead(response.status).end()
    }, () => res.writeHead(500).end())
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/newCard`
state = await run(executor.enableTrigger(trigger, callbackUrl))
console.log(`  newCard enabled: ${JSON.stringify(state)}`)

const card = await show({
  label: "Create a card",
  name: "card",
  type: "boardtool/v1/createCard",
  parameters: { idBoard, idList: lists[0]!.value, name: "Try the demo", desc: "Created by pnpm demo." }
}) as { id: string } | undefined
await trello.idle()
if (card !== undefined) await show({ label: "Get the card", name: "get", type: "boardtool/v1/getCard", parameters: { id: card.id } })
await show({ label: "A card id that is not one", name: "badId", type: "boardtool/v1/getCard", parameters: { id: "42" } })
await show({ label: "A card that does not exist", name: "noCard", type: "boardtool/v1/getCard", parameters: { id: "0".repeat(24) } })
await run(executor.disableTrigger(trigger, state))
console.log("  newCard disabled")

console.log("\n— sitebuilder/v1 against the Webflow simulator, connected with OAuth —")
const app = {
  clientId: webflow.clientId,
  clientSecret: webflow.clientSecret,
  authorizeUrl: webflow.authorizeUrl,
  tokenUrl: webflow.tokenUrl,
  baseUrl: webflow.baseUrl
}
const redirectUri = "http://127.0.0.1:3000/callback"
const oauthState = OAuth2.makeState()
const authorize = await run(Connection.authorizationUrl(sitebuilder.connection, app, { redirectUri, state: oauthState }))
console.log(`  authorize: ${authorize.replace(webflow.clientId, "<client id>")}`)
// The browser's part: the simulator consents at once and redirects to the callback.
const callback = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!).searchParams
await run(OAuth2.checkState(oauthState, callback.get("state") ?? undefined))
const token = await run(Connection.exchangeCode(sitebuilder.connection, app, { code: callback.get("code")!, redirectUri }))
connections.set("sitebuilder", { ...app, accessToken: Redacted.value(token.accessToken) })
console.log(`  connected (scopes: ${token.scope})`)
const sites = await run(executor.options("sitebuilder/v1/fulfillOrder", "siteId", {}))
const store = sites.find((site) => site.label === "Acme Store")!
const portfolio = sites.find((site) => site.label === "Portfolio")!
const orders = await run(executor.options("sitebuilder/v1/fulfillOrder", "orderId", { siteId: store.value }))
console.log(`  ${store.label}: ${orders.length} orders`)
await show({ label: "Fulfil an order", name: "fulfil", type: "sitebuilder/v1/fulfillOrder", parameters: { siteId: store.value, orderId: orders[0]!.value } })
await show({ label: "Fulfil on a site without e-commerce", name: "free", type: "sitebuilder/v1/fulfillOrder", parameters: { siteId: portfolio.value, orderId: orders[0]!.value } })
const collections = await run(executor.options("sitebuilder/v1/getCollectionItem", "collectionId", { siteId: store.value }))
const items = await run(executor.options("sitebuilder/v1/getCollectionItem", "itemId", { collectionId: collections[0]!.value }))
console.log(`  "${collections[0]!.label}": ${items.length} items, over two pages`)
await show({ label: "Read a CMS item", name: "item", type: "sitebuilder/v1/getCollectionItem", parameters: { collectionId: collections[0]!.value, itemId: items[41]!.value } })

console.log("\n— browseragent/v1 against the Browser Use simulator —")
const schema = JSON.stringify({ type: "object", properties: { product: { type: "string" }, price: { type: "number" } } })
await show({
  label: "Run a task and wait for it",
  name: "research",
  type: "browseragent/v1/createSession",
  parameters: { task: "Find the best-rated wireless mouse", model: "modelfamilyA-sonnet-4.6", outputSchema: { format: "JSON", schema }, waitForCompletion: true, timeoutSeconds: 60 }
})
await show({
  label: "A schema that is not JSON",
  name: "badSchema",
  type: "browseragent/v1/createSession",
  parameters: { task: "x", model: "modelfamilyA-sonnet-4.6", outputSchema: { format: "JSON", schema: "{ not json" } }
})

receiver.close()
notesServer.server.close()
await runtime.dispose()
await Promise.all([trello.close(), webflow.close(), browserUse.close()])
