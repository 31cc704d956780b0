/**
 * Sandbox mode: the three providers' simulators on free loopback ports, seeded, and the
 * connections pointed at them. No account or credential needed.
 */
import * as TrelloSimulator from "@x/boardtool/testing"
import * as BrowserUseSimulator from "@x/browseragent/testing"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import * as Effect from "effect/Effect"
import type { Connections } from "./Connections.js"

export const sandboxKeys = {
  trello: { key: "sandbox-trello-key", token: "sandbox-trello-token", secret: "sandbox-trello-secret" }
} as const

export interface SandboxOptions {
  /** Whether the simulators enforce the providers' rate limits (as they do by default). */
  readonly rateLimits: boolean
}

export const sandbox = (options: SandboxOptions) => Effect.acquireRelease(
  Effect.promise(async () => {
    const [trello, webflow, browserUse] = await Promise.all([
      // Well-known sandbox credentials: nothing secret, and usable from curl.
      TrelloSimulator.start({
        deliveryRetryDelayMs: 200,
        key: sandboxKeys.trello.key,
        token: sandboxKeys.trello.token,
        secret: sandboxKeys.trello.secret,
        ...(options.rateLimits ? {} : { rateLimits: false })
      }),
      WebflowSimulator.start(options.rateLimits ? {} : { rateLimit: false }),
      BrowserUseSimulator.start({ stepMs: 150 })
    ])
    const connections: Connections = {
      boardtool: { key: trello.key, token: trello.token, secret: trello.secret, baseUrl: trello.baseUrl },
      sitebuilder: {
        clientId: webflow.clientId,
        clientSecret: webflow.clientSecret,
        accessToken: webflow.issueToken(),
        authorizeUrl: webflow.authorizeUrl,
        tokenUrl: webflow.tokenUrl,
        baseUrl: webflow.baseUrl
      },
      browseragent: { value: browserUse.apiKey, baseUrl: browserUse.baseUrl }
    }
    return { connections, trello, webflow, browserUse }
  }),
  ({ browserUse, trello, webflow }) => Effect.promise(() => Promise.all([trello.close(), webflow.close(), browserUse.close()]))
)
