/**
 * The benchmark's providers: the three simulators the packages ship (`@x/boardtool/testing`,
 * `@x/sitebuilder/testing`, `@x/browseragent/testing`) on 127.0.0.1, in a process of their own
 * so that the client side is measured alone. Their rate limits are off: the per-call runs
 * measure the client, not the provider's quota (the rate-limit run has its own simulator).
 * Sends the parent what each client needs: base URLs, credentials, and a record to read.
 */
import * as TrelloSimulator from "@x/boardtool/testing"
import * as BrowserUseSimulator from "@x/browseragent/testing"
import * as WebflowSimulator from "@x/sitebuilder/testing"

const [trello, webflow, browserUse] = await Promise.all([
  TrelloSimulator.start({ rateLimits: false, seed: true }),
  WebflowSimulator.start({ rateLimit: false }),
  BrowserUseSimulator.start({ stepMs: 10 })
])

// A session to read: one short task, finished by the time the clients start.
const created = await fetch(`${browserUse.baseUrl}/sessions`, {
  method: "POST",
  headers: { "x-browser-use-api-key": browserUse.apiKey, "content-type": "application/json" },
  body: JSON.stringify({ task: "Read the front page" })
})
if (created.status !== 201 && created.status !== 200) throw new Error(`creating a session: ${created.status} ${await created.text()}`)
const session = (await created.json()) as { id: string }

export interface Providers {
  readonly trello: { readonly baseUrl: string; readonly key: string; readonly token: string; readonly cardId: string; readonly listId: string }
  readonly webflow: {
    readonly baseUrl: string
    readonly clientId: string
    readonly clientSecret: string
    readonly accessToken: string
    readonly collectionId: string
    readonly itemId: string
  }
  readonly browserUse: { readonly baseUrl: string; readonly apiKey: string; readonly sessionId: string }
}

const providers: Providers = {
  trello: {
    baseUrl: trello.baseUrl,
    key: trello.key,
    token: trello.token,
    cardId: TrelloSimulator.seed.cards.launchPost,
    listId: TrelloSimulator.seed.lists.roadmapToDo
  },
  webflow: {
    baseUrl: webflow.baseUrl,
    clientId: webflow.clientId,
    clientSecret: webflow.clientSecret,
    accessToken: webflow.issueToken(),
    collectionId: WebflowSimulator.seed.collections.products,
    itemId: WebflowSimulator.seed.productItem(42)
  },
  browserUse: { baseUrl: browserUse.baseUrl, apiKey: browserUse.apiKey, sessionId: session.id }
}
process.send?.(providers)
process.on("disconnect", () => process.exit(0))
