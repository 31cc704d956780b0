/**
 * The catalog's entry of `@x/boardtool` (Trello).
 *
 * @since 0.12.0
 */
import { boardtool } from "@x/boardtool"
import * as Effect from "effect/Effect"
import { type Entry, simulator } from "./entry.js"

// The simulator is imported when the sandbox starts one: `describe` and a run on a real provider never load it (a chunk of its own in the bundle).

/**
 * Trello's component, and its simulator for the sandbox.
 *
 * @since 0.12.0
 * @category constants
 */
export const entry: Entry = {
  component: boardtool,
  simulate: (options) =>
    Effect.map(
      simulator(() =>
        import("@x/boardtool/testing").then((Simulator) =>
          // Well-known sandbox credentials: nothing secret, and usable from curl.
          Simulator.start({
            deliveryRetryDelayMs: 200,
            key: "sandbox-trello-key",
            token: "sandbox-trello-token",
            secret: "sandbox-trello-secret",
            ...(options.rateLimits ? {} : { rateLimits: false }),
            faults: options.faults
          })
        )
      ),
      (sim) => ({
        connection: { key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl },
        note: `Trello simulator at ${sim.baseUrl} (key ${sim.key}, token ${sim.token})`,
        // Trello has one token per member: the other seeded members are the other accounts.
        accounts: [...sim.memberTokens].map(([username, token]) => ({
          connection: { key: sim.key, token, secret: sim.secret, baseUrl: sim.baseUrl },
          note: `Trello member ${username} (token ${token})`
        })),
        faultsFired: sim.faultsFired
      })
    )
}
