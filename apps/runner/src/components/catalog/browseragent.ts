/**
 * The catalog's entry of `@x/browseragent` (Browser Use).
 *
 * @since 0.12.0
 */
import { browseragent } from "@x/browseragent"
import * as Effect from "effect/Effect"
import { type Entry, simulator } from "./entry.js"

// The simulator is imported when the sandbox starts one: `describe` and a run on a real provider never load it (a chunk of its own in the bundle).

/**
 * Browser Use's component, and its simulator for the sandbox.
 *
 * @since 0.12.0
 * @category constants
 */
export const entry: Entry = {
  component: browseragent,
  simulate: (options) =>
    Effect.map(
      // A well-known webhook secret, like Trello's: deliveries to a sandbox serve can be signed by hand.
      // V4 runs take 2.8 s: a run a workflow does not wait for is still going a few steps later
      // (to queue a message for its session), however busy the machine.
      simulator(() =>
        import("@x/browseragent/testing").then((Simulator) =>
          Simulator.start({ stepMs: 150, runStepMs: 700, webhookSecret: "sandbox-browser-use-webhook-secret", faults: options.faults })
        )
      ),
      (sim) => ({
        connection: { value: sim.apiKey, baseUrl: sim.baseUrl, webhookSecret: sim.webhookSecret },
        note: `Browser Use simulator at ${sim.baseUrl}`,
        faultsFired: sim.faultsFired
      })
    )
}
